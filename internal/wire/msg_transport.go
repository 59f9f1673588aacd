package wire

// Transport-level messages: what any server answers without knowing the family of the
// request. This file is the pattern for every message family: structs with `codec` tags only,
// times as int64, and one init that registers each struct under its number from msg_types.go.

// OK is the reply of a request that succeeded and has nothing else to say.
type OK struct{}

// Error is the reply of a request that failed, and the Go error a Client returns for it. Errno
// is a Slurm errno (see errno.go) so commands can print Slurm's own texts and exit codes.
type Error struct {
	Errno int32  `codec:"errno"`
	Text  string `codec:"text"`
	// UserMsg is the controller's explanation for the user, printed before the errno's text
	// (Slurm's err_msg in a refused submission, e.g. "invalid partition specified: x").
	UserMsg string `codec:"user_msg,omitempty"`

	// cause is the local error behind a transport failure (never sent).
	cause error
}

// Ping asks a peer whether it is alive. SentNanos is the sender's Unix time in nanoseconds,
// echoed back so the sender can measure the round trip.
type Ping struct {
	Seq       uint64 `codec:"seq"`
	SentNanos int64  `codec:"sent_ns"`
}

// PingReply answers a Ping, echoing its fields.
type PingReply struct {
	Seq       uint64 `codec:"seq"`
	SentNanos int64  `codec:"sent_ns"`
	// Load is the node's machine now (scontrol show node's CPULoad and FreeMem).
	Load HostLoad `codec:"load"`
}

func init() {
	Register(MsgOK, "OK", func() any { return new(OK) })
	Register(MsgError, "ERROR", func() any { return new(Error) })
	Register(MsgPing, "PING", func() any { return new(Ping) })
	Register(MsgPingReply, "PING_REPLY", func() any { return new(PingReply) })
}

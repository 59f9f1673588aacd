package wire

// Message type numbers. They are ONLY EVER APPENDED: a number, once used, keeps its meaning
// forever and is never reused or renumbered, because peers of different versions must agree
// on it. 0 is never a message, so a zeroed envelope cannot pass for one.
//
// Each message family gets its own block of 100 numbers, declared here so that every number
// in the system is visible in one place; its structs and Register calls live in a file of its
// own, named msg_<family>.go (see msg_transport.go for the pattern). To add a family, append a
// new block after the last one.
const (
	// Transport (msg_transport.go): 1–99.
	MsgOK        MsgType = 1 // generic success reply with no payload (Slurm's RESPONSE_SLURM_RC with 0)
	MsgError     MsgType = 2 // error reply: Slurm-style errno and text
	MsgPing      MsgType = 3 // liveness probe
	MsgPingReply MsgType = 4 // answer to MsgPing

	// Next family: 100–199.
)

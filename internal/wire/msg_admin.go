package wire

// Controller administration: what scontrol asks of slurmctld itself (show config,
// reconfigure, shutdown).

// BuildInfoRequest asks for the controller's configuration as `scontrol show config` prints
// it (Slurm's REQUEST_BUILD_INFO).
type BuildInfoRequest struct {
	// ConfHash is the SHA-256 of the caller's slurm.conf, so the controller can say whether
	// the two match (HASH_VAL).
	ConfHash []byte `codec:"conf_hash"`
}

// BuildInfoReply answers MsgBuildInfo: the rendered "Key = value" text from the
// "Configuration data as of" header to the last key, without the controller status lines,
// which scontrol adds after pinging each controller.
type BuildInfoReply struct {
	Text string `codec:"text"`
}

// ReconfigureRequest asks the controller to re-read slurm.conf (scontrol reconfigure).
type ReconfigureRequest struct{}

// ShutdownRequest asks the controller to stop (scontrol shutdown [slurmctld]).
type ShutdownRequest struct {
	// ControllerOnly is `shutdown slurmctld`: the nodes' slurmd keep running.
	ControllerOnly bool `codec:"controller_only"`
}

// SetDebugLevelRequest sets the controller's log level until the next reconfigure (scontrol
// setdebug). Level is Slurm's number: 0 quiet, 1 fatal, 2 error, 3 info, 4 verbose, 5 debug
// to 9 debug5. Operators only; the reply is MsgOK or an Error.
type SetDebugLevelRequest struct {
	Level uint32 `codec:"level"`
}

// SetDebugFlagsRequest adds and removes DebugFlags until the next reconfigure (scontrol
// setdebugflags +NAME/-NAME). The flags are conf.ParseDebugFlags' bits. Operators only.
type SetDebugFlagsRequest struct {
	Plus  uint64 `codec:"plus"`
	Minus uint64 `codec:"minus"`
}

// SetSchedLogRequest sets SlurmSchedLogLevel (scontrol schedloglevel): 0 disable, 1 enable.
type SetSchedLogRequest struct {
	Level uint32 `codec:"level"`
}

// SetFSDampeningRequest sets FairShareDampeningFactor until the next reconfigure (scontrol
// fsdampeningfactor). Operators only.
type SetFSDampeningRequest struct {
	Factor uint16 `codec:"factor"`
}

func init() {
	Register(MsgSetFSDampening, "REQUEST_SET_FS_DAMPENING_FACTOR", func() any { return new(SetFSDampeningRequest) })
	Register(MsgSetDebugLevel, "REQUEST_SET_DEBUG_LEVEL", func() any { return new(SetDebugLevelRequest) })
	Register(MsgSetDebugFlags, "REQUEST_SET_DEBUGFLAGS", func() any { return new(SetDebugFlagsRequest) })
	Register(MsgSetSchedLog, "REQUEST_SET_SCHEDLOG_LEVEL", func() any { return new(SetSchedLogRequest) })
	Register(MsgBuildInfo, "REQUEST_BUILD_INFO", func() any { return new(BuildInfoRequest) })
	Register(MsgBuildInfoReply, "RESPONSE_BUILD_INFO", func() any { return new(BuildInfoReply) })
	Register(MsgReconfigure, "REQUEST_RECONFIGURE", func() any { return new(ReconfigureRequest) })
	Register(MsgShutdown, "REQUEST_SHUTDOWN", func() any { return new(ShutdownRequest) })
}

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

func init() {
	Register(MsgBuildInfo, "REQUEST_BUILD_INFO", func() any { return new(BuildInfoRequest) })
	Register(MsgBuildInfoReply, "RESPONSE_BUILD_INFO", func() any { return new(BuildInfoReply) })
	Register(MsgReconfigure, "REQUEST_RECONFIGURE", func() any { return new(ReconfigureRequest) })
	Register(MsgShutdown, "REQUEST_SHUTDOWN", func() any { return new(ShutdownRequest) })
}

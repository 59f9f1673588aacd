package wire

// Registration storms: a slurmd emulating thousands of nodes registers them in batches, one
// call per batch rather than one per node (Slurm has no such message: each of its slurmd
// processes hosts one node, so a storm is spread over as many processes and connections).
// The controller takes each registration exactly as a NodeRegistration of its own.

// MaxRegistrationBatch bounds the registrations of one batch (a garbled or hostile request
// must not make the controller allocate without limit).
const MaxRegistrationBatch = 4096

// NodeRegistrationBatch is several hosted nodes' registrations.
type NodeRegistrationBatch struct {
	Nodes []NodeRegistration `codec:"nodes"`
}

// NodeRegistrationResult is the controller's answer to one registration of a batch: Errno 0
// and the reply, or the error a single registration would have got.
type NodeRegistrationResult struct {
	Errno int32                 `codec:"errno"`
	Text  string                `codec:"text,omitempty"`
	Reply NodeRegistrationReply `codec:"reply"`
}

// NodeRegistrationBatchReply answers a batch, one result per registration, in order.
type NodeRegistrationBatchReply struct {
	Results []NodeRegistrationResult `codec:"results"`
}

func init() {
	Register(MsgRegisterBatch, "MESSAGE_NODE_REGISTRATION_STATUS_BATCH", func() any { return new(NodeRegistrationBatch) })
	Register(MsgRegisterBatchReply, "RESPONSE_NODE_REGISTRATION_BATCH", func() any { return new(NodeRegistrationBatchReply) })
}

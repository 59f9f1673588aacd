package wire

// UpdateNodeRequest changes the state of nodes (scontrol update NodeName=... State=...
// Reason=...; Slurm's REQUEST_UPDATE_NODE). Only operators may send it; the reply is MsgOK
// or an Error.
type UpdateNodeRequest struct {
	NodeNames string `codec:"node_names"` // hostlist as typed
	// State is the requested state as scontrol names it, upper case: DOWN, DRAIN, FAIL,
	// RESUME, UNDRAIN, IDLE ("" = unchanged).
	State  string `codec:"state"`
	Reason string `codec:"reason"`
	// ReasonUID is the uid the reason is recorded under (Slurm's reason_uid: the caller).
	ReasonUID uint32 `codec:"reason_uid"`
}

// UpdatePartitionRequest changes a partition (scontrol update PartitionName=...; Slurm's
// REQUEST_UPDATE_PARTITION). Empty strings and NoVal numbers leave a field unchanged. Only
// operators may send it; the reply is MsgOK or an Error.
type UpdatePartitionRequest struct {
	Name    string `codec:"name"`
	State   string `codec:"state"`    // UP, DOWN, DRAIN, INACTIVE
	MaxTime uint32 `codec:"max_time"` // minutes, Infinite = UNLIMITED
	Nodes   string `codec:"nodes"`    // hostlist, "ALL" for every node
}

func init() {
	Register(MsgUpdateNode, "REQUEST_UPDATE_NODE", func() any { return new(UpdateNodeRequest) })
	Register(MsgUpdatePartition, "REQUEST_UPDATE_PARTITION", func() any { return new(UpdatePartitionRequest) })
}

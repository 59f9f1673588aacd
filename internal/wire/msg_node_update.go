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

	// Features (AvailableFeatures=, Features=) and ActiveFeatures are comma-separated
	// lists; Weight the scheduling weight; Comment and Extra free text ("" clears them). Nil
	// leaves a field unchanged.
	Features       *string `codec:"features,omitempty"`
	ActiveFeatures *string `codec:"active_features,omitempty"`
	Weight         *uint32 `codec:"weight,omitempty"`
	Comment        *string `codec:"comment,omitempty"`
	Extra          *string `codec:"extra,omitempty"`
}

// UpdatePartitionRequest changes a partition (scontrol update PartitionName=...; Slurm's
// REQUEST_UPDATE_PARTITION). Empty strings, NoVal numbers and nil pointers leave a field
// unchanged (the pointers are absent from the encoding then, so an older client's request
// still decodes). Only operators may send it; the reply is MsgOK or an Error.
type UpdatePartitionRequest struct {
	Name    string `codec:"name"`
	State   string `codec:"state"`    // UP, DOWN, DRAIN, INACTIVE
	MaxTime uint32 `codec:"max_time"` // minutes, Infinite = UNLIMITED
	Nodes   string `codec:"nodes"`    // hostlist, "ALL" for every node

	// PreemptMode is Slurm's preempt_mode bits as preempt_mode_num reads the value (GANG is
	// dropped and a mode with WITHIN ignored by the controller, as Slurm's update_part does).
	PreemptMode       *uint16 `codec:"preempt_mode,omitempty"`
	PriorityTier      *uint16 `codec:"priority_tier,omitempty"`
	PriorityJobFactor *uint16 `codec:"priority_job_factor,omitempty"`
	GraceTime         *uint32 `codec:"grace_time,omitempty"`   // seconds
	DefaultTime       *uint32 `codec:"default_time,omitempty"` // minutes, Infinite = UNLIMITED
	MaxNodes          *uint32 `codec:"max_nodes,omitempty"`    // Infinite = UNLIMITED
	MinNodes          *uint32 `codec:"min_nodes,omitempty"`
	// MaxShare is Slurm's max_share (OverSubscribe): 0 EXCLUSIVE, 1 NO, n YES:n, and with
	// the 0x8000 bit FORCE:n.
	MaxShare *uint16 `codec:"max_share,omitempty"`
	Default  string  `codec:"default,omitempty"` // YES makes it the default partition, NO clears that

	// Flags set (YES) or clear (NO) Hidden, RootOnly, ReqResv, LLN, ExclusiveUser and
	// DisableRootJobs, by those names.
	Flags          map[string]bool `codec:"flags,omitempty"`
	MaxCPUsPerNode *uint32         `codec:"max_cpus_per_node,omitempty"` // Infinite = UNLIMITED
	// The access lists, as given: "" or ALL for every one (Alternate: "" or NONE for none).
	AllowGroups   *string `codec:"allow_groups,omitempty"`
	AllowAccounts *string `codec:"allow_accounts,omitempty"`
	AllowQos      *string `codec:"allow_qos,omitempty"`
	DenyAccounts  *string `codec:"deny_accounts,omitempty"`
	DenyQos       *string `codec:"deny_qos,omitempty"`
	AllocNodes    *string `codec:"alloc_nodes,omitempty"`
	Alternate     *string `codec:"alternate,omitempty"`
	// The memory default and limit, MB: one per CPU or per node (setting one drops the
	// other, as Slurm keeps them in one field).
	DefMemPerCPU  *uint64 `codec:"def_mem_per_cpu,omitempty"`
	DefMemPerNode *uint64 `codec:"def_mem_per_node,omitempty"`
	MaxMemPerCPU  *uint64 `codec:"max_mem_per_cpu,omitempty"`
	MaxMemPerNode *uint64 `codec:"max_mem_per_node,omitempty"`
}

// CreatePartitionRequest makes a partition (scontrol create PartitionName=) with the options
// an update would set.
type CreatePartitionRequest UpdatePartitionRequest

// DeletePartitionRequest removes a partition (scontrol delete PartitionName=).
type DeletePartitionRequest struct {
	Name string `codec:"name"`
}

func init() {
	Register(MsgUpdateNode, "REQUEST_UPDATE_NODE", func() any { return new(UpdateNodeRequest) })
	Register(MsgUpdatePartition, "REQUEST_UPDATE_PARTITION", func() any { return new(UpdatePartitionRequest) })
	Register(MsgCreatePartition, "REQUEST_CREATE_PARTITION", func() any { return new(CreatePartitionRequest) })
	Register(MsgDeletePartition, "REQUEST_DELETE_PARTITION", func() any { return new(DeletePartitionRequest) })
}

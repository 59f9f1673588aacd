package wire

// Node messages: slurmd's registration and batch-completion reports to slurmctld, and the node
// table that sinfo and scontrol read.

// NodeRegistration is what slurmd tells the controller when it starts, after a reconfigure,
// and when the controller asks (Slurm's MESSAGE_NODE_REGISTRATION_STATUS). One slurmd hosting
// several nodes (emulation, `slurmd -N`) sends one registration per node.
type NodeRegistration struct {
	NodeName       string `codec:"node_name"`
	Hostname       string `codec:"hostname"`
	Addr           string `codec:"addr"` // host:port where this node's slurmd listens
	Version        string `codec:"version"`
	CPUs           uint32 `codec:"cpus"`
	Boards         uint32 `codec:"boards"`
	Sockets        uint32 `codec:"sockets"`
	CoresPerSocket uint32 `codec:"cores_per_socket"`
	ThreadsPerCore uint32 `codec:"threads_per_core"`
	RealMemory     uint64 `codec:"real_memory"` // MiB
	TmpDisk        uint64 `codec:"tmp_disk"`    // MiB
	BootTime       int64  `codec:"boot_time"`
	SlurmdStart    int64  `codec:"slurmd_start"`
	// RunningJobs lists the jobs that still have live steps on this node (after a slurmd
	// restart, the ones it reattached to), so the controller can reconcile.
	RunningJobs []uint32 `codec:"running_jobs"`
	// Arch and OS are uname's machine and "sysname release version" (or slurmd's SLURM_ARCH
	// and SLURM_OS), shown by scontrol show node. Empty from a slurmd that predates them.
	Arch string `codec:"arch"`
	OS   string `codec:"os"`
	// Load is the node's machine as it reports it at registration and in ping replies.
	Load HostLoad `codec:"load"`
}

// HostLoad is what a slurmd reports of its machine, as Slurm's does (get_cpu_load,
// get_free_mem): the 5-minute load average in hundredths and the free memory in MiB. Known
// is false from a slurmd that predates it.
type HostLoad struct {
	Known   bool   `codec:"known"`
	CPULoad uint32 `codec:"cpu_load"`
	FreeMem uint64 `codec:"free_mem"`
}

// NodeRegistrationReply tells a node which of its RunningJobs the controller no longer knows
// as running there; slurmd terminates those.
type NodeRegistrationReply struct {
	TerminateJobs []uint32 `codec:"terminate_jobs"`
}

// NodeInfoRequest asks for the node and partition tables.
type NodeInfoRequest struct {
	NodeNames []string `codec:"node_names"` // empty = every node
	// HideHidden leaves Hidden partitions out unless the caller is an operator (sinfo and
	// scontrol show partition without -a; Slurm's pack_all_part without SHOW_ALL).
	HideHidden bool `codec:"hide_hidden,omitempty"`
}

// NodeInfo is one node as sinfo and scontrol show it.
type NodeInfo struct {
	Name           string `codec:"name"`
	Hostname       string `codec:"hostname"`
	Addr           string `codec:"addr"`
	State          uint32 `codec:"state"` // compat/states.NodeState bits
	CPUs           uint32 `codec:"cpus"`
	AllocCPUs      uint32 `codec:"alloc_cpus"`
	Boards         uint32 `codec:"boards"`
	Sockets        uint32 `codec:"sockets"`
	CoresPerSocket uint32 `codec:"cores_per_socket"`
	ThreadsPerCore uint32 `codec:"threads_per_core"`
	RealMemory     uint64 `codec:"real_memory"`
	AllocMemory    uint64 `codec:"alloc_memory"`
	TmpDisk        uint64 `codec:"tmp_disk"`
	Weight         uint32 `codec:"weight"`
	Features       string `codec:"features"`
	// ActiveFeatures is set when the active features differ from Features or were set to
	// nothing (shown blank, where an unset list is "(null)"); nil means the same as Features.
	ActiveFeatures *string  `codec:"active_features,omitempty"`
	Comment        string   `codec:"comment,omitempty"`
	Extra          string   `codec:"extra,omitempty"`
	Owner          string   `codec:"owner"` // "user(uid)" of the jobs it is kept to (--exclusive=user), "" for none
	Gres           string   `codec:"gres"`
	Partitions     []string `codec:"partitions"`
	Reason         string   `codec:"reason"`
	ReasonUID      uint32   `codec:"reason_uid"`
	ReasonTime     int64    `codec:"reason_time"`
	BootTime       int64    `codec:"boot_time"`
	SlurmdStart    int64    `codec:"slurmd_start"`
	LastBusy       int64    `codec:"last_busy"`
	Version        string   `codec:"version"`

	// Fields scontrol show node prints that the ones above do not carry.
	Port      uint16 `codec:"port"`       // slurmd port from slurm.conf (printed when not SlurmdPort)
	CPUEfctv  uint32 `codec:"cpus_efctv"` // CPUs usable by jobs (CPUs less specialized cores)
	CfgTRES   string `codec:"cfg_tres"`   // "cpu=64,mem=257000M,billing=64"
	AllocTRES string `codec:"alloc_tres"` // "" when nothing is allocated
	// Arch, OS, CPULoad (hundredths, wire.NoVal = unknown) and FreeMem (MiB, NoVal64 =
	// unknown) are what the node reports about itself; empty/unknown until slurmd sends them.
	Arch    string `codec:"arch"`
	OS      string `codec:"os"`
	CPULoad uint32 `codec:"cpu_load"`
	FreeMem uint64 `codec:"free_mem"`
	// GresUsed is what is in use of the node's GRES as scontrol -d and sinfo's GresUsed
	// show it ("gpu:1", "gpu:a100:1(IDX:0)"); "" when GresTypes is empty.
	GresUsed string `codec:"gres_used"`
}

// PartitionInfo is one partition as sinfo and scontrol show it.
type PartitionInfo struct {
	Name        string `codec:"name"`
	Nodes       string `codec:"nodes"` // hostlist
	Default     bool   `codec:"default"`
	State       string `codec:"state"`        // UP, DOWN, DRAIN, INACTIVE
	MaxTime     uint32 `codec:"max_time"`     // minutes, Infinite
	DefaultTime uint32 `codec:"default_time"` // minutes, NoVal
	MaxNodes    uint32 `codec:"max_nodes"`
	MinNodes    uint32 `codec:"min_nodes"`
	TotalCPUs   uint32 `codec:"total_cpus"`
	TotalNodes  uint32 `codec:"total_nodes"`

	// Fields scontrol show partition prints that the ones above do not carry; strings are as
	// slurm.conf gives them ("" = not set).
	AllowGroups          string `codec:"allow_groups"`
	AllowAccounts        string `codec:"allow_accounts"`
	AllowQos             string `codec:"allow_qos"`
	DenyAccounts         string `codec:"deny_accounts"`
	DenyQos              string `codec:"deny_qos"`
	AllocNodes           string `codec:"alloc_nodes"`
	Alternate            string `codec:"alternate"`
	QOS                  string `codec:"qos"`
	Hidden               bool   `codec:"hidden"`
	RootOnly             bool   `codec:"root_only"`
	ReqResv              bool   `codec:"req_resv"`
	LLN                  bool   `codec:"lln"`
	ExclusiveUser        bool   `codec:"exclusive_user"`
	DisableRootJobs      bool   `codec:"disable_root_jobs"`
	GraceTime            uint32 `codec:"grace_time"`
	MaxCPUsPerNode       uint32 `codec:"max_cpus_per_node"` // Infinite = UNLIMITED
	PriorityJobFactor    uint16 `codec:"priority_job_factor"`
	PriorityTier         uint16 `codec:"priority_tier"`
	OverSubscribe        string `codec:"oversubscribe"` // as scontrol prints it: NO, EXCLUSIVE, YES:4, FORCE:4
	OverTimeLimit        string `codec:"over_time_limit"`
	PreemptMode          string `codec:"preempt_mode"`
	DefMemPerCPU         uint64 `codec:"def_mem_per_cpu"`
	DefMemPerNode        uint64 `codec:"def_mem_per_node"`
	MaxMemPerCPU         uint64 `codec:"max_mem_per_cpu"`
	MaxMemPerNode        uint64 `codec:"max_mem_per_node"`
	TRES                 string `codec:"tres"`
	BillingWeights       string `codec:"billing_weights"`
	SelectTypeParameters string `codec:"select_type_parameters"` // the partition's own, "" = NONE
}

// NodeInfoReply answers MsgNodeInfo.
type NodeInfoReply struct {
	LastUpdate int64           `codec:"last_update"`
	Nodes      []NodeInfo      `codec:"nodes"`
	Partitions []PartitionInfo `codec:"partitions"`
}

// BatchJobComplete reports that a job's batch script ended on its batch host (Slurm's
// REQUEST_COMPLETE_BATCH_SCRIPT). It is retried until the controller acknowledges it, and the
// controller treats a repeat as a no-op.
type BatchJobComplete struct {
	JobID    uint32 `codec:"job_id"`
	NodeName string `codec:"node_name"`
	// WaitStatus is the batch shell's wait(2) status (exit code << 8 | signal), what
	// scontrol shows as ExitCode=rc:sig.
	WaitStatus uint32 `codec:"wait_status"`
	// TimedOut says the step was killed at its time limit; Cancelled that it was killed
	// because the controller asked (scancel, MsgTerminateJob).
	TimedOut  bool `codec:"timed_out"`
	Cancelled bool `codec:"cancelled"`
	// LaunchFailed says the script could not be started at all (Text says why).
	LaunchFailed bool   `codec:"launch_failed"`
	Text         string `codec:"text"`
	// OutOfMemory says the step's memory cgroup counted an oom_kill event: the job ends
	// OUT_OF_MEMORY (Slurm's task/cgroup OOM detection).
	OutOfMemory bool `codec:"out_of_memory"`
}

// PrologComplete reports a failed Prolog on one node (Slurm's REQUEST_COMPLETE_PROLOG with a
// nonzero prolog_rc, and the registration status ESLURMD_PROLOG_FAILED): the controller
// drains the node ("Prolog error") and requeues the job held, or cancels it.
type PrologComplete struct {
	JobID    uint32 `codec:"job_id"`
	NodeName string `codec:"node_name"`
	Restarts uint32 `codec:"restarts"` // the incarnation whose prolog ran
	Status   int32  `codec:"status"`   // the prolog's wait(2) status; 0 = success
	TimedOut bool   `codec:"timed_out"`
}

// EpilogComplete reports that a job's Epilog ran on one node (Slurm's
// MESSAGE_EPILOG_COMPLETE); a nonzero Status drains the node ("Epilog error").
type EpilogComplete struct {
	JobID    uint32 `codec:"job_id"`
	NodeName string `codec:"node_name"`
	Status   int32  `codec:"status"` // the epilog's wait(2) status; 0 = success
	TimedOut bool   `codec:"timed_out"`
}

func init() {
	Register(MsgNodeRegistration, "MESSAGE_NODE_REGISTRATION_STATUS", func() any { return new(NodeRegistration) })
	Register(MsgNodeRegistrationReply, "RESPONSE_NODE_REGISTRATION", func() any { return new(NodeRegistrationReply) })
	Register(MsgNodeInfo, "REQUEST_NODE_INFO", func() any { return new(NodeInfoRequest) })
	Register(MsgNodeInfoReply, "RESPONSE_NODE_INFO", func() any { return new(NodeInfoReply) })
	Register(MsgBatchJobComplete, "REQUEST_COMPLETE_BATCH_SCRIPT", func() any { return new(BatchJobComplete) })
	Register(MsgPrologComplete, "REQUEST_COMPLETE_PROLOG", func() any { return new(PrologComplete) })
	Register(MsgEpilogComplete, "MESSAGE_EPILOG_COMPLETE", func() any { return new(EpilogComplete) })
}

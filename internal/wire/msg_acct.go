package wire

// Accounting: what sacct asks of the controller's embedded accounting (the jobs and steps that
// ran, with their final states and exit codes). The controller filters; sacct only formats.

// Step ids with a meaning of their own, as Slurm numbers them.
const (
	StepBatch  uint32 = 0xfffffffb // the batch script's step (SLURM_BATCH_SCRIPT), "123.batch"
	StepExtern uint32 = 0xfffffffc // the allocation's extern step (SLURM_EXTERN_CONT), "123.extern"
)

// AcctJobSel is one -j entry: a job ("123"), an array task ("123_4") or one step ("123.0",
// "123.batch", "123_4.1").
type AcctJobSel struct {
	JobID     uint32 `codec:"job_id"`
	ArrayTask uint32 `codec:"array_task"` // NoVal: not an array task selection
	StepID    uint32 `codec:"step_id"`    // NoVal: the job and all its steps
}

// AcctQueryRequest selects jobs as sacct's job condition does (slurmdb_job_cond_t); the
// caller has already applied sacct's defaults (the time window, the user).
type AcctQueryRequest struct {
	Jobs       []AcctJobSel `codec:"jobs"`       // -j; empty = every job
	Users      []uint32     `codec:"users"`      // -u; empty = every user
	Start      int64        `codec:"start"`      // -S, Unix seconds; the window is [Start, End)
	End        int64        `codec:"end"`        // -E
	States     []uint32     `codec:"states"`     // -s: base job states (states.JobState)
	Nodes      []string     `codec:"nodes"`      // -N, expanded: jobs that ran on any of them
	Names      []string     `codec:"names"`      // --name
	Partitions []string     `codec:"partitions"` // -r
	NoSteps    bool         `codec:"no_steps"`   // -X: allocations only

	Accounts   []string `codec:"accounts"`   // -A: the job's account
	Groups     []uint32 `codec:"groups"`     // -g: gids
	QOS        []string `codec:"qos"`        // -q: the job's QOS ("normal" when it named none)
	WCKeys     []string `codec:"wckeys"`     // -W
	TimeMin    uint32   `codec:"time_min"`   // -k: time limit in minutes, 0 = no filter
	TimeMax    uint32   `codec:"time_max"`   // -K: with -k, the range's top; 0 = exactly TimeMin
	NodesMin   uint32   `codec:"nodes_min"`  // -i: allocated nodes, 0 = no filter
	NodesMax   uint32   `codec:"nodes_max"`  // 0 = exactly NodesMin
	CPUsMin    uint32   `codec:"cpus_min"`   // -I: allocated CPUs, 0 = no filter
	CPUsMax    uint32   `codec:"cpus_max"`   // 0 = exactly CPUsMin
	Duplicates bool     `codec:"duplicates"` // -D: every record of a reused job id, not the latest
	Script     bool     `codec:"script"`     // -B: return AcctJob.Script (AccountingStoreFlags=job_script)
	Env        bool     `codec:"env"`        // --env-vars: return AcctJob.Env (job_env)
}

// AcctStep is one step of a job as accounting keeps it.
type AcctStep struct {
	StepID   uint32 `codec:"step_id"` // StepBatch for the batch script
	Name     string `codec:"name"`
	State    uint32 `codec:"state"`     // states.JobState
	ExitCode uint32 `codec:"exit_code"` // wait(2) status
	Start    int64  `codec:"start"`
	End      int64  `codec:"end"` // 0 while it runs
	NodeList string `codec:"node_list"`
	NNodes   uint32 `codec:"nnodes"`
	NTasks   uint32 `codec:"ntasks"`
	CPUs     uint32 `codec:"cpus"`
}

// AcctJob is one job (one array task) as accounting keeps it.
type AcctJob struct {
	JobID       uint32     `codec:"job_id"`
	ArrayJobID  uint32     `codec:"array_job_id"`  // 0 = not an array task
	ArrayTaskID uint32     `codec:"array_task_id"` // valid when ArrayJobID != 0 and ArrayTasks == ""
	ArrayTasks  string     `codec:"array_tasks"`   // pending tasks of an array ("5-9"), else ""
	Name        string     `codec:"name"`
	UserID      uint32     `codec:"user_id"`
	UserName    string     `codec:"user_name"`
	GroupID     uint32     `codec:"group_id"`
	Account     string     `codec:"account"`
	Partition   string     `codec:"partition"`
	State       uint32     `codec:"state"` // states.JobState
	Reason      uint32     `codec:"reason"`
	ExitCode    uint32     `codec:"exit_code"` // wait(2) status
	Submit      int64      `codec:"submit"`
	Eligible    int64      `codec:"eligible"`
	Start       int64      `codec:"start"`
	End         int64      `codec:"end"`
	Suspended   int64      `codec:"suspended"`  // seconds spent suspended
	TimeLimit   uint32     `codec:"time_limit"` // minutes, Infinite = none
	Priority    uint32     `codec:"priority"`
	NodeList    string     `codec:"node_list"` // "None assigned" until it starts
	NNodes      uint32     `codec:"nnodes"`
	AllocCPUs   uint32     `codec:"alloc_cpus"`
	ReqCPUs     uint32     `codec:"req_cpus"`
	ReqNodes    uint32     `codec:"req_nodes"`
	ReqMem      string     `codec:"req_mem"` // "4G", "" = none
	WorkDir     string     `codec:"work_dir"`
	Cluster     string     `codec:"cluster"`
	Steps       []AcctStep `codec:"steps"`
	// StepsOnly: every -j entry that selected this job named a step, so sacct prints those
	// step lines without the job's own line (Slurm's show_full unset).
	StepsOnly bool `codec:"steps_only"`

	// For --json and the filters' columns.
	QOS          string `codec:"qos"` // "normal" when the job named none
	WCKey        string `codec:"wckey"`
	Constraints  string `codec:"constraints"`
	Reservation  string `codec:"reservation,omitempty"` // the advance reservation it ran or waited in
	ReqMemMiB    uint64 `codec:"req_mem_mib"`           // per node, or per CPU when ReqMemPerCPU
	ReqMemPerCPU bool   `codec:"req_mem_per_cpu"`
	// Script and Env are filled only when the request asked (-B, --env-vars) and the
	// controller keeps them (AccountingStoreFlags=job_script, job_env); Batch says whether
	// the job had a script at all (Slurm prints NONE for one that did not).
	Batch  bool   `codec:"batch"`
	Script string `codec:"script"`
	Env    string `codec:"env"`
	// GresReqTRES and GresAllocTRES are the job's GRES among AccountingStorageTRES, as TRES
	// elements ("gres/gpu=2"): requested, and held once it started ("" when none).
	GresReqTRES   string `codec:"gres_req_tres"`
	GresAllocTRES string `codec:"gres_alloc_tres"`
}

// AcctQueryReply answers MsgAcctQuery: the selected jobs, ordered by submit time, then array
// job id, array task id and job id, as sacct lists them.
type AcctQueryReply struct {
	Jobs []AcctJob `codec:"jobs"`
}

func init() {
	Register(MsgAcctQuery, "DBD_GET_JOBS_COND", func() any { return new(AcctQueryRequest) })
	Register(MsgAcctQueryReply, "DBD_GOT_JOBS", func() any { return new(AcctQueryReply) })
}

package wire

// Step messages: srun asks slurmctld for an interactive allocation (when it runs outside
// one) and for a job step, then launches the step's tasks on each node itself, as Slurm's
// srun does; the nodes stream the tasks' output back to srun (srun/stepio).

// AllocateJobReply answers MsgAllocateJob (a JobDesc with no script: an interactive
// allocation, Slurm's REQUEST_RESOURCE_ALLOCATION). The job is durable and pending; srun
// polls MsgJobAllocInfo until it runs.
type AllocateJobReply struct {
	JobID uint32 `codec:"job_id"`
	// Refused is set (Errno non-zero) when the controller recorded the job but refused it at
	// once, as Slurm records a job no node can ever hold (FAILED, BadConstraints): JobID is
	// that job, the allocation is revoked and there is nothing to wait for. A refusal without
	// a record is an error reply instead.
	Refused Error `codec:"refused"`
	// Started says the job was running when the reply was sent: Slurm's allocate RPC starts
	// a top-priority job at once, and srun and salloc say the job is queued only when it
	// was not started.
	Started bool `codec:"started"`
	// PendingMsg, for an allocation left pending, is the text of the errno Slurm's allocate
	// RPC answers with (ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE when a partition limit
	// holds it); srun and salloc print it before they say the job is queued.
	PendingMsg string `codec:"pending_msg"`
	// Alloc is the allocation of a job running when the reply was sent, as Slurm's
	// resource allocation response carries it, so srun and salloc need not ask for it.
	Alloc *JobAllocInfo `codec:"alloc,omitempty"`
}

// JobAllocInfoRequest asks for the allocation of one job (Slurm's
// REQUEST_JOB_ALLOCATION_INFO).
type JobAllocInfoRequest struct {
	JobID uint32 `codec:"job_id"`
}

// JobAllocInfo is a job's state and allocation, what srun needs to run steps in it.
type JobAllocInfo struct {
	JobID       uint32   `codec:"job_id"`
	State       uint32   `codec:"state"` // compat/states.JobState bits
	Reason      uint32   `codec:"reason"`
	Name        string   `codec:"name"`
	Partition   string   `codec:"partition"`
	UserName    string   `codec:"user_name"`
	NodeList    string   `codec:"node_list"`
	Nodes       []string `codec:"nodes"`
	CPUsPerNode []uint32 `codec:"cpus_per_node"`
	NumTasks    uint32   `codec:"num_tasks"`
	CPUsPerTask uint32   `codec:"cpus_per_task"`
	ClusterName string   `codec:"cluster_name"`
}

// StepCreateRequest asks for a step of a running job (Slurm's REQUEST_JOB_STEP_CREATE).
// Zero or NoVal fields take the defaults of the job's allocation.
type StepCreateRequest struct {
	JobID        uint32 `codec:"job_id"`
	NumTasks     uint32 `codec:"num_tasks"`
	MinNodes     uint32 `codec:"min_nodes"`
	TasksPerNode uint32 `codec:"ntasks_per_node"`
	CPUsPerTask  uint32 `codec:"cpus_per_task"`
	Name         string `codec:"name"`
	NodeList     string `codec:"node_list"` // -w: nodes the step must use
	// MaxNodes is -N's maximum (0: none): the step spans that many nodes where the job has
	// them free, as Slurm's step_mgr aims at the maximum of a node range.
	MaxNodes uint32 `codec:"max_nodes,omitempty"`
	// Features is --constraint: the step runs on the job's nodes having those (active)
	// features; while the job has too few of them the step waits, as Slurm's does.
	Features string `codec:"features,omitempty"`
	// ExcNodes is -x: nodes the step must not use (each must be a node of the cluster).
	ExcNodes string `codec:"exc_nodes,omitempty"`
	// SrunHost and SrunPid are where the srun creating the step runs (its short host name
	// and pid), for scontrol show step's SrunHost:Pid=. Empty/0 from an older srun.
	SrunHost string `codec:"srun_host"`
	SrunPid  uint32 `codec:"srun_pid"`
	// Gres is srun --gres for the step ("" = the job's GRES on the step's nodes, "none" =
	// no GRES), checked against what the job holds (Slurm's tres_per_node of the step).
	Gres string `codec:"gres"`
	// Exact asks for only the CPUs the tasks need (--exact, --exclusive); otherwise the
	// step takes every CPU the job has free on its nodes. Overlap (--overlap) shares CPUs
	// with the job's other steps instead of waiting for them.
	Exact   bool `codec:"exact"`
	Overlap bool `codec:"overlap"`
	// Overcommit (srun -O, or a job's SLURM_OVERCOMMIT) places the tasks without counting
	// their CPUs: more tasks than CPUs may share a node.
	Overcommit bool `codec:"overcommit"`
	// Relative (srun -r) starts the step at that node of the job's allocation; NoVal (or 0
	// from an older srun) starts it at the first.
	Relative uint32 `codec:"relative"`
	// PlaneSize is --distribution=plane=<size>'s size; 0 lays the tasks out in blocks.
	PlaneSize uint32 `codec:"plane_size,omitempty"`
	// TaskNodes is an arbitrary distribution's node of each task, in rank order: the step
	// runs on those nodes (of the allocation) with that many tasks each.
	TaskNodes []string `codec:"task_nodes,omitempty"`
	// TimeLimit is srun --time for a step in an existing allocation, minutes (0: none, the
	// job's limit alone): the step is ended DUE TO TIME LIMIT when it has run that long.
	TimeLimit uint32 `codec:"time_limit,omitempty"`
}

// StepCreateReply is the new step: its id, its layout over the job's nodes (block
// distribution, or plane), where each node's slurmd listens, and the launch credential the nodes check.
type StepCreateReply struct {
	JobID       uint32   `codec:"job_id"`
	StepID      uint32   `codec:"step_id"`
	NodeList    string   `codec:"node_list"`     // the step's nodes (hostlist)
	Nodes       []string `codec:"nodes"`         // the step's nodes, in order
	Addrs       []string `codec:"addrs"`         // each node's slurmd, host:port
	Tasks       []uint32 `codec:"tasks"`         // tasks on each node
	CPUsOnNode  []uint32 `codec:"cpus_on_node"`  // the job's CPUs on each node (SLURM_CPUS_ON_NODE)
	NumTasks    uint32   `codec:"num_tasks"`     // all tasks of the step
	CPUsPerTask uint32   `codec:"cpus_per_task"` // as resolved
	Cred        []byte   `codec:"cred"`          // launch credential (internal/auth LaunchCred)
	KillWait    uint32   `codec:"kill_wait"`     // seconds
	TimeLimit   uint32   `codec:"time_limit"`    // the job's, minutes
	// StepTimeLimit is the step's own time limit (StepCreateRequest.TimeLimit), minutes;
	// 0 none.
	StepTimeLimit uint32   `codec:"step_time_limit,omitempty"`
	JobName       string   `codec:"job_name"`      // for the environment
	Partition     string   `codec:"partition"`     //
	JobNodeList   string   `codec:"job_node_list"` // the job's nodes
	JobCPUs       []uint32 `codec:"job_cpus"`      // the job's CPUs per node (of JobNodeList)
	ClusterName   string   `codec:"cluster_name"`  //
	CtldAddr      string   `codec:"ctld_addr"`     // for SLURM_WORKING_CLUSTER
	CtldPort      uint32   `codec:"ctld_port"`     //
	UserName      string   `codec:"user_name"`     //
	// GPUs is, for each of the step's nodes, the GPU devices (with device files) the step
	// gets there ("0,1"; "" none): its CUDA_VISIBLE_DEVICES and SLURM_STEP_GPUS.
	GPUs []string `codec:"gpus"`
}

// StepComplete reports that a step ended (Slurm's REQUEST_STEP_COMPLETE); ExitCode is the
// step's wait(2)-style status (highest exit code << 8, or the killing signal).
type StepComplete struct {
	JobID    uint32 `codec:"job_id"`
	StepID   uint32 `codec:"step_id"`
	ExitCode uint32 `codec:"exit_code"`
}

// CompleteJobAlloc releases an interactive allocation when srun is done with it (Slurm's
// REQUEST_COMPLETE_JOB_ALLOCATION); ExitCode is srun's wait(2)-style status.
type CompleteJobAlloc struct {
	JobID    uint32 `codec:"job_id"`
	ExitCode uint32 `codec:"exit_code"`
}

// LaunchTasks starts one step's tasks on one node (Slurm's REQUEST_LAUNCH_TASKS), sent by
// srun. The node checks Cred (signed by the controller) against JobID, StepID and the user,
// then connects to IOAddr and streams the tasks' output and exits there (srun/stepio).
type LaunchTasks struct {
	NodeName    string   `codec:"node_name"`
	Cred        []byte   `codec:"cred"`
	JobID       uint32   `codec:"job_id"`
	StepID      uint32   `codec:"step_id"`
	UserID      uint32   `codec:"user_id"`
	GroupID     uint32   `codec:"group_id"`
	NodeID      uint32   `codec:"node_id"`      // this node's index in the step (SLURM_NODEID)
	Ranks       []uint32 `codec:"ranks"`        // global task ids run on this node
	StepGTIDs   string   `codec:"gtids"`        // SLURM_GTIDS
	CPUsOnNode  uint32   `codec:"cpus_on_node"` // SLURM_CPUS_ON_NODE
	Argv        []string `codec:"argv"`
	Environment []string `codec:"environment"` // the step's environment; the node adds per-task variables
	WorkDir     string   `codec:"work_dir"`
	IOAddr      string   `codec:"io_addr"`    // srun's I/O listener
	IOKey       []byte   `codec:"io_key"`     // proves the I/O connection is this launch's
	StdinRank   int32    `codec:"stdin_rank"` // the task that reads srun's stdin; -1 none
	KillWait    uint32   `codec:"kill_wait"`
	TimeLimit   uint32   `codec:"time_limit"` // minutes, 0 or Infinite = none
	// StepTimeLimit is the step's own limit (srun --time in an allocation), minutes, 0
	// none: slurmstepd ends the tasks DUE TO TIME LIMIT when they have run that long.
	StepTimeLimit uint32 `codec:"step_time_limit,omitempty"`
	// StdOut and StdErr are per-task file names (srun -o/-e), indexed like Ranks, with srun's
	// part of the pattern expanded and %t %n %N %u left for the node (compat/filepattern
	// StepTaskPath); empty: stream to srun.
	StdOut []string `codec:"std_out"`
	StdErr []string `codec:"std_err"`
	// StdIn is like StdOut for srun -i; when set, it decides and StdinRank is ignored: an
	// empty entry streams srun's stdin to that task.
	StdIn []string `codec:"std_in"`
	// MultiProg is the srun --multi-prog configuration (the file's text): each task's command
	// comes from its line, with Argv[1:] appended; Argv[0] is then the file's name.
	MultiProg string `codec:"multi_prog"`
	// OpenMode is srun --open-mode for the per-task files (compat/jobspec.OpenMode; 0 =
	// slurm.conf's JobFileAppend decides).
	OpenMode int32 `codec:"open_mode"`
	// TaskProlog and TaskEpilog are srun --task-prolog and --task-epilog ("" = none).
	TaskProlog string `codec:"task_prolog"`
	TaskEpilog string `codec:"task_epilog"`
	// GPUsPerTask is srun --gpus-per-task's count (0: none): each task sees only its own
	// GPUs of the node's (the step's GPU variables cut per local task, as Slurm binds them).
	GPUsPerTask uint32 `codec:"gpus_per_task,omitempty"`
	// PMISize, for an srun --mpi=pmi2 step, is its task count: slurmstepd then serves PMI
	// to the tasks (slurmd/pmi), with PMIMapping as PMI_process_mapping. 0: no PMI.
	PMISize    uint32 `codec:"pmi_size,omitempty"`
	PMIMapping string `codec:"pmi_mapping,omitempty"`
	// Pty is srun --pty from a terminal: task 0 runs on a pseudo-terminal of PtyRows by
	// PtyCols (later sizes follow on the I/O connection), the other tasks' streams go to
	// /dev/null.
	Pty     bool   `codec:"pty,omitempty"`
	PtyRows uint16 `codec:"pty_rows,omitempty"`
	PtyCols uint16 `codec:"pty_cols,omitempty"`
	// SlurmdDebug is srun --slurmd-debug, a Slurm log level (compat/loglevel; 0 = none):
	// slurmstepd logs to the first task's stderr at that level above error.
	SlurmdDebug uint16 `codec:"slurmd_debug,omitempty"`
	// ParallelDebug starts the tasks stopped at their exec for a debugger (srun
	// --debugger-test), and slurmstepd tells srun each task's pid (stepio.Pid).
	ParallelDebug bool `codec:"parallel_debug,omitempty"`
	// NoAlloc is srun -Z: no job and no credential; the slurmd runs the tasks for root or
	// SlurmUser only, and only under a job id srun -Z makes up (IsNoAllocJob).
	NoAlloc bool `codec:"no_alloc,omitempty"`
	// BcastLibs says srun --bcast --send-libs sent the program's libraries: the tasks
	// find their directory (the program's path with "_libs") first in LD_LIBRARY_PATH.
	BcastLibs bool `codec:"bcast_libs,omitempty"`
	// SrunAlloc says srun created the job's allocation for this step (not inside salloc or
	// a batch job): if srun is lost while the step runs, the job is cancelled, as Slurm's
	// srun shepherd cancels it.
	SrunAlloc bool `codec:"srun_alloc,omitempty"`
}

// SignalTasks signals one step's tasks on one node (srun forwarding SIGINT/SIGTERM, or
// killing the step after a task failed with --kill-on-bad-exit).
type SignalTasks struct {
	NodeName string `codec:"node_name"`
	JobID    uint32 `codec:"job_id"`
	StepID   uint32 `codec:"step_id"`
	Signal   int32  `codec:"signal"`
	// Nodes, when set, are every node of the step the receiving slurmd hosts (NodeName is
	// then ignored): one message per slurmd rather than one per node.
	Nodes []string `codec:"nodes"`
	// Abort (with Signal SIGKILL) kills the tasks at once, the step cancelled: srun forcing
	// its step's end. Without it SIGKILL cancels the step with KillWait's grace (srun -K).
	Abort bool `codec:"abort"`
}

func init() {
	Register(MsgAllocateJob, "REQUEST_RESOURCE_ALLOCATION", func() any { return new(AllocateJobDesc) })
	Register(MsgAllocateJobReply, "RESPONSE_RESOURCE_ALLOCATION", func() any { return new(AllocateJobReply) })
	Register(MsgJobAllocInfo, "REQUEST_JOB_ALLOCATION_INFO", func() any { return new(JobAllocInfoRequest) })
	Register(MsgJobAllocInfoReply, "RESPONSE_JOB_ALLOCATION_INFO", func() any { return new(JobAllocInfo) })
	Register(MsgStepCreate, "REQUEST_JOB_STEP_CREATE", func() any { return new(StepCreateRequest) })
	Register(MsgStepCreateReply, "RESPONSE_JOB_STEP_CREATE", func() any { return new(StepCreateReply) })
	Register(MsgStepComplete, "REQUEST_STEP_COMPLETE", func() any { return new(StepComplete) })
	Register(MsgCompleteJobAlloc, "REQUEST_COMPLETE_JOB_ALLOCATION", func() any { return new(CompleteJobAlloc) })
	Register(MsgLaunchTasks, "REQUEST_LAUNCH_TASKS", func() any { return new(LaunchTasks) })
	Register(MsgSignalTasks, "REQUEST_SIGNAL_STEP_TASKS", func() any { return new(SignalTasks) })
}

// AllocateJobDesc is an interactive allocation request: the job as srun describes it (no
// script). It is a distinct Go type because the registry binds one Go type per message.
type AllocateJobDesc struct {
	Job JobDesc `codec:"job"`
	// Immediate is Slurm's job_desc immediate flag (srun/salloc -I or -I1): the controller
	// starts the job at once or records it FAILED and refuses it (AllocateJobReply.Refused)
	// instead of leaving it pending. A longer -I is the command's own wait.
	Immediate bool `codec:"immediate,omitempty"`
}

// MinNoAllocJobID and MaxNoAllocJobID bound the job ids srun -Z makes up (Slurm's
// MIN_NOALLOC_JOBID, MAX_NOALLOC_JOBID): no job of the controller has one, and the
// controller leaves a node's steps of such ids alone.
const (
	MinNoAllocJobID uint32 = 0xffff0000
	MaxNoAllocJobID uint32 = 0xfffffffd
)

// IsNoAllocJob says whether job id is one srun -Z makes up.
func IsNoAllocJob(id uint32) bool { return id >= MinNoAllocJobID && id <= MaxNoAllocJobID }

package wire

// Launch and job-control messages from slurmctld to slurmd. Each names the node it is for
// (one slurmd may host many emulated nodes) and, for a launch, carries a launch credential
// signed by the controller that the node verifies before running anything.

// LaunchBatchJob starts a job's batch script on its batch host (Slurm's
// REQUEST_BATCH_JOB_LAUNCH).
type LaunchBatchJob struct {
	NodeName string `codec:"node_name"` // the node (of this slurmd) that runs the script
	// Cred is the launch credential (internal/auth LaunchCred) for JobID, the user and NodeList.
	Cred        []byte   `codec:"cred"`
	JobID       uint32   `codec:"job_id"`
	ArrayJobID  uint32   `codec:"array_job_id"`  // 0 when not an array task
	ArrayTaskID uint32   `codec:"array_task_id"` // NoVal when not an array task
	UserID      uint32   `codec:"user_id"`
	GroupID     uint32   `codec:"group_id"`
	UserName    string   `codec:"user_name"`
	JobName     string   `codec:"job_name"`
	Partition   string   `codec:"partition"`
	Account     string   `codec:"account"`
	QOS         string   `codec:"qos"`
	NodeList    string   `codec:"node_list"`     // every node of the allocation (hostlist)
	CPUsPerNode []uint32 `codec:"cpus_per_node"` // allocated CPUs per node of NodeList
	NumTasks    uint32   `codec:"num_tasks"`
	CPUsPerTask uint32   `codec:"cpus_per_task"`
	MemPerNode  uint64   `codec:"mem_per_node"`
	TimeLimit   uint32   `codec:"time_limit"` // minutes; Infinite = none
	KillWait    uint32   `codec:"kill_wait"`  // seconds between SIGTERM and SIGKILL
	WorkDir     string   `codec:"work_dir"`
	Script      string   `codec:"script"`
	ScriptArgs  []string `codec:"script_args"`
	// Environment is the job's environment from sbatch; slurmd adds the SLURM_* variables
	// of the batch step.
	Environment  []string `codec:"environment"`
	StdOut       string   `codec:"std_out"` // patterns, as submitted (or the default)
	StdErr       string   `codec:"std_err"`
	StdIn        string   `codec:"std_in"`
	OpenMode     int32    `codec:"open_mode"` // compat/jobspec.OpenMode; 0 = JobFileAppend decides
	SignalNumber int32    `codec:"signal_number"`
	SignalTime   int32    `codec:"signal_time"`
	SignalFlags  uint16   `codec:"signal_flags"`
	SubmitDir    string   `codec:"submit_dir"`
	SubmitHost   string   `codec:"submit_host"`
	StartTime    int64    `codec:"start_time"`
	ClusterName  string   `codec:"cluster_name"`
	// MemPerCPU is --mem-per-cpu in MiB (SLURM_MEM_PER_CPU); 0 when memory is per node.
	MemPerCPU uint64 `codec:"mem_per_cpu"`
	// MemPerGPUNode is the memory per node --mem-per-gpu gives (MiB): a limit like
	// MemPerNode, which Slurm does not export as SLURM_MEM_PER_NODE. 0 for none.
	MemPerGPUNode uint64 `codec:"mem_per_gpu_node,omitempty"`
	// Restarts is the job's requeue count: a node that refused job JobID after a terminate
	// still runs its later incarnation (Restarts higher than the terminated one's).
	Restarts uint32 `codec:"restarts"`
	// GPUs is the GPU device indices the job holds on the batch host ("0,1"), for the
	// batch step's CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS and the like; "" when it holds
	// none with device files.
	GPUs string `codec:"gpus"`
}

// SignalJob sends Signal to the job's steps on one node (Slurm's REQUEST_SIGNAL_TASKS).
type SignalJob struct {
	NodeName string `codec:"node_name"`
	JobID    uint32 `codec:"job_id"`
	Signal   int32  `codec:"signal"`
	Flags    uint16 `codec:"flags"` // KillBatchOnly, KillFullJob
}

// TerminateJob ends a job on one node (Slurm's REQUEST_TERMINATE_JOB): SIGTERM, KillWait,
// SIGKILL to every step, then the node reports the batch script's end (if it ran there).
type TerminateJob struct {
	NodeName string `codec:"node_name"`
	JobID    uint32 `codec:"job_id"`
	KillWait uint32 `codec:"kill_wait"`
	// TimedOut says the controller ends the job at its time limit (state TIMEOUT).
	TimedOut bool `codec:"timed_out"`
	// Requeued says the controller ends this run of the job because it requeued it.
	Requeued bool `codec:"requeued,omitempty"`
	// Preempted says the controller ends this run because another job preempted it
	// (cancelled or requeued).
	Preempted bool `codec:"preempted,omitempty"`
	// Restarts is the requeue count of the incarnation being ended (see LaunchBatchJob).
	Restarts uint32 `codec:"restarts"`
	// Details is why, when the controller says more than the state: slurmstepd writes it
	// into the batch script's error file as "*** REASON: <details> ***" (Slurm's
	// kill_job_msg details: "Reservation X, which this job was running under, has ended").
	Details string `codec:"details,omitempty"`
}

func init() {
	Register(MsgLaunchBatchJob, "REQUEST_BATCH_JOB_LAUNCH", func() any { return new(LaunchBatchJob) })
	Register(MsgSignalJob, "REQUEST_SIGNAL_TASKS", func() any { return new(SignalJob) })
	Register(MsgTerminateJob, "REQUEST_TERMINATE_JOB", func() any { return new(TerminateJob) })
}

package wire

// Job messages between the commands (sbatch, squeue, scancel, scontrol) and slurmctld.
//
// Conventions for every numeric field: NoVal (Slurm's NO_VAL, 0xfffffffe) means "not given",
// Infinite (0xffffffff) means UNLIMITED; NoVal64 likewise for 64-bit fields. Times are int64
// Unix seconds, 0 when unset. The submitting user is never taken from a message: the
// controller uses the authenticated identity of the request.

// NoVal, Infinite and NoVal64 are Slurm's NO_VAL, INFINITE and NO_VAL64 on the wire.
const (
	NoVal    uint32 = 0xfffffffe
	Infinite uint32 = 0xffffffff
	NoVal64  uint64 = 0xfffffffffffffffe
)

// JobDesc is a job as submitted: what sbatch built from its options, #SBATCH lines and
// environment (compat/jobspec.JobSpec, flattened to wire types).
type JobDesc struct {
	Name        string `codec:"name"`
	Partition   string `codec:"partition"` // "" = the default partition
	Account     string `codec:"account"`
	QOS         string `codec:"qos"`
	Reservation string `codec:"reservation"`
	WCKey       string `codec:"wckey"`
	Comment     string `codec:"comment"`
	Constraint  string `codec:"constraint"`
	// BatchFeatures is sbatch --batch: the batch script runs on the first node of the
	// allocation with these features (a&b, a|b; each one of Constraint's).
	BatchFeatures string   `codec:"batch_features,omitempty"`
	Licenses      string   `codec:"licenses"`
	LicensesEmpty bool     `codec:"licenses_empty,omitempty"` // set to none by an update: Slurm's "", not (null)
	Gres          string   `codec:"gres"`
	MailType      uint16   `codec:"mail_type"`
	MailUser      string   `codec:"mail_user"`
	ReqNodes      string   `codec:"req_nodes"` // --nodelist as given (hostlist)
	ExcNodes      string   `codec:"exc_nodes"` // --exclude as given
	MinNodes      uint32   `codec:"min_nodes"` // NoVal = not given (1)
	MaxNodes      uint32   `codec:"max_nodes"` // 0 = no maximum
	NumTasks      uint32   `codec:"num_tasks"` // NoVal = not given
	NTasksPerNode uint32   `codec:"ntasks_per_node"`
	CPUsPerTask   uint32   `codec:"cpus_per_task"`
	MemPerNode    uint64   `codec:"mem_per_node"` // MiB, NoVal64 = not given
	MemPerCPU     uint64   `codec:"mem_per_cpu"`  // MiB, NoVal64 = not given
	TimeLimit     uint32   `codec:"time_limit"`   // minutes
	TimeMin       uint32   `codec:"time_min"`     // minutes
	BeginTime     int64    `codec:"begin_time"`
	Deadline      int64    `codec:"deadline"`
	Hold          bool     `codec:"hold"`
	Shared        int32    `codec:"shared"`  // compat/jobspec.Shared
	Requeue       int32    `codec:"requeue"` // -1 unset, 0 no, 1 yes
	Nice          int32    `codec:"nice"`
	Priority      uint32   `codec:"priority"` // NoVal = not given
	KillInvalid   int32    `codec:"kill_invalid_dep"`
	SignalNumber  int32    `codec:"signal_number"` // --signal; 0 = none
	SignalTime    int32    `codec:"signal_time"`   // seconds before the time limit
	SignalFlags   uint16   `codec:"signal_flags"`  // 1 = B: (batch shell only), 2 = R:
	OpenMode      int32    `codec:"open_mode"`     // compat/jobspec.OpenMode
	StdOut        string   `codec:"std_out"`       // pattern as Slurm stores it ("" = default)
	StdErr        string   `codec:"std_err"`
	StdIn         string   `codec:"std_in"`
	WorkDir       string   `codec:"work_dir"`
	SubmitDir     string   `codec:"submit_dir"`
	Dependency    string   `codec:"dependency"` // as given; the controller parses it
	ArraySpec     string   `codec:"array_spec"` // --array as given; the controller parses it
	Script        string   `codec:"script"`
	ScriptArgs    []string `codec:"script_args"`
	Environment   []string `codec:"environment"` // the job's environment after --export
	SubmitLine    string   `codec:"submit_line"`
	SubmitHost    string   `codec:"submit_host"`
	// AllocNode is the submitting host as the controller resolved its address (scontrol's
	// AllocNode); the controller sets it, whatever a client sends.
	AllocNode string `codec:"alloc_node,omitempty"`
	Command   string `codec:"command"` // the script path as named ("" for stdin/--wrap)
	// MinCPUs is --mincpus: the CPUs the job needs on each of its nodes (0 = none given).
	MinCPUs uint32 `codec:"min_cpus"`
	// NoKill (--no-kill) keeps the job running when a node other than its batch host fails.
	NoKill bool `codec:"no_kill"`
	// AllocSID is the submitting command's session id (getsid), scontrol's AllocNode:Sid.
	AllocSID uint32 `codec:"alloc_sid"`
	// UserID and GroupID are --uid and --gid, where UserIDSet and GroupIDSet: the job's
	// owner instead of the request's signer, which only root and SlurmUser may ask for.
	UserID     uint32 `codec:"user_id,omitempty"`
	UserIDSet  bool   `codec:"user_id_set,omitempty"`
	GroupID    uint32 `codec:"group_id,omitempty"`
	GroupIDSet bool   `codec:"group_id_set,omitempty"`

	// Orbit's malleable-job and power options (DESIGN.md §8).
	MinNodesInvasive uint32 `codec:"min_nodes_invasive"`
	MaxNodesInvasive uint32 `codec:"max_nodes_invasive"`
	NodeConstraints  string `codec:"node_constraints"`
	MinPower         uint32 `codec:"min_power"`
	MaxPower         uint32 `codec:"max_power"`

	// Site options (compat/jobspec SiteOptions) the controller stores and shows. 0 or NoVal
	// means not given (a client that predates them sends 0).
	ThreadsPerCore uint32 `codec:"threads_per_core"`
	CoresPerSocket uint32 `codec:"cores_per_socket"`
	SocketsPerNode uint32 `codec:"sockets_per_node"`
	NTasksPerCore  uint32 `codec:"ntasks_per_core"`
	CPUFreqMin     uint32 `codec:"cpu_freq_min"` // Slurm's values: kHz, or a synonym with the top bit set
	CPUFreqMax     uint32 `codec:"cpu_freq_max"`
	CPUFreqGov     uint32 `codec:"cpu_freq_gov"`
	TmpDiskMB      uint64 `codec:"pn_min_tmp_disk"` // --tmp, MiB
	DelayBoot      uint32 `codec:"delay_boot"`      // seconds
	ReqSwitch      uint32 `codec:"req_switch"`      // --switches count
	SwitchWait     uint32 `codec:"wait4switch"`     // seconds
	SpreadJob      bool   `codec:"spread_job"`
	UseMinNodes    bool   `codec:"use_min_nodes,omitempty"` // --use-min-nodes: the fewest nodes of a -N range
	// GresFlags is --gres-flags as given (enforce-binding, disable-binding).
	GresFlags string `codec:"gres_flags"`
	// Overcommit (-O) asks for one task's CPUs on each node, whatever NumTasks says.
	Overcommit bool `codec:"overcommit"`

	// Options stored and shown where no plugin acts on them (compat/jobspec StoredOptions).
	Network         string `codec:"network"`
	Contiguous      bool   `codec:"contiguous"`
	MCSLabel        string `codec:"mcs_label"`
	BurstBuffer     string `codec:"burst_buffer"`
	Container       string `codec:"container"`
	PowerFlags      uint16 `codec:"power_flags"`
	ClusterFeatures string `codec:"cluster_features"`
	Prefer          string `codec:"prefer"`
	TresBind        string `codec:"tres_bind"` // "gpu:<--gpu-bind>"
	TresFreq        string `codec:"tres_freq"` // "gpu:<--gpu-freq>"
	NTasksPerSocket uint32 `codec:"ntasks_per_socket"`
	// --gpus, --gpus-per-task, --cpus-per-gpu, --mem-per-gpu as Slurm keeps them
	// ("gres:gpu:2"); "" when not given.
	TresPerJob  string `codec:"tres_per_job"`
	TresPerTask string `codec:"tres_per_task"`
	CpusPerTres string `codec:"cpus_per_tres"`
	MemPerTres  string `codec:"mem_per_tres"`
	// Reboot (--reboot) makes the job exclusive; Orbit accepts it only without a
	// RebootProgram, where Slurm reboots nothing either.
	Reboot bool `codec:"reboot"`
	// AcctgFreq is --acctg-freq as given ("" none): with a memory limit, its task sampling
	// may not be off nor slower than JobAcctGatherFrequency's.
	AcctgFreq string `codec:"acctg_freq,omitempty"`
}

// SubmitBatchJobReply answers MsgSubmitBatchJob. It is sent only after the job is durable,
// so a printed job id always survives a controller crash.
type SubmitBatchJobReply struct {
	JobID uint32 `codec:"job_id"`
	// UserMessage is what the job_submit logic wants printed (Slurm's job_submit_user_msg).
	UserMessage string `codec:"user_msg"`
}

// JobInfoRequest asks for jobs. Empty filters match everything; the reply lists jobs in the
// controller's order (job id, array tasks in index order).
type JobInfoRequest struct {
	JobIDs []uint32 `codec:"job_ids"` // a job id also matches every task of an array with that id
	// ShowAll includes jobs in hidden partitions (squeue -a, -j); without it only operators
	// see them.
	ShowAll bool `codec:"show_all"`
	// Steps asks for the live steps of the jobs as well (squeue -s), in JobInfoReply.Steps.
	Steps bool `codec:"steps"`

	// Packed asks for the jobs in JobInfoReply.Packed instead of Jobs (decode them with
	// UnpackJobInfos): much cheaper for both ends with a large queue. Ignored with Steps.
	Packed bool `codec:"packed"`
	// PackedRefs says the client reads string references in a packed list (JobInfoPacker):
	// the controller then names each repeated string once. Older clients leave it false.
	PackedRefs bool `codec:"packed_refs"`

	// Filters the controller applies before building the reply, so squeue's -t, -u, -p, -n
	// and -w do not ship the whole queue. Each only narrows; empty means no filter. They mirror
	// squeue's own selection, which squeue still applies to what it receives.
	//
	// ActiveOnly drops jobs that have finished and are not completing (squeue without -t).
	ActiveOnly bool `codec:"active_only"`
	// States keeps jobs matching any of these compat/states.JobState values as squeue's -t
	// matches them (a base state, or a flag such as COMPLETING).
	States     []uint32 `codec:"states"`
	UserIDs    []uint32 `codec:"user_ids"`
	Partitions []string `codec:"partitions"` // the job's partition, compared exactly
	Names      []string `codec:"names"`      // job names, compared exactly
	NodeNames  []string `codec:"node_names"` // jobs allocated any of these nodes
}

// JobInfo is one job (or one array task) as squeue and scontrol show it.
type JobInfo struct {
	JobID         uint32 `codec:"job_id"`
	ArrayJobID    uint32 `codec:"array_job_id"`   // 0 when not an array
	ArrayTaskID   uint32 `codec:"array_task_id"`  // NoVal when not an array task
	ArrayTaskStr  string `codec:"array_task_str"` // pending remainder of an array, e.g. "3-9%2"
	ArrayMaxTasks uint32 `codec:"array_max_tasks"`
	Name          string `codec:"name"`
	UserID        uint32 `codec:"user_id"`
	UserName      string `codec:"user_name"`
	GroupID       uint32 `codec:"group_id"`
	GroupName     string `codec:"group_name"`
	Partition     string `codec:"partition"`
	Account       string `codec:"account"`
	QOS           string `codec:"qos"`
	State         uint32 `codec:"state"`  // compat/states.JobState bits
	Reason        uint32 `codec:"reason"` // compat/states.Reason
	StateDesc     string `codec:"state_desc"`
	Priority      uint32 `codec:"priority"`
	Nice          int32  `codec:"nice"`
	NodeList      string `codec:"node_list"` // allocated nodes (hostlist)
	BatchHost     string `codec:"batch_host"`
	// BatchFeatures is sbatch --batch (scontrol show job's BatchFeatures=).
	BatchFeatures string   `codec:"batch_features,omitempty"`
	ReqNodes      string   `codec:"req_nodes"`
	ExcNodes      string   `codec:"exc_nodes"`
	NumNodes      uint32   `codec:"num_nodes"` // allocated, or requested minimum while pending
	MaxNodes      uint32   `codec:"max_nodes"`
	NumCPUs       uint32   `codec:"num_cpus"`
	NumTasks      uint32   `codec:"num_tasks"`
	CPUsPerTask   uint32   `codec:"cpus_per_task"`
	NTasksPerNode uint32   `codec:"ntasks_per_node"`
	CPUsPerNode   []uint32 `codec:"cpus_per_node"` // allocated CPUs of each node of NodeList
	MemAlloc      uint64   `codec:"mem_alloc"`     // MiB held on each node where memory is consumable, else 0 (scontrol -d's Mem=)
	MemPerNode    uint64   `codec:"mem_per_node"`
	MemPerCPU     uint64   `codec:"mem_per_cpu"`
	TimeLimit     uint32   `codec:"time_limit"` // minutes
	TimeMin       uint32   `codec:"time_min"`
	SubmitTime    int64    `codec:"submit_time"`
	EligibleTime  int64    `codec:"eligible_time"`
	AccrueTime    int64    `codec:"accrue_time"`
	StartTime     int64    `codec:"start_time"` // actual, or expected while pending (0 = unknown)
	EndTime       int64    `codec:"end_time"`
	SuspendTime   int64    `codec:"suspend_time"`
	PreSusTime    int64    `codec:"pre_sus_time"` // seconds run before the last suspend
	// PreemptableTime is when a started job became preemptable (0 = not preemptable, or
	// preemption off: scontrol then prints no PreemptEligibleTime line); PreemptTime when
	// preemption acted on it (0 = None).
	PreemptableTime int64  `codec:"preemptable_time,omitempty"`
	PreemptTime     int64  `codec:"preempt_time,omitempty"`
	Deadline        int64  `codec:"deadline"`
	ExitCode        uint32 `codec:"exit_code"` // wait(2) status of the batch script
	DerivedExit     uint32 `codec:"derived_exit"`
	Restarts        uint32 `codec:"restarts"`
	Requeue         bool   `codec:"requeue"`
	BatchFlag       bool   `codec:"batch_flag"`
	Dependency      string `codec:"dependency"` // what remains, as scontrol prints it
	Command         string `codec:"command"`
	WorkDir         string `codec:"work_dir"`
	StdOut          string `codec:"std_out"`
	StdErr          string `codec:"std_err"`
	StdIn           string `codec:"std_in"`
	Comment         string `codec:"comment"`
	Constraint      string `codec:"constraint"`
	Shared          int32  `codec:"shared"`
	Contiguous      bool   `codec:"contiguous"`
	SubmitLine      string `codec:"submit_line"`
	Reservation     string `codec:"reservation"`
	WCKey           string `codec:"wckey"`
	Licenses        string `codec:"licenses"`
	LicensesEmpty   bool   `codec:"licenses_empty,omitempty"` // "Licenses=" rather than (null) (JobDesc)
	Gres            string `codec:"gres"`
	MailType        uint16 `codec:"mail_type"`
	MailUser        string `codec:"mail_user"`
	AllocNode       string `codec:"alloc_node"` // the submit host
	AllocSID        uint32 `codec:"alloc_sid"`
	OverSubscribe   string `codec:"oversubscribe"`

	// Fields scontrol show job prints that the ones above do not carry.
	TRES          string `codec:"tres"`            // allocated TRES while running, else requested ("cpu=2,node=1,billing=2")
	LastSchedEval int64  `codec:"last_sched_eval"` // when the scheduler last looked at the job
	SchedBackfill bool   `codec:"sched_backfill"`  // the backfill pass started it, or looked at it last while it pends (Scheduler=Backfill)
	SchedNodes    string `codec:"sched_nodes"`     // where backfill expects a pending job to start (SchedNodeList=)
	MinCPUsNode   uint32 `codec:"min_cpus_node"`
	Network       string `codec:"network"`
	Features      string `codec:"features"` // --constraint as the controller keeps it ("" = (null))
	// GresTotal is scontrol -d's JOB_GRES= ("gpu:2"; "" = (null)); GresDetail is each of the
	// job's nodes' GRES= ("gpu:2(IDX:0-1)"), in node order, joined by "|" (a GRES string never
	// holds one, and the packed form carries strings only).
	GresTotal  string `codec:"gres_total"`
	GresDetail string `codec:"gres_detail"`

	// Site options as scontrol show job prints them (0 = not given): ReqB:S:C:T's cores and
	// threads, Socks/Node, NtasksPerN:B:S:C's cores, MinTmpDiskNode, DelayBoot, Switches,
	// CPU_min_freq/CPU_max_freq/CPU_freq_gov (Slurm's encoded values) and SpreadJob.
	ThreadsPerCore uint32 `codec:"threads_per_core"`
	CoresPerSocket uint32 `codec:"cores_per_socket"`
	SocketsPerNode uint32 `codec:"sockets_per_node"`
	NTasksPerCore  uint32 `codec:"ntasks_per_core"`
	TmpDiskMB      uint64 `codec:"pn_min_tmp_disk"`
	DelayBoot      uint32 `codec:"delay_boot"`  // seconds
	ReqSwitch      uint32 `codec:"req_switch"`  // --switches count
	SwitchWait     uint32 `codec:"wait4switch"` // seconds, as the controller caps it
	CPUFreqMin     uint32 `codec:"cpu_freq_min"`
	CPUFreqMax     uint32 `codec:"cpu_freq_max"`
	CPUFreqGov     uint32 `codec:"cpu_freq_gov"`
	SpreadJob      bool   `codec:"spread_job"`

	// KillInvalidDep (1 yes, 2 no) and GresFlags are scontrol's KillOInInvalidDependent= and
	// GresEnforceBind= line.
	KillInvalidDep int32  `codec:"kill_invalid_dep"`
	GresFlags      string `codec:"gres_flags"`
	// The stored options (JobDesc's): MCS_label=, BurstBuffer=, Container=, Power=,
	// ClusterFeatures=, Prefer=, TresBind=, TresFreq=, NtasksPerN:B:S:C's sockets, Reboot=.
	MCSLabel        string `codec:"mcs_label"`
	BurstBuffer     string `codec:"burst_buffer"`
	Container       string `codec:"container"`
	PowerFlags      uint16 `codec:"power_flags"`
	ClusterFeatures string `codec:"cluster_features"`
	Prefer          string `codec:"prefer"`
	TresBind        string `codec:"tres_bind"`
	TresFreq        string `codec:"tres_freq"`
	NTasksPerSocket uint32 `codec:"ntasks_per_socket"`
	Reboot          bool   `codec:"reboot"`
	TresPerJob      string `codec:"tres_per_job"`
	TresPerTask     string `codec:"tres_per_task"`
	CpusPerTres     string `codec:"cpus_per_tres"`
	MemPerTres      string `codec:"mem_per_tres"`
	// ResizeTime is when scontrol update NumNodes= last shrank the job, 0 never.
	ResizeTime int64 `codec:"resize_time,omitempty"`
}

// JobInfoReply answers MsgJobInfo.
type JobInfoReply struct {
	LastUpdate int64     `codec:"last_update"`
	Jobs       []JobInfo `codec:"jobs"`
	// Steps are the live steps of the jobs listed (only when JobInfoRequest.Steps), a running
	// batch job's batch step included, in job then step order.
	Steps []StepInfo `codec:"steps"`
	// Packed holds the jobs instead of Jobs when JobInfoRequest.Packed asked for it: a key
	// table and one map per job (msg_job_info_pack.go).
	Packed []byte `codec:"packed"`

	// room is the buffer Packed lies in when PackedJobInfoReply made the reply, with room
	// around Packed to frame the reply in place (frame_inplace.go); not sent.
	room []byte
}

// Unpack moves the jobs of a packed reply into Jobs; a reply that is not packed is left as
// it is.
func (r *JobInfoReply) Unpack() error {
	if r.Packed == nil {
		return nil
	}
	jobs, err := unpackOwned(r.Packed) // the reply owns Packed and drops it here
	if err != nil {
		return err
	}
	r.Jobs, r.Packed = jobs, nil
	return nil
}

// StepInfo is one live job step as squeue -s shows it.
type StepInfo struct {
	JobID       uint32 `codec:"job_id"`
	StepID      uint32 `codec:"step_id"` // 0xfffffffb: the batch step
	ArrayJobID  uint32 `codec:"array_job_id"`
	ArrayTaskID uint32 `codec:"array_task_id"` // NoVal when not an array task
	Name        string `codec:"name"`
	Partition   string `codec:"partition"`
	UserID      uint32 `codec:"user_id"`
	UserName    string `codec:"user_name"`
	TimeLimit   uint32 `codec:"time_limit"` // minutes; Infinite
	StartTime   int64  `codec:"start_time"`
	NodeList    string `codec:"node_list"`
	NumTasks    uint32 `codec:"num_tasks"`
	NumCPUs     uint32 `codec:"num_cpus"`
	// What scontrol show step prints besides: the task distribution's name ("Block",
	// "Cyclic"; "" for the batch step, which has none) and where its srun runs.
	Dist     string `codec:"dist"`
	SrunHost string `codec:"srun_host"`
	SrunPid  uint32 `codec:"srun_pid"`
}

// KillJobRequest signals or cancels one job, one array task, or a whole array. scancel
// resolves its filters (-u, -n, -t, -p, -w) against MsgJobInfo itself and then sends one
// request per job, as Slurm's scancel does.
type KillJobRequest struct {
	JobID uint32 `codec:"job_id"`
	// ArrayTaskID selects one task of array JobID; NoVal means the job itself, or every task
	// when JobID is an array's id.
	ArrayTaskID uint32 `codec:"array_task_id"`
	// Signal is the signal to send; 0 means cancel (SIGTERM, then SIGKILL after KillWait, and
	// the job ends CANCELLED). A pending job that is signalled with SIGKILL is cancelled.
	Signal int32 `codec:"signal"`
	// Flags: KillBatchOnly (--batch), KillFullJob (--full).
	Flags uint16 `codec:"flags"`
	// Step says StepID names one step of JobID to signal or cancel (scancel J.S) rather than
	// the whole job.
	Step   bool   `codec:"step"`
	StepID uint32 `codec:"step_id"`
}

// Flags of KillJobRequest.
const (
	KillBatchOnly uint16 = 1 << 0 // signal only the batch shell
	KillFullJob   uint16 = 1 << 1 // signal the batch shell and every step
	KillHurry     uint16 = 1 << 2 // --hurry: skip burst buffer stage-out (Orbit has none)
)

// KillJobReply answers MsgKillJob; Errno is 0 or a Slurm errno (e.g. 2017, "Invalid job id
// specified", or 2021, "Job/step already completing or completed") for the job named.
type KillJobReply struct {
	Errno int32  `codec:"errno"`
	Text  string `codec:"text"`
}

func init() {
	Register(MsgSubmitBatchJob, "REQUEST_SUBMIT_BATCH_JOB", func() any { return new(JobDesc) })
	Register(MsgSubmitBatchJobReply, "RESPONSE_SUBMIT_BATCH_JOB", func() any { return new(SubmitBatchJobReply) })
	Register(MsgJobInfo, "REQUEST_JOB_INFO", func() any { return new(JobInfoRequest) })
	Register(MsgJobInfoReply, "RESPONSE_JOB_INFO", func() any { return new(JobInfoReply) })
	Register(MsgKillJob, "REQUEST_KILL_JOB", func() any { return new(KillJobRequest) })
	Register(MsgKillJobReply, "RESPONSE_KILL_JOB", func() any { return new(KillJobReply) })
}

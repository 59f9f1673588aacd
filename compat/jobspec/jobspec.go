package jobspec

import "time"

// Command names the Slurm command a JobSpec was built for.
type Command string

// The commands that build a JobSpec.
const (
	Sbatch Command = "sbatch"
	Srun   Command = "srun"
	Salloc Command = "salloc"
)

// NoVal marks a numeric field the user did not set (Slurm's NO_VAL).
const NoVal = ^uint32(0) - 1

// Infinite is the time limit "UNLIMITED" (Slurm's INFINITE), in minutes.
const Infinite = ^uint32(0)

// Action is what a command was asked to do instead of submitting: print help, usage or
// its version.
type Action int

// The actions of the early options (sbatch handles them before reading the script).
const (
	ActionSubmit Action = iota
	ActionHelp
	ActionUsage
	ActionVersion
)

// Shared is the --exclusive / --oversubscribe request (Slurm's JOB_SHARED_*).
type Shared int

// Values of Shared; SharedUnset means neither option was given.
const (
	SharedUnset Shared = iota
	SharedNone         // --exclusive
	SharedOK           // --oversubscribe or --exclusive=oversubscribe
	SharedUser         // --exclusive=user
	SharedMCS          // --exclusive=mcs
)

// OpenMode is --open-mode.
type OpenMode int

// Values of OpenMode; OpenModeUnset lets JobFileAppend in slurm.conf decide.
const (
	OpenModeUnset OpenMode = iota
	OpenModeAppend
	OpenModeTruncate
)

// Signal is --signal=[{R|B}:]num[@time].
type Signal struct {
	Number int  // signal number
	Time   int  // seconds before the time limit; 60 by default
	Batch  bool // B: only the batch shell
	Reserv bool // R: also when the job's reservation ends
}

// JobSpec is everything sbatch, srun or salloc asked for. Unset numeric fields hold NoVal
// (or 0 where 0 cannot be a request), unset strings are empty.
type JobSpec struct {
	Command Command
	Action  Action // help/usage/version instead of a submission
	Verbose int    // count of -v
	Quiet   bool

	Name string // --job-name, default the script's base name ("wrap" for --wrap)
	// NameFromCLI says --job-name came from the command line (or #SBATCH), not from the
	// environment (SLURM_JOB_NAME, SBATCH_JOB_NAME): srun names its step after it only then.
	NameFromCLI bool
	Partition   string
	Account     string
	QOS         string
	Reservation string
	WCKey       string
	Comment     string
	// Clusters is -M/--clusters (or SLURM_CLUSTERS) as given, ClustersSet that it was (even
	// empty); Orbit's commands fail on it as Slurm's do when no database can name the
	// clusters (cmdclient.ClusterUnreachable), and skip the GRES check Slurm skips for it.
	Clusters    string
	ClustersSet bool
	// UID and GID are --uid and --gid (root only): the user and group the job belongs to
	// instead of the submitter's, where UIDSet and GIDSet.
	UID, GID       uint32
	UIDSet, GIDSet bool
	Constraint     string
	Licenses       string
	Gres           string
	MailType       uint16 // MailBegin|MailEnd|...
	MailUser       string
	NodeList       string // --nodelist as given (a file's names once read, each once)
	// TaskNodes is, under an arbitrary distribution, the node of each task in rank order
	// (--nodelist or SLURM_HOSTFILE as read, repeats kept).
	TaskNodes      []string
	Exclude        string // --exclude as given
	MinNodes       uint32 // NoVal when --nodes was not given
	MaxNodes       uint32 // 0 = no maximum
	NodesSet       bool
	NodesByCLI     bool   // -N came from the command line, not SLURM_JOB_NUM_NODES (srun -r's message)
	NTasksByCLI    bool   // -n came from the command line, not SLURM_NTASKS (srun's arbitrary layout)
	NodeFile       string // -F/--nodefile: read into NodeList once every option is in
	MinCPUs        uint32 // --mincpus: CPUs the job needs on each node; NoVal when unset
	NTasks         uint32 // NoVal when unset
	NTasksPerNode  uint32 // NoVal when unset
	CPUsPerTask    uint32 // NoVal when unset
	MemPerNode     uint64 // MiB, NoVal64 when unset
	MemPerCPU      uint64 // MiB, NoVal64 when unset
	TimeLimit      uint32 // minutes; NoVal when unset, Infinite for UNLIMITED
	TimeMin        uint32 // minutes; NoVal when unset
	Begin          time.Time
	Deadline       time.Time
	Hold           bool
	Exclusive      Shared
	Requeue        int // -1 unset, 0 --no-requeue, 1 --requeue
	Nice           int32
	NiceSet        bool
	Priority       uint32 // NoVal when unset; NoVal-1 for TOP
	KillInvalidDep int    // 0 unset, 1 yes, 2 no
	Signal         *Signal
	Export         string // --export as given ("" = unset: ALL)
	// GetUserEnv is --get-user-env: the node loads the user's login environment and lays the
	// submitted one over it. Slurm 22.05 parses the optional "<timeout>[S|L]" but its slurmd
	// uses fixed values, so only the request itself travels.
	GetUserEnv bool
	// Propagate is --propagate's rlimit list ("ALL" when given without one); PropagateSet
	// says it was given, which replaces slurm.conf's PropagateResourceLimits and marks the
	// exported limits as the user's (compat/rlimits).
	Propagate    string
	PropagateSet bool
	OpenMode     OpenMode
	Output       string // pattern, made absolute against WorkDir for sbatch
	Error        string
	Input        string
	WorkDir      string // --chdir, absolute; default the current directory
	SubmitDir    string // the directory the command ran in (SLURM_SUBMIT_DIR)
	Dependency   string // as given
	Dependencies *DependencyList
	ArraySpec    string // --array as given
	Array        *ArraySpec
	Parsable     bool
	Wait         bool // sbatch --wait: exit when the job has ended, with its exit code
	TestOnly     bool // --test-only: ask when the job would start, submit nothing
	IgnorePBS    bool
	Wrap         string // --wrap command ("" when not used)

	// Orbit's malleable-job and power options (DESIGN.md §8).
	MinNodesInvasive uint32 // NoVal when unset
	MaxNodesInvasive uint32 // NoVal when unset
	NodeConstraints  string // pof2|even|odd|ncube|none
	MinPower         uint32 // watts per node, NoVal when unset
	MaxPower         uint32 // watts per node, NoVal when unset

	// NoKill (-k/--no-kill) keeps the job running when one of its nodes fails, other than
	// the batch host; the failed node leaves the job.
	NoKill bool
	// WaitAllNodes (sbatch, salloc --wait-all-nodes=0|1): Orbit's nodes are always booted,
	// so both values start the job as soon as it is allocated. NoVal when unset.
	WaitAllNodes uint32
	// Overcommit (-O/--overcommit) allocates one task's CPUs per node whatever the task
	// count, and lets the job's steps run more tasks than CPUs (Slurm's overcommit).
	Overcommit bool
	// GresFlags is --gres-flags (enforce-binding, disable-binding): without CPU binding of
	// GRES (gres.conf Cores=) there is nothing for either to change.
	GresFlags string

	// UnmodelledGPU lists the GPU options given beyond --gres and --gpus-per-node
	// (options.CheckUnmodelledGPU: Slurm refuses them without a gpu GRES).
	UnmodelledGPU []string
	// TresPerJob, TresPerTask, CpusPerTres and MemPerTres are --gpus, --gpus-per-task,
	// --cpus-per-gpu and --mem-per-gpu as Slurm keeps them ("gres:gpu:2", "gres:gpu:a100:1",
	// MiB for memory); "" when not given.
	TresPerJob, TresPerTask, CpusPerTres, MemPerTres string

	// Site is the node-shape, binding, frequency and profiling options (siteopts.go).
	Site SiteOptions
	// Stored is the options the controller only stores and shows here (stored.go).
	Stored StoredOptions

	// srun's own.
	Label bool // -l/--label: prefix each output line with its task number
	// Unbuffered is srun -u: output reaches srun as the task writes it (Orbit's always does).
	Unbuffered bool
	// DebuggerTest is srun --debugger-test: the tasks start stopped at their exec, as for a
	// parallel debugger, and srun prints where each is (task, host, pid, executable).
	DebuggerTest bool
	// NoAllocate is srun -Z: root or SlurmUser runs the tasks on the --nodelist nodes
	// without a job, the nodes' slurmd trusting the caller instead of a credential.
	NoAllocate bool
	// BatchFeatures is sbatch --batch: the features (of --constraint's) the node running
	// the batch script should have.
	BatchFeatures string
	// MultiProg is srun --multi-prog: Argv[0] is the configuration file, Argv[1:] are
	// arguments appended to every task's command.
	MultiProg bool
	// KillOnBadExit is srun -K[=n]: nonzero kills the step when a task exits nonzero;
	// unset (KillOnBadExitSet false), slurm.conf's KillOnBadExit decides.
	KillOnBadExit    int
	KillOnBadExitSet bool
	// Exact (--exact, or --exclusive inside an allocation) gives a step only the CPUs its
	// tasks need; Whole (--whole) every CPU the job has free on the step's nodes, the
	// default; Overlap (--overlap) lets the step share CPUs with every other step.
	Exact, Whole, Overlap bool
	// CPUBind is srun --cpu-bind as given (checked against the TaskPlugin by srun, with
	// options.VerifyCPUBind); CPUBindSet says it was given.
	CPUBind    string
	CPUBindSet bool
	// QuitOnInterrupt (--quit-on-interrupt) ends the step at the first SIGINT; DisableStatus
	// (-X) passes each SIGINT to the tasks instead of printing their states.
	QuitOnInterrupt, DisableStatus bool
	// SlurmdDebug is srun --slurmd-debug, a Slurm log level (compat/loglevel; 0: not given):
	// slurmstepd logs to the step's first task's stderr at error plus it.
	SlurmdDebug uint16
	// Immediate is srun -I/--immediate in seconds (0: not given): the allocation, and a
	// step that finds its job's CPUs busy, wait no longer than this (salloc keeps its own).
	Immediate int
	// PreserveEnv (-E) leaves the step's SLURM_NTASKS, SLURM_NPROCS, SLURM_NNODES,
	// SLURM_TASKS_PER_NODE and SLURM_THREADS_PER_CORE as srun's environment has them.
	PreserveEnv bool
	// Relative (-r) starts the step at that node of the allocation; NoVal when unset.
	Relative uint32
	// MaxWait (-W/--wait) is how many seconds the other tasks may run on after the first
	// one ends; 0 = no limit.
	MaxWait uint32
	// TaskProlog and TaskEpilog are srun --task-prolog and --task-epilog; Prolog and Epilog
	// srun --prolog and --epilog.
	TaskProlog, TaskEpilog, Prolog, Epilog string
	// Pty is srun --pty: task 0 on a pseudo-terminal (srun/pty.go).
	Pty bool
	// MPI is srun --mpi as given ("" = slurm.conf's MpiDefault).
	MPI string
	// AccelBind is srun --accel-bind ("" = not given); Compress srun --compress, which
	// matters only with --bcast; ResvPorts srun --resv-ports (ResvPortsSet, with its count,
	// 0 when none was given); X11 --x11 (X11Set) as given.
	AccelBind, Compress, X11 string
	// SendLibs is srun --send-libs (SendLibsSet: given; else BcastParameters' send_libs):
	// --bcast sends the program's shared libraries too. BcastExclude is --bcast-exclude
	// (BcastExcludeSet: given; else slurm.conf's BcastExclude): the directories whose
	// libraries are not sent, or "none".
	SendLibs, SendLibsSet bool
	BcastExclude          string
	BcastExcludeSet       bool
	// Bcast is srun --bcast's destination ("" for the default; BcastSet says it was given):
	// srun copies the program to the step's nodes and runs the copy.
	Bcast                string
	BcastSet             bool
	ResvPorts            uint32
	ResvPortsSet, X11Set bool

	// srun/salloc inside an existing allocation.
	JobID         string // --jobid / SLURM_JOB_ID (srun)
	AllocNodeList string // SLURM_JOB_NODELIST (srun)

	Script     []byte   // the batch script (sbatch), synthesised for --wrap
	ScriptPath string   // the script file as named ("" for stdin or --wrap)
	Argv       []string // script arguments (sbatch) or the command and its arguments (srun, salloc)
	Env        []string // the submitting environment
	SubmitLine string   // the command line as typed, for Slurm's SubmitLine
	Warnings   []string // stderr lines to print even when parsing succeeds (e.g. the #SLURM warning)
	// Defined is every option given, in the order each was last set (defined.go), for the
	// commands' -v list of defined options.
	Defined []DefinedOption
}

// NoVal64 marks an unset memory size (Slurm's NO_VAL64).
const NoVal64 = ^uint64(0) - 1

// Mail type bits, as Slurm's MAIL_JOB_*.
const (
	MailBegin        uint16 = 0x0001
	MailEnd          uint16 = 0x0002
	MailFail         uint16 = 0x0004
	MailRequeue      uint16 = 0x0008
	MailTime100      uint16 = 0x0010
	MailTime90       uint16 = 0x0020
	MailTime80       uint16 = 0x0040
	MailTime50       uint16 = 0x0080
	MailStageOut     uint16 = 0x0100
	MailArrayTasks   uint16 = 0x0200
	MailInvalidDepnd uint16 = 0x0400
)

// New returns a JobSpec for cmd with every numeric field unset.
func New(cmd Command) *JobSpec {
	return &JobSpec{
		Command:          cmd,
		MinNodes:         NoVal,
		NTasks:           NoVal,
		NTasksPerNode:    NoVal,
		CPUsPerTask:      NoVal,
		MemPerNode:       NoVal64,
		MemPerCPU:        NoVal64,
		TimeLimit:        NoVal,
		TimeMin:          NoVal,
		WaitAllNodes:     NoVal,
		Relative:         NoVal,
		MinCPUs:          NoVal,
		Requeue:          -1,
		Priority:         NoVal,
		MinNodesInvasive: NoVal,
		MaxNodesInvasive: NoVal,
		MinPower:         NoVal,
		MaxPower:         NoVal,
		Site:             NewSiteOptions(),
		Stored:           NewStoredOptions(),
	}
}

// NumTasksOrDefault is the task count the controller records when --ntasks was not given:
// one per node of the minimum node count, times --ntasks-per-node when that was given.
func (js *JobSpec) NumTasksOrDefault() uint32 {
	if js.NTasks != NoVal {
		return js.NTasks
	}
	n := uint32(1)
	if js.NodesSet && js.MinNodes > 0 {
		n = js.MinNodes
	}
	if js.NTasksPerNode != NoVal {
		n *= js.NTasksPerNode
	}
	return n
}

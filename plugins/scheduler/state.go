package scheduler

// Infinite is a limit or time limit with no value (Slurm's INFINITE), as on the wire.
const Infinite = 0xffffffff

// JobState is the coarse state of a job as a scheduler needs it.
type JobState uint8

// Job states a plugin sees. Jobs that have ended are removed with Delta.JobsGone.
const (
	// JobPending is waiting to start. Eligible says whether the controller would start it now.
	JobPending JobState = iota
	// JobRunning holds its allocation (running, suspended or completing).
	JobRunning
)

// Job is one job as the controller shows it to a scheduler: its request, its eligibility and,
// while it runs, its allocation.
type Job struct {
	ID     uint32 `codec:"id"`
	UserID uint32 `codec:"user_id"`
	Name   string `codec:"name"`
	// Partition is where the job runs or, pending, the first partition it may start in.
	Partition string `codec:"partition"`
	// Partitions, for a pending job submitted to several (-p a,b), is every partition it
	// may start in now, in the order Slurm tries them (PriorityTier, then as named), Partition
	// first; nil when there is only Partition. A plugin names the one it chose in
	// Start.Partition.
	Partitions []string `codec:"partitions"`
	State      JobState `codec:"state"`
	// Priority is the job's priority (higher first); 0 means held.
	Priority uint32 `codec:"priority"`
	// Eligible is the controller's verdict that nothing but resources and order keeps the job
	// from starting now: not held, begin time reached, dependencies met, partition up and its
	// limits respected. A plugin must start only eligible jobs; it may still reserve for
	// others. Reason is the controller's pending reason (a compat/states.Reason value) when
	// not eligible.
	Eligible bool   `codec:"eligible"`
	Reason   uint32 `codec:"reason"`
	// Times, Unix seconds. EligibleTime is when the job became eligible (age priority).
	SubmitTime   int64 `codec:"submit_time"`
	EligibleTime int64 `codec:"eligible_time"`
	StartTime    int64 `codec:"start_time"` // running jobs
	// TimeLimit in minutes, Infinite for none. A running job's expected end is
	// StartTime + TimeLimit*60 (backfill's view of the future).
	TimeLimit uint32 `codec:"time_limit"`
	// The request, with the controller's defaults applied.
	MinNodes uint32 `codec:"min_nodes"`
	MaxNodes uint32 `codec:"max_nodes"` // 0 = no maximum
	// UseMinNodes is --use-min-nodes: of a node range the selection aims at the minimum
	// (else at the maximum, as Slurm's select plugin does).
	UseMinNodes bool `codec:"use_min_nodes,omitempty"`
	// Contiguous is --contiguous: the job's nodes are consecutive ones.
	Contiguous bool   `codec:"contiguous,omitempty"`
	NumTasks   uint32 `codec:"num_tasks"`
	// ReqTasks is the task count the job asked for (-n, or --ntasks-per-node per node; 0
	// when neither): a node range takes no more nodes than that, and without it as many
	// nodes as it can. NumTasks, the count placed, differs with -O and without a count.
	ReqTasks     uint32 `codec:"req_tasks,omitempty"`
	CPUsPerTask  uint32 `codec:"cpus_per_task"`
	TasksPerNode uint32 `codec:"ntasks_per_node"` // 0 = not given
	MinCPUs      uint32 `codec:"min_cpus"`        // --mincpus: CPUs needed on each node, 0 = not given
	Exclusive    bool   `codec:"exclusive"`
	// Oversubscribe is --oversubscribe: the job may share CPUs with other jobs in a
	// partition with OverSubscribe=YES (Partition.ShareRows).
	Oversubscribe bool `codec:"oversubscribe,omitempty"`
	// ShareRow is, for a running job that shares CPUs, which of its partition's rows it
	// holds them in (selection share.go); the controller keeps it.
	ShareRow   int      `codec:"share_row,omitempty"`
	MemPerNode uint64   `codec:"mem_per_node"` // MiB, 0 = none
	MemPerCPU  uint64   `codec:"mem_per_cpu"`  // MiB, 0 = none
	ReqNodes   []string `codec:"req_nodes"`    // --nodelist, expanded
	ExcNodes   []string `codec:"exc_nodes"`    // --exclude, expanded
	Features   string   `codec:"features"`     // --constraint, as given
	// Reservation is the advance reservation the job runs in (--reservation), "" for none:
	// it may start only on that reservation's nodes within its window, and a job without one
	// never on nodes a reservation holds while it would run (reservation.go).
	Reservation string `codec:"reservation,omitempty"`
	// Magnetic names the magnetic advance reservations (flags=MAGNETIC) that admit a job
	// naming none: Slurm queues the job once in each of them, ahead of its plain queue
	// entry, so a scheduler tries it there first and says so in Start.Reservation.
	Magnetic []string `codec:"magnetic,omitempty"`
	// NTasksPerCore and ThreadsPerCore are --ntasks-per-core and --threads-per-core
	// (--hint=nomultithread is 1), 0 = not given: how many threads of a core the job uses on
	// a node with several (plugins/sched/selection cores.go).
	NTasksPerCore  uint32 `codec:"ntasks_per_core"`
	ThreadsPerCore uint32 `codec:"threads_per_core"`
	// ExclusiveUser: no other user's job may share a node with this one (--exclusive=user,
	// or its partition's ExclusiveUser=YES), and while it runs its nodes take jobs of its
	// user only.
	ExclusiveUser bool `codec:"exclusive_user"`
	// ArrayJobID is the array a task or the array's pending record belongs to; 0 if none.
	ArrayJobID uint32 `codec:"array_job_id"`
	// ArrayTasks is, for an array's pending record, how many of its tasks are pending: a
	// plan may name the record that many times, each Start running its next task, as Slurm's
	// backfill starts several tasks of one array in a pass. ArrayThrottle is its %N: at most
	// that many of the array's tasks running at once (counting those running now), 0 = no
	// limit.
	ArrayTasks    uint32 `codec:"array_tasks,omitempty"`
	ArrayThrottle uint32 `codec:"array_throttle,omitempty"`
	// Allocation of a running job: nodes, CPUs on each, MiB of memory counted per node.
	Nodes []string `codec:"nodes"`
	CPUs  []uint32 `codec:"cpus"`
	Mem   uint64   `codec:"mem"`
	// Gres is --gres: what the job needs on every node (Type "" = any type of Name).
	Gres []Gres `codec:"gres"`
	// GresAlloc is a running job's GRES: GresAlloc[i] is what it holds on Nodes[i], by name
	// and type (nil when it holds none).
	GresAlloc [][]Gres `codec:"gres_alloc"`
}

// Parts is the partitions j may start in, in order: Partitions, or just Partition.
func (j *Job) Parts() []string {
	if len(j.Partitions) > 0 {
		return j.Partitions
	}
	return []string{j.Partition}
}

// SharesCPUs says whether j, running in p, may hold CPUs other jobs hold too (Slurm's
// NODE_CR_AVAILABLE): p lets several jobs hold a CPU and either forces it on every job or j
// asked with --oversubscribe.
func (p *Partition) SharesCPUs(j *Job) bool {
	return p.ShareRows > 1 && (p.ShareForce || j.Oversubscribe)
}

// Gres is a count of one generic resource: on a node, what it has of Name and Type (""
// untyped); in a request, what a job needs (Type "" = any type).
type Gres struct {
	Name  string `codec:"name"`
	Type  string `codec:"type"`
	Count uint64 `codec:"count"`
}

// Node is one node: its configured resources and whether jobs may be placed on it now.
// Allocation is not carried: it follows from the running jobs.
type Node struct {
	Name       string   `codec:"name"`
	CPUs       uint32   `codec:"cpus"`
	RealMemory uint64   `codec:"real_memory"` // MiB
	Features   []string `codec:"features"`
	Weight     uint32   `codec:"weight"`
	// Usable is false while the node is down, drained, draining, not responding or
	// reserved for an exclusive job outside the scheduler's view.
	Usable bool `codec:"usable"`
	// Gres is the node's generic resources, in configuration order, one entry per name and
	// type (slurm.conf Gres=, gres.conf).
	Gres []Gres `codec:"gres"`
	// ThreadsPerCore is how many of CPUs make one core (Slurm's tpc: 1 when CPUs count
	// cores); 0 is 1. A core is never split between jobs (selection cores.go).
	ThreadsPerCore uint32 `codec:"threads_per_core"`
}

// Partition is one partition with the limits a scheduler needs.
type Partition struct {
	Name          string   `codec:"name"`
	Nodes         []string `codec:"nodes"` // in configuration order
	Up            bool     `codec:"up"`
	MaxTime       uint32   `codec:"max_time"`  // minutes, Infinite for none
	MaxNodes      uint32   `codec:"max_nodes"` // Infinite for none
	MinNodes      uint32   `codec:"min_nodes"`
	PriorityTier  uint32   `codec:"priority_tier"`
	OverSubscribe bool     `codec:"oversubscribe"`
	// ShareRows is how many jobs may hold one CPU at once (OverSubscribe=YES:n or
	// FORCE:n); 0 or 1 when jobs do not share. With ShareForce (FORCE) every job of the
	// partition shares, else only jobs with Job.Oversubscribe.
	ShareRows  uint32 `codec:"share_rows,omitempty"`
	ShareForce bool   `codec:"share_force,omitempty"`
	// MaxCPUsPerNode is the most CPUs of one node the partition's jobs may hold together;
	// Infinite (or 0) for no limit.
	MaxCPUsPerNode uint32 `codec:"max_cpus_per_node"`
}

// Config is the part of slurm.conf a scheduler reads.
type Config struct {
	SchedulerType        string `codec:"scheduler_type"`
	SchedulerParameters  string `codec:"scheduler_parameters"`
	SelectType           string `codec:"select_type"`
	SelectTypeParameters string `codec:"select_type_parameters"`
	PriorityType         string `codec:"priority_type"`
}

// State is the whole cluster as of Now (Unix seconds): what a plugin receives on start and
// whenever the controller resyncs it. Jobs holds pending and running jobs only.
type State struct {
	Seq        uint64      `codec:"seq"`
	Now        int64       `codec:"now"`
	Config     Config      `codec:"config"`
	Nodes      []Node      `codec:"nodes"`
	Partitions []Partition `codec:"partitions"`
	Jobs       []Job       `codec:"jobs"`
	// Reservations is every advance reservation not yet ended (reservation.go).
	Reservations []AdvanceReservation `codec:"reservations,omitempty"`
}

// Delta is what changed since the state or delta numbered Seq-1: jobs and nodes added or
// changed (replace the whole entry), jobs that ended or were purged. A plugin that sees a gap
// in Seq returns ErrResync, and the controller sends a full State.
type Delta struct {
	Seq        uint64      `codec:"seq"`
	Now        int64       `codec:"now"`
	Jobs       []Job       `codec:"jobs"`
	JobsGone   []uint32    `codec:"jobs_gone"`
	Nodes      []Node      `codec:"nodes"`
	Partitions []Partition `codec:"partitions"` // non-nil replaces the whole list
	// ReservationsSet says Reservations replaces the whole list of advance reservations
	// (empty when the last one went).
	ReservationsSet bool                 `codec:"reservations_set,omitempty"`
	Reservations    []AdvanceReservation `codec:"reservations,omitempty"`
}

package scheduler

// Plan is a scheduler's answer to one Schedule call: what to start, what it reserves, which
// malleable jobs to resize, what it rejects, and why the rest waits. The controller applies
// each entry that still holds against its own tables and logs and drops the others.
type Plan struct {
	// Seq is the state sequence number the plan was computed from.
	Seq    uint64  `codec:"seq"`
	Starts []Start `codec:"starts"`
	// Reservations are expected starts of pending jobs (squeue --start, scontrol's StartTime).
	Reservations []Reservation `codec:"reservations"`
	Resizes      []Resize      `codec:"resizes"`
	Rejects      []Reject      `codec:"rejects"`
	// Reasons are pending reasons (compat/states.Reason values) for eligible jobs not started,
	// typically Resources for the first blocked job of a partition and Priority for the rest.
	Reasons []PendingReason `codec:"reasons"`
	// Stats describe the cycle for sdiag (backfill section); optional.
	Stats CycleStats `codec:"stats"`
	// BackfillEvaluated are the pending jobs looked at by the backfill pass that ended with
	// this plan (Slurm's BACKFILL_SCHED mark): until the next main pass, scontrol shows them
	// as Scheduler=Backfill:* with the pass's time as LastSchedEval. Optional.
	BackfillEvaluated []uint32 `codec:"backfill_evaluated"`
}

// Start starts an eligible pending job now on the given nodes, with CPUs[i] CPUs and Mem MiB
// of memory counted on Nodes[i].
type Start struct {
	JobID uint32 `codec:"job_id"`
	// Partition is the partition the job starts in, one of Job.Parts(); "" is Job.Partition.
	Partition string   `codec:"partition"`
	Nodes     []string `codec:"nodes"`
	CPUs      []uint32 `codec:"cpus"`
	Mem       uint64   `codec:"mem"`
	// Backfilled marks a start made by backfill ahead of a higher-priority job (sdiag).
	Backfilled bool `codec:"backfilled"`
	// Gres is the GRES the plugin counted on Nodes[i] (GresAlloc's shape). The controller
	// assigns the devices itself; this lets the plugin's own later passes count the start.
	Gres [][]Gres `codec:"gres"`
	// Reservation is the magnetic reservation (one of Job.Magnetic) the job starts in; the
	// job then runs in it as if it had named it.
	Reservation string `codec:"reservation,omitempty"`
}

// Reservation says when and where a pending job is expected to start.
type Reservation struct {
	JobID     uint32   `codec:"job_id"`
	StartTime int64    `codec:"start_time"`
	Nodes     []string `codec:"nodes"`
}

// Resize expands or shrinks a running malleable job to Nodes (DESIGN.md §8).
type Resize struct {
	JobID uint32   `codec:"job_id"`
	Nodes []string `codec:"nodes"`
	CPUs  []uint32 `codec:"cpus"`
}

// Reject marks a pending job that can never run, with the reason shown to the user.
type Reject struct {
	JobID  uint32 `codec:"job_id"`
	Reason uint32 `codec:"reason"`
}

// PendingReason is why an eligible job did not start this cycle. Desc, when set, is the
// text squeue shows instead of the reason's name (Slurm's state_desc); the controller
// accepts only the texts Slurm's schedulers use (compat/states.SchedulerDescReason).
type PendingReason struct {
	JobID  uint32 `codec:"job_id"`
	Reason uint32 `codec:"reason"`
	Desc   string `codec:"desc"`
}

// CycleStats are a scheduling cycle's counters, summed by the controller for sdiag.
type CycleStats struct {
	JobsTested     uint32 `codec:"jobs_tested"`
	BackfillStarts uint32 `codec:"backfill_starts"`
	DepthReached   uint32 `codec:"depth_reached"`
	// Backfill says a backfill pass ended with this plan (one sdiag backfill cycle; a pass
	// that yielded over several plans ends in the last). The fields below describe it, as
	// Slurm's backfill.c counts them: Depth the jobs it looked at (bf_last_depth), DepthTry
	// those that reached a node test (bf_last_depth_try), TableSize the records of its
	// time/resource map (bf_table_size: node_space_recs). A plugin that leaves Backfill
	// false but backfilled a job (BackfillStarts) is counted with JobsTested as its depth.
	Backfill  bool   `codec:"backfill"`
	Depth     uint32 `codec:"bf_depth"`
	DepthTry  uint32 `codec:"bf_depth_try"`
	TableSize uint32 `codec:"bf_table_size"`
}

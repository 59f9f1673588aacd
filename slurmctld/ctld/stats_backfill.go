package ctld

import (
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// sdiag's backfill section ("Backfilling stats"), summed from the scheduler plugin's plans
// as Slurm 22.05's backfill.c sums its cycles (_do_diag_stats, _attempt_backfill):
//
//   - a backfill cycle is a plan that ends a backfill pass (CycleStats.Backfill; a pass that
//     yielded ends in a later plan than it began) and had pending jobs to look at (Slurm
//     counts no cycle for an empty queue). A plugin that does not report its passes is
//     counted when it backfilled a job;
//   - "Last cycle" is the time in microseconds the plugin took for that plan, "Max" and
//     "Mean" over the period;
//   - "Last depth cycle" is the jobs the pass looked at (CycleStats.Depth, bf_last_depth),
//     "(try sched)" those it tried to place (DepthTry, bf_last_depth_try), "Depth Mean"
//     their means; a plugin that does not report them gives JobsTested for both;
//   - "Last queue length" is the pending jobs the controller found eligible for the cycle
//     (Slurm's build_job_queue), "Queue length mean" its mean;
//   - "Total backfilled jobs" count the backfilled starts the controller verified and
//     applied, "since last slurm start" and "since last stats cycle start" both, as Slurm's
//     `sdiag -r` clears both (reset_stats(1)); heterogeneous job components stay 0 (Orbit has
//     no heterogeneous jobs);
//   - "Last table size" is the records of the pass's time/resource map (CycleStats.TableSize,
//     Slurm's node_space_recs), "Mean table size" its mean.

// bfStats are the backfill counters of the statistics period. The zero value is ready.
type bfStats struct {
	mu sync.Mutex

	backfilled, lastBackfilled, backfilledHet uint32
	cycles                                    uint32
	cycleSum                                  uint64
	cycleLast, cycleMax                       uint32
	whenLast                                  int64
	depth, depthTry                           uint32
	depthSum, depthTrySum                     uint64
	queue                                     uint32
	queueSum                                  uint64
	table                                     uint32
	tableSum                                  uint64
}

// bfQueue is the number of pending jobs eligible for a cycle: those the controller gives no
// reason to wait.
func bfQueue(elig map[uint32]states.Reason) uint32 {
	n := uint32(0)
	for _, r := range elig {
		if r == states.WaitNoReason {
			n++
		}
	}
	return n
}

// bfMark is when the controller asked the plugin for a plan (bfCycle's asked).
func bfMark() time.Time { return time.Now() }

// bfCycle records plan as a backfill cycle when it includes a backfill pass: the plugin was
// asked for it at asked (bfMark), queue is the eligible pending jobs (bfQueue).
func (c *Controller) bfCycle(plan scheduler.Plan, queue uint32, now int64, asked time.Time) {
	took := time.Since(asked)
	s := &c.bf
	s.mu.Lock()
	defer s.mu.Unlock()
	st := plan.Stats
	if !st.Backfill {
		if st.BackfillStarts == 0 {
			return
		}
		st.Depth, st.DepthTry = st.JobsTested, st.JobsTested // a plugin that does not say
	}
	if queue == 0 {
		return // Slurm's backfill returns before counting a cycle: "no jobs to backfill"
	}
	us := uint32(min(took.Microseconds(), int64(^uint32(0)>>1)))
	s.cycles++
	s.cycleSum += uint64(us)
	s.cycleLast = us
	s.cycleMax = max(s.cycleMax, us)
	s.whenLast = now
	s.depth, s.depthTry = st.Depth, st.DepthTry
	s.depthSum += uint64(s.depth)
	s.depthTrySum += uint64(s.depthTry)
	s.queue = queue
	s.queueSum += uint64(queue)
	s.table = st.TableSize
	s.tableSum += uint64(s.table)
}

// bfStarted counts one backfilled start the controller applied.
func (c *Controller) bfStarted() {
	c.bf.mu.Lock()
	c.bf.backfilled++
	c.bf.lastBackfilled++
	c.bf.mu.Unlock()
}

// reset starts a new statistics period (`sdiag -r`, Slurm's reset_stats(1)): the time of the
// last cycle and the last table size stay, as in Slurm.
func (s *bfStats) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backfilled, s.lastBackfilled, s.backfilledHet = 0, 0, 0
	s.cycles, s.cycleSum, s.cycleLast, s.cycleMax = 0, 0, 0, 0
	s.depth, s.depthTry, s.depthSum, s.depthTrySum = 0, 0, 0, 0
	s.queue, s.queueSum, s.tableSum = 0, 0, 0
}

// fill copies the counters into sdiag's reply.
func (s *bfStats) fill(r *wire.StatsReply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.BfBackfilledJobs, r.BfLastBackfilled, r.BfBackfilledHetJobs = s.backfilled, s.lastBackfilled, s.backfilledHet
	r.BfCycleCount, r.BfCycleSum, r.BfCycleLast, r.BfCycleMax = s.cycles, s.cycleSum, s.cycleLast, s.cycleMax
	r.BfWhenLastCycle = s.whenLast
	r.BfLastDepth, r.BfLastDepthTry, r.BfDepthSum, r.BfDepthTrySum = s.depth, s.depthTry, s.depthSum, s.depthTrySum
	r.BfQueueLen, r.BfQueueLenSum = s.queue, s.queueSum
	r.BfTableSize, r.BfTableSizeSum = s.table, s.tableSum
}

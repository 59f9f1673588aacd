package ctld

import (
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// schedEval is what scontrol shows of the schedulers' last look at a pending job
// (LastSchedEval=, Scheduler=Main or Backfill:*), kept as Slurm 22.05 stamps it:
//
//   - its main scheduler (schedule()) runs when an event wakes it (a submit, an end, a node
//     or partition change) and every sched_interval; it stamps each runnable pending job it
//     looks at and clears every backfill mark;
//   - a backfill pass stamps and marks the jobs it looks at; the mark shows as ":*" while
//     the job pends and no main pass has run since.
//
// Orbit's plugin runs its main pass in every cycle, timer-driven ones too, so a cycle counts
// as Slurm's main scheduler only when it was woken or sched_interval has passed. The stamps
// are per cycle, not per job: every runnable job the last main pass saw carries its time.
// Guarded by c.mu.
type schedEval struct {
	mainAt int64           // when the main scheduler last ran
	bfAt   int64           // when the last backfill pass ended
	bf     map[uint32]bool // the jobs that pass looked at
}

// note records the cycle at now that made plan; woken says an event asked for it, full is
// sched_interval in seconds (-1: Slurm's main scheduler is off).
func (e *schedEval) note(plan scheduler.Plan, now int64, woken bool, full int64) {
	if full >= 0 && (woken || now-e.mainAt >= full) {
		e.mainAt = now
	}
	if plan.Stats.Backfill {
		e.bfAt = now
		e.bf = make(map[uint32]bool, len(plan.BackfillEvaluated))
		for _, id := range plan.BackfillEvaluated {
			e.bf[id] = true
		}
	}
}

// pending is the LastSchedEval of pending job j and whether the backfill pass made it, for
// a job the schedulers may look at (reason is a scheduler's: None, Resources, Priority);
// other pending jobs keep their submit time, as no scheduler pass reaches them.
func (e *schedEval) pending(j *jobRecord) (at int64, backfill bool) {
	at = j.SubmitTime
	if staleReason(states.Reason(j.Reason)) {
		return at, false
	}
	if e.mainAt > at {
		at = e.mainAt
	}
	if e.bf[j.JobID] && e.bfAt >= e.mainAt { // the pass saw it, so after its submission
		return e.bfAt, true
	}
	return at, false
}

package backfill

import (
	"context"
	"slices"
	"time"

	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// yearMinutes is the time limit backfill assumes for a job with none in a partition with
// none (Slurm's YEAR_MINUTES).
const yearMinutes = 365 * 24 * 60

// Backfill is the sched/backfill plugin.
type Backfill struct {
	m        scheduler.Mirror
	params   scheduler.Params
	lastFull int64 // last full-queue main pass (sched_interval)
	lastBF   int64 // when the last backfill pass ended (bf_interval); -1 before the first
	resv     []scheduler.Reservation
	// cur is a pass that yielded and goes on at the next call; nil between passes.
	cur *pass
	// jobsChanged and partsChanged say what changed since cur yielded (Slurm's
	// _yield_locks test): a job or node change ends a yielded pass unless bf_continue; a
	// partition, advance reservation or configuration change (a delta's partitions or
	// reservations, a resync) always does.
	jobsChanged, partsChanged bool
	lastStarts                map[uint32]bool // the last plan's starts: them running is no change
	// clock is the wall clock bf_max_time and bf_yield_interval are measured on.
	clock func() time.Time
}

var _ scheduler.Scheduler = (*Backfill)(nil)

// New is sched/backfill for cfg; it fails on a bad SchedulerParameters value.
func New(cfg scheduler.Config) (scheduler.Scheduler, error) {
	return NewClocked(cfg, time.Now)
}

// NewClocked is New measuring bf_max_time and bf_yield_interval on clock. The simulator
// passes a clock that stands still, so a pass never yields or stops for the wall time a
// slow machine takes, and a simulation's figures do not depend on the machine.
func NewClocked(cfg scheduler.Config, clock func() time.Time) (scheduler.Scheduler, error) {
	p, err := scheduler.ParseParams(cfg.SchedulerParameters)
	if err != nil {
		return nil, err
	}
	return &Backfill{params: p, lastFull: -1, lastBF: -1, clock: clock}, nil
}

// Sync replaces the mirror. A yielded pass ends at the next call: a resync may carry a new
// configuration.
func (b *Backfill) Sync(_ context.Context, s scheduler.State) error {
	b.m.Sync(s)
	b.partsChanged = true
	return nil
}

// Update applies a delta to the mirror (ErrResync on a gap), noting what changed for a
// yielded pass.
func (b *Backfill) Update(_ context.Context, d scheduler.Delta) error {
	if b.cur != nil {
		b.noteChanges(d)
	}
	return b.m.Update(d)
}

// noteChanges records whether d changes what a yielded pass decided on: a job submitted,
// ended, started by someone else or whose eligibility or priority moved, a node, the
// partitions or the advance reservations. A job the last plan started now running, or a new
// pending reason, is not a change (Slurm compares its last_job_update, which its own starts
// do not move across a yield).
func (b *Backfill) noteChanges(d scheduler.Delta) {
	if d.Partitions != nil || d.ReservationsSet {
		b.partsChanged = true // the pass's map of the future is wrong from the start
	}
	if len(d.JobsGone) > 0 || len(d.Nodes) > 0 {
		b.jobsChanged = true
	}
	for i := range d.Jobs {
		n, o := &d.Jobs[i], b.m.Job(d.Jobs[i].ID)
		switch {
		case o == nil:
			b.jobsChanged = true
		case o.State != n.State && !b.lastStarts[n.ID]:
			b.jobsChanged = true
		case o.Eligible != n.Eligible || o.Priority != n.Priority || o.Partition != n.Partition:
			b.jobsChanged = true
		}
	}
}

// Schedule runs the main pass and, when bf_interval has passed since the last backfill pass
// ended, a backfill pass; a pass that yielded goes on first (bf_continue) or ends.
func (b *Backfill) Schedule(_ context.Context, now int64) (scheduler.Plan, error) {
	plan := scheduler.Plan{Seq: b.m.Seq()}
	pending := builtin.Queue(&b.m)
	pool := builtin.PoolOf(&b.m)
	if b.params.SchedInterval != -1 { // sched_interval=-1 turns Slurm's schedule() off
		r := builtin.Main(pending, b.m.Partition, b.m.Nodes(), b.m.Reservations(), now, pool, builtin.MainDepth(b.params, &b.lastFull, now))
		plan.Starts, plan.Reasons = r.Starts, r.Reasons
		plan.Stats.JobsTested = uint32(r.Tested)
		if r.DepthReached {
			plan.Stats.DepthReached = 1
		}
	}
	ps := b.cur
	if ps != nil && (b.partsChanged || (b.jobsChanged && !b.params.BfContinue)) {
		// Slurm's "system state changed, breaking out": the cycle ends and counts as one.
		b.endPass(&plan, ps, now)
		ps = nil
	}
	if ps == nil && b.params.BfInterval != -1 && (b.lastBF < 0 || now-b.lastBF >= int64(b.params.BfInterval)) {
		ps = b.newPass(now, pending)
	}
	if ps != nil {
		seg := b.run(ps, now, plan.Starts)
		plan.Starts = append(plan.Starts, seg.starts...)
		plan.Stats.BackfillStarts = uint32(len(seg.starts))
		plan.Stats.JobsTested += uint32(seg.tested)
		b.resv = ps.resv
		plan.Reasons = slices.DeleteFunc(plan.Reasons, func(r scheduler.PendingReason) bool {
			return slices.ContainsFunc(seg.starts, func(s scheduler.Start) bool { return s.JobID == r.JobID })
		})
		b.cur = ps
		if seg.done {
			b.endPass(&plan, ps, now)
		}
	}
	b.jobsChanged, b.partsChanged = false, false
	b.lastStarts = map[uint32]bool{}
	for _, s := range plan.Starts {
		b.lastStarts[s.JobID] = true
	}
	for _, r := range b.resv {
		if j := b.m.Job(r.JobID); j != nil && j.State == scheduler.JobPending &&
			!slices.ContainsFunc(plan.Starts, func(s scheduler.Start) bool { return s.JobID == r.JobID }) {
			plan.Reservations = append(plan.Reservations, r)
		}
	}
	return plan, nil
}

// endPass ends ps at now and reports it in plan's stats as one backfill cycle.
func (b *Backfill) endPass(plan *scheduler.Plan, ps *pass, now int64) {
	b.cur, b.lastBF = nil, now
	plan.Stats.Backfill = true
	plan.Stats.Depth, plan.Stats.DepthTry = uint32(ps.depth), uint32(ps.tried)
	plan.Stats.TableSize = uint32(ps.tl.table.recs)
	plan.BackfillEvaluated = ps.evaluated
}

// busy is resources held over [start, end): a running job, a start of this cycle or a
// reservation.
type busy struct {
	start, end int64
	alloc      selection.Alloc
	exclusive  bool
	book       selection.Booking // alloc resolved on the pass's pool (timeline.hold)
	base       bool              // starts at the pass's now: booked between jobs
}

// limitSecs is the time backfill plans a job for: its time limit capped by its partition's,
// the partition's when it has none, a year when neither has one.
func limitSecs(j *scheduler.Job, part *scheduler.Partition) int64 {
	lim := j.TimeLimit
	pmax := uint32(scheduler.Infinite)
	if part != nil {
		pmax = part.MaxTime
	}
	switch {
	case lim == scheduler.Infinite || lim == 0:
		lim = pmax
	case pmax != scheduler.Infinite:
		lim = min(lim, pmax)
	}
	if lim == scheduler.Infinite {
		lim = yearMinutes
	}
	return int64(lim) * 60
}

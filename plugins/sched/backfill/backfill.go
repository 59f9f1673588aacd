package backfill

import (
	"context"
	"slices"

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
	lastBF   int64 // last backfill pass (bf_interval); -1 before the first
	resv     []scheduler.Reservation
}

var _ scheduler.Scheduler = (*Backfill)(nil)

// New is sched/backfill for cfg; it fails on a bad SchedulerParameters value.
func New(cfg scheduler.Config) (scheduler.Scheduler, error) {
	p, err := scheduler.ParseParams(cfg.SchedulerParameters)
	if err != nil {
		return nil, err
	}
	return &Backfill{params: p, lastFull: -1, lastBF: -1}, nil
}

// Sync replaces the mirror.
func (b *Backfill) Sync(_ context.Context, s scheduler.State) error {
	b.m.Sync(s)
	return nil
}

// Update applies a delta to the mirror (ErrResync on a gap).
func (b *Backfill) Update(_ context.Context, d scheduler.Delta) error { return b.m.Update(d) }

// Schedule runs the main pass and, when bf_interval has passed, a backfill pass.
func (b *Backfill) Schedule(_ context.Context, now int64) (scheduler.Plan, error) {
	plan := scheduler.Plan{Seq: b.m.Seq()}
	pending := b.m.Pending()
	pool := builtin.PoolOf(&b.m)
	if b.params.SchedInterval != -1 { // sched_interval=-1 turns Slurm's schedule() off
		r := builtin.Main(pending, b.m.Partition, b.m.Nodes(), pool, builtin.MainDepth(b.params, &b.lastFull, now))
		plan.Starts, plan.Reasons = r.Starts, r.Reasons
		plan.Stats.JobsTested = uint32(r.Tested)
		if r.DepthReached {
			plan.Stats.DepthReached = 1
		}
	}
	if b.params.BfInterval != -1 && (b.lastBF < 0 || now-b.lastBF >= int64(b.params.BfInterval)) {
		b.lastBF = now
		starts, resv, tested := b.pass(now, pending, plan.Starts)
		plan.Starts = append(plan.Starts, starts...)
		plan.Stats.BackfillStarts = uint32(len(starts))
		plan.Stats.JobsTested += uint32(tested)
		b.resv = resv
		plan.Reasons = slices.DeleteFunc(plan.Reasons, func(r scheduler.PendingReason) bool {
			return slices.ContainsFunc(starts, func(s scheduler.Start) bool { return s.JobID == r.JobID })
		})
	}
	for _, r := range b.resv {
		if j := b.m.Job(r.JobID); j != nil && j.State == scheduler.JobPending &&
			!slices.ContainsFunc(plan.Starts, func(s scheduler.Start) bool { return s.JobID == r.JobID }) {
			plan.Reservations = append(plan.Reservations, r)
		}
	}
	return plan, nil
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

// pass is one backfill pass at now after the main pass started mainStarts.
func (b *Backfill) pass(now int64, pending []*scheduler.Job, mainStarts []scheduler.Start) ([]scheduler.Start, []scheduler.Reservation, int) {
	p := b.params
	res := int64(p.BfResolution)
	windowEnd := now + int64(p.BfWindow)*60
	cfg := b.m.Config()
	tl := newTimeline(selection.NewPool(selection.ParseMode(cfg.SelectType, cfg.SelectTypeParameters), b.m.Nodes()))
	for _, j := range b.m.Running() {
		end := j.StartTime + limitSecs(j, b.m.Partition(j.Partition))
		if end <= now {
			end = now + res // overran its limit: about to be killed
		}
		tl.hold(busy{start: now, end: end, alloc: selection.Alloc{Nodes: j.Nodes, CPUs: j.CPUs, Mem: j.Mem}, exclusive: j.Exclusive}, now)
	}
	started := map[uint32]bool{}
	for _, s := range mainStarts {
		started[s.JobID] = true
		j := b.m.Job(s.JobID)
		tl.hold(busy{start: now, end: now + limitSecs(j, b.m.Partition(j.Partition)), alloc: selection.Alloc{Nodes: s.Nodes, CPUs: s.CPUs, Mem: s.Mem}, exclusive: j.Exclusive}, now)
	}
	var starts []scheduler.Start
	var resv []scheduler.Reservation
	tested := 0
	perUser := map[uint32]int{}
	capacity := selection.NewCapacity(b.m.Nodes())
	for _, j := range pending {
		if started[j.ID] || !j.Eligible || j.State != scheduler.JobPending {
			continue
		}
		part := b.m.Partition(j.Partition)
		if part == nil || !capacity.FitsEver(j, part) {
			continue
		}
		// bf_max_job_test counts the jobs that reach a node test (Slurm's
		// bf_last_depth_try): jobs past it are not looked at.
		if tested >= p.BfMaxJobTest {
			break
		}
		if p.BfMaxJobUser > 0 && perUser[j.UserID] >= p.BfMaxJobUser {
			continue
		}
		tested++
		perUser[j.UserID]++
		lim := limitSecs(j, part)
		t, a, ok := tl.earliest(j, part, now, windowEnd, lim)
		if !ok {
			continue
		}
		end := t + max(lim, res)
		if t == now {
			if p.BfMaxJobStart > 0 && len(starts) >= p.BfMaxJobStart {
				continue
			}
			starts = append(starts, scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem, Backfilled: true})
			tl.hold(busy{start: now, end: end, alloc: a, exclusive: j.Exclusive}, now)
			continue
		}
		if now-j.EligibleTime < int64(p.BfMinAgeReserve) || j.Priority < uint32(p.BfMinPrioReserve) {
			continue // too young or too low to hold resources for
		}
		resv = append(resv, scheduler.Reservation{JobID: j.ID, StartTime: t, Nodes: a.Nodes})
		tl.hold(busy{start: t, end: end, alloc: a, exclusive: j.Exclusive}, now)
	}
	return starts, resv, tested
}

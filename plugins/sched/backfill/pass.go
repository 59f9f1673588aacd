package backfill

import (
	"cmp"
	"math"
	"time"

	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// pass is one backfill pass (Slurm's _attempt_backfill), kept between Schedule calls while it
// yields: its queue as it was at the start, where it stands in it, and its map of the future.
type pass struct {
	now, windowEnd int64     // the pass's start (controller time) and bf_window's end
	began          time.Time // wall clock at the start: bf_max_time counts from here
	tl             *timeline
	queue          []uint32        // pending jobs in order at the start (job ids)
	next           int             // index in queue of the next job to look at
	held           map[uint32]bool // jobs held in tl: running ones and this pass's starts
	perUser        map[uint32]int  // jobs tested per user (bf_max_job_user)
	nStarts        int             // jobs this pass started (bf_max_job_start)
	resv           []scheduler.Reservation
	evaluated      []uint32 // jobs looked at, in order (Plan.BackfillEvaluated)
	depth, tried   int      // jobs looked at (bf_last_depth) and node-tested (bf_last_depth_try)
	// arrayStarts counts the tasks this pass started of each array record; arrayRunning is
	// each array's tasks running at the start of the pass (for its %N), counted when needed.
	arrayStarts  map[uint32]uint32
	arrayRunning map[uint32]uint32
}

// segment is what one Schedule call's share of a pass decided.
type segment struct {
	starts []scheduler.Start
	tested int
	done   bool // the pass ended (end of queue, a limit, or a state change)
}

// newPass starts a pass at now over the queue in order, holding what runs now.
func (b *Backfill) newPass(now int64, queue []*scheduler.Job) *pass {
	ps := &pass{
		now: now, windowEnd: now + int64(b.params.BfWindow)*60, began: b.clock(),
		tl:   newTimeline(b.newPool()),
		held: map[uint32]bool{}, perUser: map[uint32]int{},
	}
	ps.tl.table = newTable(now, ps.windowEnd, int64(b.params.BfResolution))
	ps.tl.resvs = builtin.NewResvs(b.m.Reservations(), b.m.Nodes(), ps.tl.pool)
	ps.tl.bounds = scheduler.ResvBoundaries(b.m.Reservations(), now)
	for _, j := range queue {
		ps.queue = append(ps.queue, j.ID)
	}
	return ps
}

// newPool is an empty pool of the mirror's nodes that counts its partitions' MaxCPUsPerNode.
func (b *Backfill) newPool() *selection.Pool {
	cfg := b.m.Config()
	p := selection.NewPool(selection.ParseMode(cfg.SelectType, cfg.SelectTypeParameters), b.m.Nodes())
	p.LimitPartitions(b.m.Partitions())
	return p
}

// holdRunning puts into the map every running job and every start of this call's main pass
// that it does not hold yet: at a pass's start, everything running; when a yielded pass
// resumes, what started in between (what ended in between stays held to its expected end,
// the stale but safe view Slurm's map keeps across a yield too).
func (b *Backfill) holdRunning(ps *pass, mainStarts []scheduler.Start) {
	res := int64(b.params.BfResolution)
	for _, j := range b.m.Running() {
		if ps.held[j.ID] {
			continue
		}
		ps.held[j.ID] = true
		end := j.StartTime + limitSecs(j, b.m.Partition(j.Partition))
		if end <= ps.now {
			end = ps.now + res // overran its limit: about to be killed
		}
		ps.tl.hold(busy{start: ps.now, end: end, alloc: ps.tl.pool.JobAlloc(j), exclusive: j.Exclusive}, ps.now)
	}
	for _, s := range mainStarts {
		if ps.held[s.JobID] {
			continue
		}
		ps.held[s.JobID] = true
		j := b.m.Job(s.JobID)
		ps.tl.hold(busy{start: ps.now, end: ps.now + limitSecs(j, b.m.Partition(cmp.Or(s.Partition, j.Partition))), alloc: ps.tl.pool.StartAlloc(j, s), exclusive: j.Exclusive}, ps.now)
	}
}

// run goes on with ps at now (the controller's time of this call) after this call's main
// pass started mainStarts. It stops at the end of the queue, at bf_max_job_test,
// bf_max_job_start or bf_max_time (the pass is done), or when it has worked
// bf_yield_interval in this call: then it yields, and the pass goes on at its next job in a
// later call (Slurm releases its locks there; Orbit returns the plan so far, so the
// controller applies it and serves RPCs meanwhile).
func (b *Backfill) run(ps *pass, now int64, mainStarts []scheduler.Start) segment {
	p := b.params
	res := int64(p.BfResolution)
	b.holdRunning(ps, mainStarts)
	started := map[uint32]bool{}
	for _, s := range mainStarts {
		started[s.JobID] = true
	}
	capacity := selection.NewCapacity(b.m.Nodes())
	maxTime := time.Duration(p.BfMaxTime) * time.Second
	yieldAfter := time.Duration(p.BfYieldInterval) * time.Microsecond
	segStart := b.clock()
	var seg segment
	var one [1]string
	for ; ps.next < len(ps.queue); ps.next++ {
		if ps.tried >= p.BfMaxJobTest {
			seg.done = true // bf_max_job_test counts node tests (bf_last_depth_try)
			return seg
		}
		t := b.clock()
		if t.Sub(ps.began) >= maxTime {
			seg.done = true
			return seg
		}
		if t.Sub(segStart) >= yieldAfter {
			return seg // yield: the job at ps.next is the first of the next call
		}
		// Revalidate: the job may have started, ended or changed since the pass began.
		j := b.m.Job(ps.queue[ps.next])
		if j == nil || started[j.ID] || ps.held[j.ID] || !j.Eligible || j.State != scheduler.JobPending {
			continue
		}
		// The partitions it may use that it could ever fit in: each is tried below, and the
		// job goes where it can start first (the first named on a tie), as Slurm's queue
		// entries of one job, one per partition, would.
		names := j.Partitions
		if len(names) == 0 {
			one[0] = j.Partition // Parts() without allocating
			names = one[:]
		}
		if b.m.Partition(j.Partition) == nil {
			continue
		}
		ps.depth++
		ps.evaluated = append(ps.evaluated, j.ID)
		fits := 0
		for _, name := range names {
			if part := b.m.Partition(name); part != nil && capacity.FitsEver(j, part) {
				fits++
			}
		}
		if fits == 0 {
			continue
		}
		if p.BfMaxJobUser > 0 && ps.perUser[j.UserID] >= p.BfMaxJobUser {
			continue
		}
		ps.tried++
		seg.tested++
		ps.perUser[j.UserID]++
		var (
			part *scheduler.Partition
			lim  int64
			at   int64
			a    selection.Alloc
			ok   bool
		)
		for _, name := range names {
			cand := b.m.Partition(name)
			if cand == nil || !capacity.FitsEver(j, cand) {
				continue
			}
			l := limitSecs(j, cand)
			t, alloc, found := ps.tl.earliest(j, cand, ps.now, ps.windowEnd, l)
			if found && (!ok || t < at) {
				part, lim, at, a, ok = cand, l, t, alloc, true
			}
		}
		if !ok {
			b.startBeyondWindow(ps, j, names)
			continue
		}
		if at <= now { // free now (or freed since the pass began)
			if p.BfMaxJobStart > 0 && ps.nStarts >= p.BfMaxJobStart {
				continue
			}
			ps.nStarts++
			st := scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem, Backfilled: true, Gres: a.Gres}
			if part.Name != j.Partition {
				st.Partition = part.Name
			}
			seg.starts = append(seg.starts, st)
			ps.tl.hold(busy{start: ps.now, end: now + max(lim, res), alloc: a, exclusive: j.Exclusive}, ps.now)
			if b.anotherTask(ps, j) {
				ps.next-- // the record again: its next task, on what is left
			} else {
				ps.held[j.ID] = true
			}
			continue
		}
		if now-j.EligibleTime < int64(p.BfMinAgeReserve) || j.Priority < uint32(p.BfMinPrioReserve) {
			continue // too young or too low to hold resources for
		}
		ps.resv = append(ps.resv, scheduler.Reservation{JobID: j.ID, StartTime: at, Nodes: a.Nodes})
		// Slurm's map books a reservation as whole nodes over its window rounded down to
		// bf_resolution (at least one slot): nothing else may use those nodes meanwhile, and
		// a job reserved behind it may start at the rounded end.
		rs := at / res * res
		ps.tl.hold(busy{start: rs, end: max((at+lim)/res*res, rs+res), alloc: a, exclusive: true}, ps.now)
	}
	seg.done = true
	return seg
}

// anotherTask reports whether array record j may start one more task in this pass after the
// one just started, as Slurm's backfill goes on with an array's next task: it has tasks left
// beyond those this pass started, and its %N allows one more beside those running.
func (b *Backfill) anotherTask(ps *pass, j *scheduler.Job) bool {
	if j.ArrayTasks <= 1 {
		return false
	}
	if ps.arrayStarts == nil {
		ps.arrayStarts = map[uint32]uint32{}
	}
	ps.arrayStarts[j.ID]++
	n := ps.arrayStarts[j.ID]
	if n >= j.ArrayTasks {
		return false
	}
	if j.ArrayThrottle == 0 {
		return true
	}
	if ps.arrayRunning == nil {
		ps.arrayRunning = map[uint32]uint32{}
		for _, r := range b.m.Running() {
			if r.ArrayJobID != 0 {
				ps.arrayRunning[r.ArrayJobID]++
			}
		}
	}
	return ps.arrayRunning[j.ArrayJobID]+n < j.ArrayThrottle
}

// startBeyondWindow gives a job that cannot start within bf_window the time it could start
// once enough of what holds resources has ended, past the window, as Slurm's backfill keeps
// the will-run test's start time for such a job ("StartTime set to time after current
// backfill window"): squeue --start shows it, but nothing is reserved for it (no nodes).
func (b *Backfill) startBeyondWindow(ps *pass, j *scheduler.Job, names []string) {
	p := b.params
	if ps.now-j.EligibleTime < int64(p.BfMinAgeReserve) || j.Priority < uint32(p.BfMinPrioReserve) {
		return
	}
	var at int64
	for _, name := range names {
		cand := b.m.Partition(name)
		if cand == nil {
			continue
		}
		if t, _, found := ps.tl.earliest(j, cand, ps.now, math.MaxInt64, limitSecs(j, cand)); found && (at == 0 || t < at) {
			at = t
		}
	}
	if at > ps.windowEnd {
		ps.resv = append(ps.resv, scheduler.Reservation{JobID: j.ID, StartTime: at})
	}
}

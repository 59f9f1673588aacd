package backfill

import (
	"cmp"
	"slices"

	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// timeline is the backfill pass's map of the future (Slurm's node_space): everything held
// (running jobs to their expected end, this pass's starts, its reservations), kept sorted by
// start and by end for the whole pass, over one pool.
//
// Between jobs the pool holds what holds now (running jobs and this pass's starts: the
// base); reservations start later. Testing a job walks the times something ends from now,
// releasing what has ended and booking the reservations the job's window reaches, and puts
// back what it touched afterwards. A selection.Tally watching the pool says at which times
// the job may fit, so a job costs the time slots it touches (and the nodes of the holds
// that change there) plus one node selection where it may fit — not a scan of every node
// at every time, nor a rebuild of every running job per job.
type timeline struct {
	pool    *selection.Pool
	held    []busy
	byStart []int // indices into held, by start; the base holds first
	byEnd   []int // indices into held, by end
	nbase   int   // holds that start at the pass's now
	state   []uint8
	touched []int  // holds whose state the current walk changed
	table   *table // Slurm's record count for sdiag; nil: not counted
	// resvs are the advance reservations (nil: none considered) and bounds the times after
	// the pass's start at which one starts or ends, sorted (scheduler.ResvBoundaries).
	resvs  *builtin.Resvs
	bounds []int64
}

// The states of a hold during one earliest walk.
const (
	waiting = iota // not yet reached by the window
	booked         // in the pool
	over           // ended before the window
)

func newTimeline(empty *selection.Pool) *timeline { return &timeline{pool: empty} }

// hold adds h, keeping both orders; a hold that starts at now (or before) is booked at once.
func (tl *timeline) hold(h busy, now int64) {
	i := len(tl.held)
	if tl.table != nil && (h.start > now || h.exclusive) {
		tl.table.add(h.start, h.end) // what Slurm's map holds: reservations, whole nodes
	}
	h.book = tl.pool.Resolve(h.alloc, h.exclusive)
	st := uint8(waiting)
	if h.start <= now {
		h.start, h.base = now, true
		st = booked
		tl.pool.TakeBooking(h.book)
		tl.nbase++
	}
	tl.held = append(tl.held, h)
	tl.state = append(tl.state, st)
	at, _ := slices.BinarySearchFunc(tl.byStart, h.start, func(k int, t int64) int { return cmp.Compare(tl.held[k].start, t) })
	tl.byStart = slices.Insert(tl.byStart, at, i)
	at, _ = slices.BinarySearchFunc(tl.byEnd, h.end, func(k int, t int64) int { return cmp.Compare(tl.held[k].end, t) })
	tl.byEnd = slices.Insert(tl.byEnd, at, i)
}

// earliest is the first time in [now, windowEnd] at which j fits for lim seconds beside
// everything held, and where. The times tried are now and every end of something held
// (rounding them to bf_resolution would push reservations later and let lower-priority
// jobs delay the true earliest start). At a time t the pool holds what overlaps [t, t+lim).
//
// A job the advance reservations apply to (builtin.Resvs) also tries every time one starts
// or ends: at t it may not use the nodes they keep from a run starting at t (the tally is
// started again when those change), nor start before its own reservation does or once it
// has ended. Other jobs pay nothing for them.
func (tl *timeline) earliest(j *scheduler.Job, part *scheduler.Partition, now, windowEnd, lim int64) (int64, selection.Alloc, bool) {
	pool, held := tl.pool, tl.held
	fenced := tl.resvs != nil && tl.resvs.Applies(j)
	var tally *selection.Tally
	var barred []bool // the nodes tally was started without
	if !fenced {
		tally = pool.Watch(j, part)
	}
	defer tl.reset()
	next, gone, bound := tl.nbase, 0, 0 // the base holds are booked already
	t := now
	for {
		for ; gone < len(tl.byEnd) && held[tl.byEnd[gone]].end <= t; gone++ {
			i := tl.byEnd[gone]
			if tl.state[i] == booked {
				pool.ReleaseBooking(held[i].book)
			}
			tl.state[i] = over
			tl.touched = append(tl.touched, i)
		}
		for ; next < len(tl.byStart) && held[tl.byStart[next]].start < t+lim; next++ {
			if i := tl.byStart[next]; tl.state[i] == waiting {
				pool.TakeBooking(held[i].book)
				tl.state[i] = booked
				tl.touched = append(tl.touched, i)
			}
		}
		may := true
		if fenced {
			v := tl.resvs.At(j, part, t)
			switch {
			case v.Gone:
				return 0, selection.Alloc{}, false
			case v.NotYet:
				may = false // its reservation's start is among the bounds
			case tally == nil || !sameMask(v.Barred, barred):
				pool.Unwatch()
				barred = v.Barred
				pool.Bar(barred)
				pool.Prefer(v.Prefer)
				tally = pool.Watch(j, part)
			}
		}
		if may && tally.MayFit() {
			if a, ok := pool.Select(j, part); ok {
				return t, a, true
			}
		}
		// The next time: the next end after t (every end up to t was just passed), or for
		// a job the reservations apply to the next reservation bound if sooner.
		nt, found := int64(0), gone < len(tl.byEnd)
		if found {
			nt = held[tl.byEnd[gone]].end
		}
		if fenced {
			for bound < len(tl.bounds) && tl.bounds[bound] <= t {
				bound++
			}
			if bound < len(tl.bounds) && (!found || tl.bounds[bound] < nt) {
				nt, found = tl.bounds[bound], true
			}
		}
		if !found || nt > windowEnd {
			return 0, selection.Alloc{}, false
		}
		t = nt
	}
}

// sameMask says whether a and b are the same mask (builtin.Resvs shares one per set of
// reservations).
func sameMask(a, b []bool) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// reset puts the pool back to the base: holds of the base booked, reservations not.
func (tl *timeline) reset() {
	tl.pool.Unwatch()
	tl.pool.Bar(nil)
	tl.pool.Prefer(nil)
	for _, i := range tl.touched {
		h := &tl.held[i]
		switch {
		case h.base && tl.state[i] != booked:
			tl.pool.TakeBooking(h.book)
			tl.state[i] = booked
		case !h.base && tl.state[i] == booked:
			tl.pool.ReleaseBooking(h.book)
			tl.state[i] = waiting
		case !h.base:
			tl.state[i] = waiting
		}
	}
	tl.touched = tl.touched[:0]
}

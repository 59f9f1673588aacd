package ctld

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
)

// schedLoop runs a scheduling cycle when woken and every SchedInterval: the scheduler
// plugin plans, the controller verifies and applies. It paces the cycles as Slurm's
// SchedulerParameters say (sched_params.go):
//
//   - wake (a completion, cancel, node or partition change: something that may let a job
//     start) runs a cycle sched_min_interval after the last one ended (Slurm's default is
//     2 µs: at once), however many wakes came meanwhile;
//   - wakeBatch (a batch submit) may wait up to batch_sched_delay after the last
//     submit-driven cycle started: with defer the whole delay, else ten times as long as the
//     last cycle took. A lone submit on a quiet cluster is scheduled at once; a burst of
//     submits costs a bounded number of cycles and leaves the state lock to the submitters.
func (c *Controller) schedLoop() {
	defer c.wg.Done()
	tick := time.NewTicker(c.interval)
	defer tick.Stop()
	var (
		urgent, batch bool          // wakes not served yet
		woken         bool          // one of them came from an event, not the timer
		lastEnd       time.Time     // when the last cycle ended
		lastBatch     time.Time     // when the last cycle serving batch submits started
		lastTook      time.Duration // how long the last cycle took
		timer         *time.Timer
		timerC        <-chan time.Time
		stopTimer     = func() {
			if timer != nil {
				timer.Stop()
				timer, timerC = nil, nil
			}
		}
	)
	defer stopTimer()
	for {
		if urgent || batch {
			pace := c.schedPace() // reconfigure may change it (reconfigure.go)
			due := lastEnd.Add(pace.minInterval)
			if !urgent {
				due = later(due, lastBatch.Add(pace.batchWait(lastTook)))
			}
			if wait := time.Until(due); wait > 0 {
				stopTimer()
				timer = time.NewTimer(wait)
				timerC = timer.C
			} else {
				stopTimer()
				start := time.Now()
				if batch {
					lastBatch = start
				}
				urgent, batch = false, false
				c.plug.woken, woken = woken, false
				served := c.cycles.begin()
				c.recalcPriorities()
				c.stats.cycle(c, c.planCycle) // the plugin's plan, verified (sched_cycle.go); sdiag's statistics
				c.cycles.end(served)
				lastEnd = time.Now()
				lastTook = lastEnd.Sub(start)
				continue
			}
		}
		select {
		case <-c.ctx.Done():
			return
		case <-c.kick:
			urgent, woken = true, true
		case <-c.batchKick:
			batch, woken = true, true
		case <-tick.C:
			urgent = true
		case <-timerC:
			timer, timerC = nil, nil
		}
	}
}

// cycleWaiters lets a handler wait for the end of the next scheduling cycle, one that
// starts after it asked: an srun or salloc allocation is answered once the cycle that can
// start it has run (Slurm's allocate RPC starts the job itself when resources are free), so
// the command finds it running on its first look instead of polling on a timer.
type cycleWaiters struct {
	mu   sync.Mutex
	next chan struct{} // closed at the end of the next cycle to start; nil: nobody waits
}

// nextEnd returns a channel closed when a cycle that starts after this call has ended.
func (w *cycleWaiters) nextEnd() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.next == nil {
		w.next = make(chan struct{})
	}
	return w.next
}

// begin marks the start of a cycle: it takes the waiters registered before it.
func (w *cycleWaiters) begin() chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := w.next
	w.next = nil
	return ch
}

// end releases the waiters begin took.
func (w *cycleWaiters) end(ch chan struct{}) {
	if ch != nil {
		close(ch)
	}
}

// wakeCycle wakes the scheduler and returns a channel closed at the end of a cycle that
// starts after the call: by then a job submitted before the call has been considered and,
// when it started, its start is durable (launchStarted).
func (c *Controller) wakeCycle() <-chan struct{} {
	done := c.cycles.nextEnd()
	c.wake()
	return done
}

// awaitCycle waits for done (wakeCycle) at most max, and while ctx lasts.
func (c *Controller) awaitCycle(ctx context.Context, done <-chan struct{}, max time.Duration) {
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	case <-ctx.Done():
	case <-c.ctx.Done():
	}
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// started is a job a pass started, with the commit that makes its RUNNING state durable.
type started struct {
	jobID uint32
	p     *store.Pending
}

// eligibility is the controller's own verdict on pending job j, whoever schedules: the
// reason it cannot start now whatever the resources (held, begin time, dependency, array
// throttle, partition down or limits), or WaitNoReason when only resources and order keep it
// pending. invalidDep reports a --kill-on-invalid-dep job whose dependency failed (the caller
// cancels it outside the lock). For a job submitted to several partitions, parts is those it
// may start in now, in the order Slurm tries them (nil for a job of one partition); it is
// eligible when there is one, and otherwise shows the reason of the first. Called with c.mu
// held.
func (c *Controller) eligibility(j *jobRecord, now int64, running *inUse) (reason states.Reason, invalidDep bool, parts []string) {
	part := c.t.parts[j.Partition]
	reason = states.WaitNoReason
	dep, _ := c.t.dependency(j, now) // job_depend.go
	switch {
	case part == nil:
		reason = states.WaitPartDown
	case j.Priority == 0 && states.Reason(j.Reason) == states.FailBadConstraints:
		reason = states.FailBadConstraints // parked by the scheduler (planCycle), not held
	case j.Priority == 0:
		reason = heldReason(j)
	case dep != states.WaitNoReason:
		// Before the begin time, as Slurm's job_independent tests them.
		reason = dep
		invalidDep = dep == states.WaitDepInvalid && c.killInvalidDep(j)
	case j.EligibleTime > now:
		reason = states.WaitTime
	case j.throttled(running.tasks):
		reason = states.WaitArrayTaskLimit
	default:
		reason = c.t.resvReason(j, now) // resv_jobs.go
	}
	if reason != states.WaitNoReason {
		return reason, invalidDep, nil
	}
	names := c.t.jobParts(j)
	if names == nil {
		if r := c.partReason(j, part, now); r != states.WaitNoReason {
			return r, false, nil
		}
		return running.licenseReason(j), false, nil // licenses.go
	}
	first := states.WaitNoReason
	for i, name := range names {
		p := c.t.parts[name]
		r := states.WaitPartDown // gone with a reconfigure
		if p != nil {
			r = c.partReason(j, p, now)
		}
		if r == states.WaitNoReason {
			parts = append(parts, name)
		} else if i == 0 {
			first = r
		}
	}
	if len(parts) == 0 {
		return first, false, nil
	}
	if r := running.licenseReason(j); r != states.WaitNoReason {
		return r, false, nil
	}
	return states.WaitNoReason, false, parts
}

// partReason is why pending job j cannot start in partition p whatever the resources: its
// access and limits (part_access.go), p down or inactive, its memory over p's limit, memory
// or --tmp no node of p has, or a request p could never hold;
// WaitNoReason when none of these.
func (c *Controller) partReason(j *jobRecord, p *partEntry, now int64) states.Reason {
	if r := c.partLimitReason(j, p, time.Unix(now, 0)); r != states.WaitNoReason {
		return r
	}
	switch {
	case strings.EqualFold(p.conf.State, "DOWN"): // a DRAIN partition still runs its pending jobs
		return states.WaitPartDown
	case strings.EqualFold(p.conf.State, "INACTIVE"):
		return states.WaitPartInactive
	case !c.memFits(j, p): // job_memory.go
		return states.WaitPnMemLimit
	case c.t.memUnholdable(j, p) || c.t.tmpUnholdable(j.descUint(descTmpDisk), p) || // job_limits.go
		j.minCPUsPerNode() > p.maxNodeCPUs:
		return states.FailBadConstraints // a held job accepted so (newJob), then released
	case !c.t.fitsEver(j, p):
		return states.WaitPartConfig
	}
	return states.WaitNoReason
}

// jobParts is the partitions pending job j was submitted to when it names several, in the
// order Slurm tries them (higher PriorityTier first, then as named); nil for one.
func (t *tables) jobParts(j *jobRecord) []string {
	if !strings.Contains(j.descStr(descPartition), ",") {
		return nil
	}
	var names []string
	for _, n := range strings.Split(j.descStr(descPartition), ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	tier := func(n string) uint16 {
		if p := t.parts[n]; p != nil {
			return p.conf.PriorityTier
		}
		return 0
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(tier(b), tier(a)) })
	return names
}

// launchStarted waits for each start of a pass to be durable, then launches the job (or its
// PrologSlurmctld). A start that did not become durable is never launched.
func (c *Controller) launchStarted(starts []started) {
	for _, s := range starts {
		if err := s.p.Wait(c.ctx); err != nil {
			c.log.Error("job start not durable; not launched", "job", s.jobID, "err", err)
			continue
		}
		c.mu.RLock()
		j := c.t.jobs[s.jobID]
		c.mu.RUnlock()
		if j == nil {
			continue
		}
		c.log.Info("job started", "job", s.jobID, "nodes", j.Nodes)
		if c.startPrologSlurmctld(s.jobID) { // prolog_slurmctld.go: it launches the job
			continue
		}
		c.send(agentTask{kind: taskLaunch, jobID: s.jobID, node: j.batchHost()})
	}
}

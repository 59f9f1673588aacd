package ctld

import (
	"errors"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// schedPlugin is the scheduler plugin and the controller's record of what it was last sent.
// Only the scheduling loop touches it, except resv (read by job info under c.mu).
type schedPlugin struct {
	sched  scheduler.Scheduler
	seq    uint64
	synced bool
	sent   sentState
	// resv are the plan's expected starts of pending jobs (squeue --start), guarded by c.mu.
	resv map[uint32]scheduler.Reservation
	// descs are the plan's reason texts of pending jobs (Slurm's state_desc, shown in place
	// of the reason's name while the job keeps that reason), guarded by c.mu.
	descs map[uint32]string
	// woken says the cycle about to run was asked for by an event, not the timer (schedLoop).
	woken bool
	// eval is when the schedulers last looked at pending jobs (sched_eval.go), guarded by c.mu.
	eval schedEval
}

// close closes a plugin that is an io.Closer (the plugin host kills its process).
func (p *schedPlugin) close(log *slog.Logger) {
	if cl, ok := p.sched.(io.Closer); ok {
		if err := cl.Close(); err != nil {
			log.Error("closing the scheduler plugin", "err", err)
		}
	}
}

// planCycle is one scheduling cycle run by a plugin (DESIGN.md §6):
//
//  1. under the read lock (queries go on; only writers wait), the controller decides
//     eligibility once per pending job and its own pending reasons (held, begin time,
//     dependency, partition, array throttle; sched_loop.go's eligibility), and builds the
//     plugin's view; then, under the write lock for as many records as changed, it installs
//     the new reasons of records nobody changed meanwhile;
//  2. without the lock, it sends the plugin that delta (a full Sync when the plugin is new,
//     restarted or asks for one) and asks for a plan;
//  3. under the lock again, every start is verified against the tables as they are now
//     (sched_verify.go) and applied through the one start path (startChange, apply); refused
//     entries are logged and dropped. Reasons and reservations are kept in memory.
//
// A plugin that fails or misses its deadline makes no plan this cycle: jobs wait with their
// reasons, and the next cycle resyncs (the host restarts a dead plugin). A cycle with no
// pending job still calls it: a plan may expand or shrink running jobs, and a dead plugin
// is noticed and restarted.
func (c *Controller) planCycle() {
	now := c.now().Unix()
	preempting := c.config().PreemptByPartition()
	if preempting {
		c.resumeSuspended(now) // preempt.go
	}
	c.mu.RLock()
	running := c.inUse()
	elig := map[uint32]states.Reason{}
	cands := map[uint32][]string{} // jobs of several partitions: where each may start
	var invalid []uint32
	var ended []endJob // pending jobs past their deadline (job_deadline.go)
	var reasons []reasonChange
	// CompleteWait: while a job that ended less than that many seconds ago is still
	// completing, Slurm schedules nothing (job_is_completing); until is when that ends.
	var until int64
	completeWait := int64(c.config().CompleteWait)
	for _, j := range c.t.liveJobs() {
		if completeWait > 0 && j.state().IsCompleting() && j.EndTime >= now-completeWait {
			until = max(until, j.EndTime+completeWait)
		}
		if !j.state().IsPending() || j.state().IsCompleting() {
			continue
		}
		reason, inval, parts := c.eligibility(j, now, running)
		if parts != nil {
			cands[j.JobID] = parts
		}
		if inval {
			invalid = append(invalid, j.JobID)
		}
		if reason == states.WaitNoReason && j.deadlineMissed(now) {
			ended = append(ended, deadlineEnd(j.JobID, now))
			reason = states.FailDeadline // not offered to the plugin
		}
		elig[j.JobID] = reason
		badNow := reason == states.FailBadConstraints && j.Priority != 0
		if reason != states.WaitNoReason && j.Reason != uint32(reason) || badNow {
			n := j.clone()
			n.Reason = uint32(reason)
			if badNow {
				// A job that can never run here: Slurm's scheduler parks it as held (priority
				// 0, the reason kept) with its start at now, until released.
				n.Priority, n.StartTime = 0, now
			}
			reasons = append(reasons, reasonChange{old: j, rec: n})
		}
	}
	cur := c.snapshot(elig, cands, reasons, now)
	c.mu.RUnlock()
	if len(reasons) > 0 {
		c.mu.Lock()
		for _, r := range reasons {
			// memory only: reasons are recomputed every cycle. A record changed since it
			// was judged keeps its own (the next cycle judges it again).
			if c.t.jobs[r.rec.JobID] == r.old {
				c.t.jobs[r.rec.JobID] = r.rec
			}
		}
		c.mu.Unlock()
	}
	if len(invalid) > 0 {
		c.cancelInvalidDeps(invalid, now)
	}
	if len(ended) > 0 {
		c.endPending(ended, "jobs ended: deadline can no longer be met")
	}

	if until > 0 {
		c.log.Debug("scheduling deferred: a job is still completing (CompleteWait)", "until", until)
		time.AfterFunc(time.Duration(until-now+1)*time.Second, c.wake)
		return
	}
	asked := bfMark()
	plan, ok := c.askPlan(cur, now)
	if !ok {
		return
	}
	c.bfCycle(plan, bfQueue(elig), now, asked) // sdiag's backfill section (stats_backfill.go)

	c.mu.Lock()
	starts, more := c.applyPlan(plan, cur, now)
	c.plug.eval.note(plan, now, c.plug.woken, c.pace.fullInterval)
	var preempted *preemptOutcome
	if preempting {
		preempted = c.preemptPass(cur, now) // preempt.go
	}
	c.mu.Unlock()
	if more {
		c.wake() // an array started a task and has more pending: the next one next cycle
	}
	c.launchStarted(starts)
	c.carryOut(preempted)
}

// askPlan brings the plugin up to date with cur and asks it for a plan: in one call when
// it is synced (scheduler.UpdateAndSchedule), else after a full Sync. It reports false when
// there is no plan this cycle (the plugin failed; it is logged).
func (c *Controller) askPlan(cur sentState, now int64) (scheduler.Plan, bool) {
	p := &c.plug
	ctx := c.ctx
	if p.synced && !c.reconf.resync.Swap(false) {
		p.seq++
		plan, err := scheduler.UpdateAndSchedule(ctx, p.sched, p.sent.delta(cur, p.seq, now), now)
		if err == nil {
			p.sent = cur
			return plan, true
		}
		if !errors.Is(err, scheduler.ErrResync) {
			// Whether the delta was taken is unknown: the next cycle resyncs.
			p.synced = false
			c.log.Warn("scheduler plugin made no plan; jobs wait", "err", err)
			return scheduler.Plan{}, false
		}
		// The plugin's mirror cannot take the delta (or it is a new process): the whole
		// state, then the plan.
	}
	p.seq++
	if err := p.sched.Sync(ctx, cur.state(c.schedConfig(), p.seq, now)); err != nil {
		p.synced = false
		c.log.Warn("scheduler plugin not updated; no plan this cycle", "err", err)
		return scheduler.Plan{}, false
	}
	p.synced, p.sent = true, cur
	plan, err := p.sched.Schedule(ctx, now)
	if err != nil {
		// A resync is due whatever happened: the plugin may be a new process.
		p.synced = false
		if !errors.Is(err, scheduler.ErrResync) {
			c.log.Warn("scheduler plugin made no plan; jobs wait", "err", err)
		}
		return scheduler.Plan{}, false
	}
	return plan, true
}

// schedConfig is the part of slurm.conf a plugin reads.
func (c *Controller) schedConfig() scheduler.Config {
	return scheduler.Config{
		SchedulerType:        c.config().SchedulerType,
		SchedulerParameters:  c.config().SchedulerParameters,
		SelectType:           c.config().SelectType,
		SelectTypeParameters: c.config().CtldSelectTypeParameters(),
		PriorityType:         c.config().PriorityType,
	}
}

// reasonChange is a pending job's record with the controller's new reason (rec), made from
// the record judged (old).
type reasonChange struct{ old, rec *jobRecord }

// applyPlan verifies and applies the plan's starts in order, then its pending reasons and
// reservations. cur is what the plan was made from: the verdicts of its pending jobs whose
// records did not change since are reused, not recomputed. Called with c.mu held.
func (c *Controller) applyPlan(plan scheduler.Plan, cur sentState, now int64) (starts []started, more bool) {
	done := map[uint32]bool{} // jobs this plan already started: at most once each (an array's record once per task)
	running := c.inUse()
	for _, s := range plan.Starts {
		j, a, err := c.verifyStart(s, now, running, done)
		if err != nil {
			c.log.Warn("scheduler plan entry refused", "job", s.JobID, "nodes", s.Nodes, "why", err.Error())
			continue
		}
		if !j.isArrayRecord() || len(j.ArrayPending) == 1 {
			// An array's record with tasks left stays pending: the plan may start its next
			// task too (scheduler.Job.ArrayTasks).
			done[s.JobID] = true
		}
		ch, id := c.startChange(j, a, now, s.Backfilled) // an array task is split off (job_array.go)
		pend, err := c.apply(ch)
		if err != nil {
			c.log.Error("cannot start job", "job", j.JobID, "err", err)
			continue
		}
		starts = append(starts, started{jobID: id, p: pend})
		if s.Backfilled {
			c.bfStarted() // stats_backfill.go
		}
		running.add(j)
		if j.ArrayJobID != 0 {
			more = more || len(j.ArrayPending) > 1
		}
	}
	// Pending reasons of eligible jobs are the plugin's; a reject is shown as its reason too
	// (the job stays pending, as Slurm leaves a job it cannot schedule). An eligible job the
	// plan says nothing about loses a stale controller reason (a begin time that passed).
	given := map[uint32]uint32{}
	descs := map[uint32]string{}
	for _, r := range plan.Reasons {
		given[r.JobID] = r.Reason
		delete(descs, r.JobID) // the last reason given wins, with its text or without
		if want, ok := states.SchedulerDescReason(r.Desc); ok && uint32(want) == r.Reason {
			descs[r.JobID] = r.Desc
		}
	}
	for _, r := range plan.Rejects {
		given[r.JobID] = r.Reason
	}
	// Only the jobs the plan was made from: a job submitted since keeps its submit reason
	// until the next cycle judges it.
	for _, sent := range cur.jobs {
		id := sent.rec.JobID
		j := c.t.jobs[id]
		if j == nil || done[id] || !j.state().IsPending() || j.state().IsCompleting() {
			continue
		}
		e := sent.reason
		if sent.rec != j {
			e, _, _ = c.eligibility(j, now, running) // changed meanwhile: judged again
		} else if e == states.WaitNoReason {
			// The jobs this plan started may have taken the licenses it needs.
			if e = running.licenseReason(j); e != states.WaitNoReason && j.Reason != uint32(e) {
				n := j.clone()
				n.Reason = uint32(e)
				c.t.jobs[id] = n // memory only
			}
		}
		if e != states.WaitNoReason {
			continue // the controller's own reason wins
		}
		reason, ok := given[id]
		if !ok || !validReason(reason) {
			if !staleReason(states.Reason(j.Reason)) {
				continue
			}
			reason = uint32(states.WaitNoReason)
		}
		if j.Reason != reason {
			n := j.clone()
			n.Reason = reason
			c.t.jobs[id] = n // memory only
		}
	}
	if len(plan.Resizes) > 0 {
		c.log.Warn("scheduler plan resizes ignored: no malleable jobs yet", "resizes", len(plan.Resizes))
	}
	resv := make(map[uint32]scheduler.Reservation, len(plan.Reservations))
	for _, r := range plan.Reservations {
		if j := c.t.jobs[r.JobID]; j != nil && j.state().IsPending() && !done[r.JobID] {
			resv[r.JobID] = r
		}
	}
	c.plug.resv = resv
	for id := range descs {
		if j := c.t.jobs[id]; j == nil || done[id] || j.Reason != given[id] {
			delete(descs, id) // started, or the controller's own reason won
		}
	}
	c.plug.descs = descs
	return starts, more
}

// staleReason says whether r is a reason only the controller gives (eligibility), which no
// longer holds once the job is eligible.
func staleReason(r states.Reason) bool {
	switch r {
	case states.WaitNoReason, states.WaitResources, states.WaitPriority:
		return false
	}
	return true
}

// validReason says whether r is a pending reason Orbit knows (a plugin cannot make squeue
// print garbage).
func validReason(r uint32) bool {
	name := states.Reason(r).String()
	return name != "" && name != strconv.FormatUint(uint64(r), 10)
}

// expectedStart is a pending job's expected start from the last plan (squeue --start,
// scontrol's StartTime), or false when the plan gave none. Called with c.mu held.
func (c *Controller) expectedStart(jobID uint32) (start int64, nodes []string, ok bool) {
	r, ok := c.plug.resv[jobID]
	if !ok {
		return 0, nil, false
	}
	return r.StartTime, r.Nodes, true
}

package ctld

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// schedLoop runs a scheduler pass when woken (submit, completion, cancel, node change) and
// every SchedInterval.
func (c *Controller) schedLoop() {
	defer c.wg.Done()
	tick := time.NewTicker(c.interval)
	defer tick.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.kick:
		case <-tick.C:
		}
		c.stats.cycle(c, c.schedule) // stats.go: sdiag's main schedule statistics
	}
}

// started is a job a pass started, with the commit that makes its RUNNING state durable.
type started struct {
	jobID uint32
	p     *store.Pending
}

// schedule is one FIFO pass, as Slurm's builtin scheduler: pending jobs in priority order
// (then submit time, then id); each job that can start now starts; the first job of a
// partition that cannot start for lack of resources gets reason Resources and every later
// job of that partition reason Priority, so nothing overtakes it. Jobs that cannot start for
// reasons of their own (held, begin time, partition limits) are skipped with their reason.
//
// Pending reasons are scheduler output and are set in memory only (they are recomputed after
// a restart); a start goes through apply and is durable before its launch is sent.
func (c *Controller) schedule() {
	now := c.now().Unix()
	c.mu.Lock()
	var pend []*jobRecord
	for _, j := range c.t.jobs {
		if j.state().IsPending() && !j.state().IsCompleting() { // a requeued job first completes
			pend = append(pend, j)
		}
	}
	slices.SortFunc(pend, func(a, b *jobRecord) int {
		if a.Priority != b.Priority {
			return cmp.Compare(b.Priority, a.Priority)
		}
		if a.SubmitTime != b.SubmitTime {
			return cmp.Compare(a.SubmitTime, b.SubmitTime)
		}
		return cmp.Compare(a.JobID, b.JobID)
	})
	blocked := map[string]bool{}
	var starts []started
	running := c.t.runningTasks() // array tasks holding nodes, for %N (job_array.go)
	var invalid []uint32          // --kill-on-invalid-dep jobs whose dependency failed
	more := false                 // an array started a task and has more pending
	for _, j := range pend {
		part := c.t.parts[j.Partition]
		reason := states.WaitNoReason
		dep, _ := c.t.dependency(j, now) // job_depend.go
		switch {
		case part == nil:
			reason = states.WaitPartDown
		case j.Priority == 0:
			reason = heldReason(j)
		case j.EligibleTime > now:
			reason = states.WaitTime
		case dep != states.WaitNoReason:
			reason = dep
			if dep == states.WaitDepInvalid && c.killInvalidDep(j) {
				invalid = append(invalid, j.JobID)
			}
		case j.throttled(running):
			reason = states.WaitArrayTaskLimit
		case !strings.EqualFold(part.conf.State, "UP") && part.conf.State != "":
			reason = states.WaitPartDown
			if strings.EqualFold(part.conf.State, "INACTIVE") {
				reason = states.WaitPartInactive
			}
		case j.TimeLimit != wire.Infinite && part.conf.MaxTime != wire.Infinite && j.TimeLimit > part.conf.MaxTime:
			reason = states.WaitPartTimeLimit
		case part.conf.MaxNodes != wire.Infinite && j.MinNodes > part.conf.MaxNodes,
			j.MinNodes < part.conf.MinNodes,
			j.MinNodes > uint32(len(part.nodes)): // Slurm checks the partition's node count with its limits
			reason = states.WaitPartNodeLimit
		case !c.t.fitsEver(j, part):
			reason = states.WaitPartConfig
		case blocked[j.Partition]:
			reason = states.WaitPriority
		default:
			a, ok := c.t.selectNodes(j, part, c.trackMem)
			if !ok {
				reason = states.WaitResources
				blocked[j.Partition] = true
				break
			}
			ch, id := c.startChange(j, a, now) // an array task is split off (job_array.go)
			p, err := c.apply(ch)
			if err != nil {
				c.log.Error("cannot start job", "job", j.JobID, "err", err)
				blocked[j.Partition] = true
				continue
			}
			starts = append(starts, started{jobID: id, p: p})
			if j.ArrayJobID != 0 {
				running[j.ArrayJobID]++
				more = more || len(j.ArrayPending) > 1
			}
			continue
		}
		if j.Reason != uint32(reason) {
			n := j.clone()
			n.Reason = uint32(reason)
			c.t.jobs[j.JobID] = n // memory only: same allocation (none), so no accounting moves
		}
	}
	c.mu.Unlock()
	if len(invalid) > 0 {
		c.cancelInvalidDeps(invalid, now)
	}
	if more {
		c.wake() // the array's next task is tried in the next pass
	}
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

package ctld

import (
	"sync"

	"github.com/orbit-hpc/orbit/compat/states"
)

// InactiveLimit (Slurm's inactivity check in job_time_limit): an interactive allocation
// (srun's or salloc's, not a batch job) whose client the controller has not heard from for
// InactiveLimit seconds ends TIMEOUT with reason InactiveLimit and its steps are killed,
// unless its partition is RootOnly. srun and salloc ask for their allocation's state at
// least every third of InactiveLimit while they hold it (MsgJobAllocInfo); Slurm's
// controller pings them instead, with the same outcome for a client that is gone or
// stopped. An allocation counts as heard from when the controller first sees it running,
// so a restarted controller gives every client a whole InactiveLimit.

// allocActivity is when each running interactive allocation's client was last heard from.
// It is not durable state: a restart starts every clock afresh.
type allocActivity struct {
	mu   sync.Mutex
	last map[uint32]int64
	// resent is when a terminate last went again to a COMPLETING interactive job's nodes
	// (reterminateCompleting).
	resent map[uint32]int64
}

// heardFrom records that job's client spoke now.
func (a *allocActivity) heardFrom(job uint32, now int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		a.last = map[uint32]int64{}
	}
	a.last[job] = now
}

// inactiveJobs lists the running interactive allocations not heard from for limit seconds,
// and forgets the jobs no longer running (called with c.mu held).
func (c *Controller) inactiveJobs(now, limit int64) []*jobRecord {
	a := &c.heard
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		a.last = map[uint32]int64{}
	}
	var out []*jobRecord
	seen := make(map[uint32]bool, len(a.last))
	for _, j := range c.t.liveJobs() {
		if !j.state().IsRunning() || !j.isInteractive() {
			continue
		}
		if p := c.t.parts[j.Partition]; p != nil && p.conf.RootOnly {
			continue
		}
		seen[j.JobID] = true
		last, ok := a.last[j.JobID]
		if !ok {
			a.last[j.JobID] = now
			continue
		}
		if last <= now-limit {
			out = append(out, j)
		}
	}
	for id := range a.last {
		if !seen[id] {
			delete(a.last, id)
		}
	}
	return out
}

// reterminateEvery is how often (seconds) a terminate goes again to the nodes of an
// interactive job still COMPLETING.
const reterminateEvery = 10

// reterminateCompleting sends a terminate again to the nodes of each interactive job still
// COMPLETING KillWait plus 5 seconds after it ended (cancelled, timed out, inactive), then
// every reterminateEvery seconds: its srun or salloc, which releases it once its steps are
// gone, may be gone itself (killed, or why InactiveLimit ended it). A node that no longer
// runs the job refuses the terminate, which ends the COMPLETING (doTerminate), as Slurm's
// repeated REQUEST_TERMINATE_JOB and the nodes' epilog reports do.
func (c *Controller) reterminateCompleting() {
	now := c.now().Unix()
	wait := int64(c.config().KillWait) + 5
	type resend struct {
		t     agentTask
		nodes []string
	}
	var todo []resend
	c.mu.RLock()
	a := &c.heard
	a.mu.Lock()
	for _, j := range c.t.liveJobs() {
		s := j.state()
		if !s.IsCompleting() || s.IsPending() || !j.isInteractive() || len(j.Nodes) == 0 || j.EndTime > now-wait {
			continue
		}
		if a.resent == nil {
			a.resent = map[uint32]int64{}
		}
		if last, ok := a.resent[j.JobID]; ok && last > now-reterminateEvery {
			continue
		}
		a.resent[j.JobID] = now
		todo = append(todo, resend{agentTask{kind: taskTerminate, jobID: j.JobID, timedOut: s.Base() == states.JobTimeout},
			append([]string(nil), j.Nodes...)})
	}
	for id := range a.resent {
		if j := c.t.jobs[id]; j == nil || !j.state().IsCompleting() {
			delete(a.resent, id)
		}
	}
	a.mu.Unlock()
	c.mu.RUnlock()
	for _, r := range todo {
		c.sendNodes(r.t, r.nodes)
	}
}

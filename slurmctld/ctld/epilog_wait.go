package ctld

import (
	"context"
	"sync"
	"time"
)

// With an Epilog configured, a batch job that ended stays COMPLETING (squeue CG), and keeps
// its nodes, until every node of the job has run its epilog and reported it
// (MsgEpilogComplete), as in Slurm: only then may another job start there. The waiting set
// lives in memory: after a controller restart a node's registration (a job it no longer
// runs) or its going DOWN ends the COMPLETING instead. An srun allocation released by srun
// (step_rpc.go) does not wait.

// epilogWait is the controller's record of epilogs still to be reported.
type epilogWait struct {
	mu      sync.Mutex
	waiting map[uint32]map[string]bool // job → nodes whose epilog has not reported yet
	early   map[uint32]earlyEpilogs    // job → nodes that reported before the job's end
}

// earlyEpilogs are epilog reports that arrived before the job's end was applied (a cancel
// ran the epilog while the batch script's end was still on its way).
type earlyEpilogs struct {
	nodes map[string]bool
	at    time.Time
}

// earlyMemory bounds how long an early epilog report is kept.
const earlyMemory = 10 * time.Minute

// awaitEpilogs registers that job waits for the epilogs of nodes, less those already
// reported, and says whether any remains (the job then ends COMPLETING).
func (c *Controller) awaitEpilogs(job uint32, nodes []string) bool {
	if c.config().Epilog == "" || len(nodes) == 0 {
		return false
	}
	w := &c.epilog
	w.mu.Lock()
	defer w.mu.Unlock()
	done := w.early[job].nodes
	delete(w.early, job)
	pending := map[string]bool{}
	for _, n := range nodes {
		if !done[n] {
			pending[n] = true
		}
	}
	if len(pending) == 0 {
		delete(w.waiting, job)
		return false
	}
	if w.waiting == nil {
		w.waiting = map[uint32]map[string]bool{}
	}
	w.waiting[job] = pending
	return true
}

// epilogReported records node's epilog of job and says whether it was the last one the job
// waited for.
func (c *Controller) epilogReported(job uint32, node string) bool {
	w := &c.epilog
	w.mu.Lock()
	defer w.mu.Unlock()
	if pending, ok := w.waiting[job]; ok {
		delete(pending, node)
		if len(pending) > 0 {
			return false
		}
		delete(w.waiting, job)
		return true
	}
	now := time.Now()
	for id, e := range w.early {
		if now.Sub(e.at) > earlyMemory {
			delete(w.early, id)
		}
	}
	if w.early == nil {
		w.early = map[uint32]earlyEpilogs{}
	}
	e := w.early[job]
	if e.nodes == nil {
		e.nodes = map[string]bool{}
	}
	e.nodes[node], e.at = true, now
	w.early[job] = e
	return false
}

// awaitingEpilogs says whether job still waits for an epilog (under c.mu). A record left by
// a job whose COMPLETING another path ended (its node went DOWN, its slurmd restarted) is
// dropped here, so that it cannot hold up a later incarnation.
func (c *Controller) awaitingEpilogs(job uint32) bool {
	w := &c.epilog
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.waiting[job]; !ok {
		return false
	}
	if j := c.t.jobs[job]; j == nil || !j.state().IsCompleting() {
		delete(w.waiting, job)
		return false
	}
	return true
}

// releaseAfterEpilogs ends the COMPLETING of job once its last epilog has reported: its
// nodes are free for the next job.
func (c *Controller) releaseAfterEpilogs(ctx context.Context, job uint32) error {
	c.mu.Lock()
	j := c.t.jobs[job]
	if j == nil || !j.state().IsCompleting() {
		c.mu.Unlock()
		return nil
	}
	p, err := c.apply(endJob{jobID: j.JobID, state: j.state().Base(), keepReason: true, end: j.EndTime})
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if err := p.Wait(ctx); err != nil {
		return durabilityError(err)
	}
	c.log.Info("job's epilogs complete, nodes released", "job", job)
	c.wake()
	return nil
}

package node

import (
	"fmt"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

// Epilog (slurm.conf) runs on every node of a job when the controller ends the job there
// (MsgTerminateJob: after the batch script ended, at scancel, at the time limit, at a
// requeue), once per job incarnation, after every step of the job on the node is gone. Its
// result goes to the controller (MsgEpilogComplete); a failure drains the node with reason
// "Epilog error".
// As in Slurm, the controller keeps the job COMPLETING on its nodes until every node's
// MsgEpilogComplete has arrived (slurmctld/ctld/epilog_wait.go), so no other job starts on
// a node whose epilog still runs.

// epilogMark records that an incarnation's epilog ran or runs on a node.
type epilogMark struct {
	restarts uint32
	at       time.Time
}

// stepsGoneSlack is how long past KillWait the epilog waits for the job's steps to end
// before it runs anyway (a step that outlives that is logged; Slurm would call it unkillable).
const stepsGoneSlack = 30 * time.Second

// epilogAfterEnd starts the epilog of incarnation restarts of job on node, unless it already
// ran or runs, and forgets the job's prolog record once the job is gone from the node.
func (d *Daemon) epilogAfterEnd(node string, job, restarts, killWait uint32) {
	h := d.nodes[node]
	if h == nil {
		return
	}
	s := d.scripts()
	k := nodeJob{node: node, job: job}
	now := time.Now()
	s.mu.Lock()
	for key, m := range s.epilogs {
		if now.Sub(m.at) > killedMemory {
			delete(s.epilogs, key)
		}
	}
	if m, ok := s.epilogs[k]; ok && m.restarts >= restarts {
		s.mu.Unlock()
		return
	}
	s.epilogs[k] = epilogMark{restarts: restarts, at: now}
	e := s.envs[k]
	s.mu.Unlock()
	if e == nil {
		e = d.jobEnvFromSteps(h, job)
	}
	go func() {
		wait := time.Duration(killWait)*time.Second + stepsGoneSlack
		if !d.waitStepsGone(h, job, wait) {
			d.log.Warn("job steps still running after the terminate; running the epilog anyway", "job", job, "node", node)
		}
		if d.cfg.Epilog != "" {
			res := d.runJobScript(h, d.cfg.Epilog, prologEnv(d, h, e, true))
			if res.failed() {
				d.log.Error(fmt.Sprintf("[job %d] epilog failed %s", job, res), "node", node,
					"script", res.path, "output", res.output)
			}
			d.reportScript(wire.MsgEpilogComplete, &wire.EpilogComplete{
				JobID: job, NodeName: node, Status: int32(res.status), TimedOut: res.timedOut,
			})
		}
		s.mu.Lock()
		if r := s.prologs[k]; r != nil && r.restarts <= restarts {
			delete(s.prologs, k)
		}
		if old := s.envs[k]; old == e {
			delete(s.envs, k)
		}
		s.mu.Unlock()
	}()
}

// waitStepsGone waits until the job has no live step on h (bounded by limit, and by the
// daemon stopping); false when steps remain.
func (d *Daemon) waitStepsGone(h *hosted, job uint32, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		if len(liveSteps(h, job)) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-d.ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// jobEnvFromSteps is what the epilog can learn about a job that never launched through this
// slurmd (a restarted slurmd, or a node of the allocation that ran no step): its user from
// a step state file when there is one.
func (d *Daemon) jobEnvFromSteps(h *hosted, job uint32) *jobEnv {
	e := &jobEnv{JobID: job}
	steps, _ := stepd.ListSteps(h.spool)
	for _, st := range steps {
		if st.JobID == job {
			e.UID = st.UID
			break
		}
	}
	return e
}

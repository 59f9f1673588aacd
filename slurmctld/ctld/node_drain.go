package ctld

import (
	"context"
	"errors"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// A node whose Prolog or Epilog fails is drained, as Slurm does: "Prolog error" (node_mgr.c,
// registration status ESLURMD_PROLOG_FAILED) and "Epilog error" (job_mgr.c, epilog complete
// with a nonzero return code), with SlurmUser as the reason's author. A node already drained
// keeps its reason. The job whose prolog failed is requeued and held with the description
// "launch failed requeued held" (slurmd's REQUEST_JOB_REQUEUE with JOB_REQUEUE_HOLD |
// JOB_LAUNCH_FAILED); a job that may not be requeued (--no-requeue, JobRequeue=0, an srun
// allocation) is cancelled instead.

// Slurm's texts for the two node reasons and the held job's description.
const (
	reasonPrologError    = "Prolog error"
	reasonEpilogError    = "Epilog error"
	descLaunchFailedHeld = "launch failed requeued held"
	errnoPrologFailed    = 4022 // ESLURMD_PROLOG_FAILED
)

// launchRefusedByProlog reports whether a node refused a batch launch because the job's
// prolog failed there. The node reports that failure itself (MsgPrologComplete), and that
// report decides the job's fate, so the launch agent must not end the job FAILED.
func launchRefusedByProlog(err error) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Errno == errnoPrologFailed
}

// drainChange is the change that drains node with reason, or nil when the node is unknown
// or already drained (under the lock).
func (c *Controller) drainChange(node, reason string, now int64) change {
	n := c.t.nodes[node]
	if n == nil {
		return nil
	}
	st := states.NodeState(n.rec.State)
	if st.Has(states.NodeDrain) || st.Has(states.NodeFail) {
		return nil
	}
	rec := n.rec
	rec.State = uint32(st | states.NodeDrain)
	rec.Reason, rec.ReasonTime, rec.ReasonUID = reason, now, c.slurmUID
	return updateNode{rec: rec}
}

// handlePrologComplete serves MsgPrologComplete: a job's prolog failed on a node.
func (c *Controller) handlePrologComplete(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.PrologComplete)
	if r.Status == 0 {
		return nil, nil // Orbit's slurmd reports failures only; a success changes nothing
	}
	now := c.now().Unix()
	c.mu.Lock()
	if n := c.t.nodes[r.NodeName]; n != nil {
		n.lastContact = now
	}
	var chs multi
	if ch := c.drainChange(r.NodeName, reasonPrologError, now); ch != nil {
		chs = append(chs, ch)
	}
	var end terminated
	j := c.t.jobs[r.JobID]
	sameRun := j != nil && (r.Restarts == wire.NoVal || r.Restarts == j.Restarts)
	if sameRun && j.state().IsRunning() && !j.state().IsCompleting() {
		end = terminated{jobID: j.JobID, nodes: append([]string(nil), j.Nodes...)}
		if c.requeueAllowed(j) && !j.isInteractive() {
			ch, _, errno := c.requeueChange(j, true, false, now) // job_requeue.go
			if errno == 0 {
				chs = append(chs, withStateDesc{ch: ch, jobID: j.JobID, desc: descLaunchFailedHeld})
			}
		} else {
			chs = append(chs, endJob{jobID: j.JobID, state: states.JobCancelled, end: now, completing: true, keepReason: true})
		}
	}
	if len(chs) == 0 {
		c.mu.Unlock()
		return nil, nil
	}
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "prolog failure not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Error("Prolog failure on node, draining the node", "node", r.NodeName, "job", r.JobID,
		"status", r.Status, "timed_out", r.TimedOut)
	for _, n := range end.nodes {
		c.send(agentTask{kind: taskTerminate, jobID: end.jobID, node: n})
	}
	c.wake()
	return nil, nil
}

// handleEpilogComplete serves MsgEpilogComplete: a job's epilog ran on a node; a failure
// drains the node, and the last epilog of a COMPLETING job releases its nodes.
func (c *Controller) handleEpilogComplete(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.EpilogComplete)
	now := c.now().Unix()
	c.mu.Lock()
	if n := c.t.nodes[r.NodeName]; n != nil {
		n.lastContact = now
	}
	var ch change
	if r.Status != 0 {
		ch = c.drainChange(r.NodeName, reasonEpilogError, now)
	}
	if ch != nil {
		p, err := c.apply(ch)
		c.mu.Unlock()
		if err != nil {
			return nil, wire.Errorf(wire.ErrnoSlurmError, "epilog failure not applied: %v", err)
		}
		if err := p.Wait(ctx); err != nil {
			return nil, durabilityError(err)
		}
		c.log.Error("epilog error, draining the node", "node", r.NodeName, "job", r.JobID, "status", r.Status,
			"timed_out", r.TimedOut)
	} else {
		c.mu.Unlock()
	}
	if c.epilogReported(r.JobID, r.NodeName) { // epilog_wait.go
		if err := c.releaseAfterEpilogs(ctx, r.JobID); err != nil {
			return nil, wire.Errorf(wire.ErrnoSlurmError, "epilog completion not applied: %v", err)
		}
	}
	c.wake()
	return nil, nil
}

// withStateDesc is a change that also gives the job a description (Slurm's state_desc),
// such as "launch failed requeued held", which squeue and scontrol show in place of the
// reason. It wraps the change rather than following it in a multi, since every change of a
// multi plans against the same tables.
type withStateDesc struct {
	ch    change
	jobID uint32
	desc  string
}

func (w withStateDesc) plan(t *tables) (*effects, error) {
	e, err := w.ch.plan(t)
	if err != nil {
		return nil, err
	}
	for _, j := range e.jobs {
		if j.JobID == w.jobID {
			j.StateDesc = w.desc // a fresh record from the inner plan, not yet installed
		}
	}
	return e, nil
}

// stateDesc is the description the commands show for j: Slurm drops it when the job is
// released or starts again, so it shows only while the job is still held pending.
func stateDesc(j *jobRecord) string {
	if j.StateDesc != "" && j.Priority == 0 && j.state().IsPending() {
		return j.StateDesc
	}
	return ""
}

// endNodeScripts runs after a job ended (batch script done, allocation released): with an
// Epilog or Prolog configured, every node of the job is told to end it (Slurm's
// REQUEST_TERMINATE_JOB from deallocate_nodes), so each runs its epilog and forgets the
// job; with EpilogSlurmctld, the controller runs that (prolog_slurmctld.go).
func (c *Controller) endNodeScripts(jobID uint32, nodes []string) {
	if c.config().Epilog != "" || c.config().Prolog != "" {
		for _, n := range nodes {
			c.send(agentTask{kind: taskTerminate, jobID: jobID, node: n})
		}
	}
	c.runEpilogSlurmctld(jobID)
}

// sigOOM is the wait status a step killed by the OOM handler reports (Slurm's SIG_OOM, a
// dummy signal 253): ExitCode shows it as 0:125.
const sigOOM = 253

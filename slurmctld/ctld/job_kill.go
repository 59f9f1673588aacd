package ctld

import (
	"context"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/hostlist"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleKillJob serves MsgKillJob (scancel). As in Slurm: an unknown id is 2017; a user who
// neither owns the job nor is privileged gets 2002 (checked before the job's state, so a
// stranger learns nothing about it); a finished job is 2021. A pending job is cancelled at
// once; a running one is CANCELLED+COMPLETING until its nodes report the batch script's end.
// A signal other than SIGKILL goes to the running job's nodes and changes no state.
func (c *Controller) handleKillJob(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.KillJobRequest)
	if rep, handled, err := c.killArray(ctx, id, r); handled { // job_array_kill.go
		return rep, err
	}
	if r.Step {
		return c.killStep(id, r), nil
	}
	cancel := r.Signal == 0 || r.Signal == int32(syscall.SIGKILL)
	now := c.now().Unix()

	c.mu.Lock()
	j := c.t.jobs[r.JobID]
	switch {
	case j == nil:
		c.mu.Unlock()
		return killReply(errnoInvalidJobID), nil
	case j.UserID != id.UID && !c.privileged(id):
		c.mu.Unlock()
		c.log.Warn("kill refused", "job", r.JobID, "uid", id.UID, "owner", j.UserID)
		return killReply(errnoAccessDenied), nil
	case j.state().IsFinished():
		c.mu.Unlock()
		return killReply(errnoAlreadyDone), nil
	case j.state().IsPending() && !cancel:
		c.mu.Unlock()
		return killReply(errnoJobPending), nil
	case !cancel:
		nodes := append([]string(nil), j.Nodes...)
		c.mu.Unlock()
		c.sendNodes(agentTask{kind: taskSignal, jobID: r.JobID, signal: r.Signal, flags: r.Flags}, nodes) // one broadcast
		return &wire.KillJobReply{}, nil
	}
	running := !j.state().IsPending()
	ch := endJob{jobID: r.JobID, state: states.JobCancelled, end: now, completing: running, keepReason: true}
	nodes := append([]string(nil), j.Nodes...)
	p, err := c.apply(ch)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "cancel not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("job cancelled", "job", r.JobID, "uid", id.UID, "was_running", running)
	if running {
		c.sendNodes(agentTask{kind: taskTerminate, jobID: r.JobID}, nodes) // one broadcast (launch_agent.go)
	} else {
		c.wake() // a cancelled top job may unblock the ones behind it
	}
	return &wire.KillJobReply{}, nil
}

// killStep serves scancel J.S: the job's owner (or a privileged user) signals or cancels one
// live step. As in Slurm, a step that is not running is 2017 ("Invalid job id specified"),
// a pending job 2024 and a finished one 2021. The signal goes straight to the step's nodes
// (MsgSignalTasks, which slurmd serves for srun too); a cancel is SIGKILL there, which the
// step's slurmstepd turns into Slurm's step cancel (SIGTERM, KillWait, SIGKILL). The reply
// does not wait for the nodes, as Slurm's does not wait for its agent.
func (c *Controller) killStep(id *wire.Identity, r *wire.KillJobRequest) *wire.KillJobReply {
	c.mu.RLock()
	j := c.t.jobs[r.JobID]
	switch {
	case j == nil:
		c.mu.RUnlock()
		return killReply(errnoInvalidJobID)
	case j.UserID != id.UID && !c.privileged(id):
		c.mu.RUnlock()
		return killReply(errnoAccessDenied)
	case j.state().IsFinished():
		c.mu.RUnlock()
		return killReply(errnoAlreadyDone)
	case j.state().IsPending():
		c.mu.RUnlock()
		return killReply(errnoJobPending)
	}
	c.mu.RUnlock()
	nodes, ok := c.steps.isLive(r.JobID, r.StepID)
	if !ok {
		return killReply(errnoInvalidJobID)
	}
	names, err := hostlist.Expand(nodes)
	if err != nil {
		return killReply(errnoInvalidJobID)
	}
	sig := r.Signal
	if sig == 0 {
		sig = int32(syscall.SIGKILL)
	}
	for _, n := range names {
		addr, ok := c.addrOf(n)
		if !ok {
			continue
		}
		go func(node, addr string) {
			// A step cancelled (or sent SIGKILL) dies at once, as Slurm's step signal does.
			msg := &wire.SignalTasks{NodeName: node, JobID: r.JobID, StepID: r.StepID, Signal: sig, Abort: sig == int32(syscall.SIGKILL)}
			if err := c.call(addr, wire.MsgSignalTasks, msg); err != nil {
				c.log.Warn("step signal failed", "job", r.JobID, "step", r.StepID, "node", node, "err", err)
			}
		}(n, addr)
	}
	c.log.Info("step signalled", "job", r.JobID, "step", r.StepID, "signal", sig, "uid", id.UID)
	return &wire.KillJobReply{}
}

func killReply(errno int32) *wire.KillJobReply {
	return &wire.KillJobReply{Errno: errno, Text: errnoTexts[errno]}
}

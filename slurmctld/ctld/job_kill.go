package ctld

import (
	"context"
	"syscall"

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

func killReply(errno int32) *wire.KillJobReply {
	return &wire.KillJobReply{Errno: errno, Text: errnoTexts[errno]}
}

package ctld

import (
	"context"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// killArray serves the array forms of MsgKillJob: "12_3" and "12" naming an array. A task
// that runs (or ran) has a record of its own and is handed back to the plain path by
// rewriting r to its job id (handled false). A pending task is split off from the array's
// record and cancelled alone, as Slurm does; a whole array has each of its records signalled
// or cancelled. handled is false for everything else.
func (c *Controller) killArray(ctx context.Context, id *wire.Identity, r *wire.KillJobRequest) (*wire.KillJobReply, bool, error) {
	cancel := r.Signal == 0 || r.Signal == int32(syscall.SIGKILL)
	now := c.now().Unix()
	c.mu.Lock()
	recs, idx, arrayRec, found := c.t.arrayTargets(r.JobID, r.ArrayTaskID)
	task := r.ArrayTaskID != wire.NoVal && r.ArrayTaskID != wire.Infinite
	switch {
	case !found && task:
		c.mu.Unlock()
		return killReply(errnoInvalidJobID), true, nil
	case !found:
		c.mu.Unlock()
		return nil, false, nil
	case idx == wire.NoVal && len(recs) == 1 && (task || recs[0].ArrayJobID != r.JobID || recs[0].ArrayJobID == 0):
		r.JobID, r.ArrayTaskID = recs[0].JobID, wire.NoVal // one record: the plain path
		c.mu.Unlock()
		return nil, false, nil
	}
	owner := arrayRec
	if owner == nil {
		owner = recs[0]
	}
	if owner.UserID != id.UID && !c.privileged(id) {
		c.mu.Unlock()
		return killReply(errnoAccessDenied), true, nil
	}
	var chs multi
	var ends []terminated
	var signals []terminated
	if idx != wire.NoVal {
		if !cancel {
			c.mu.Unlock()
			return killReply(errnoJobPending), true, nil
		}
		taskID := c.t.nextJobID
		if len(arrayRec.ArrayPending) == 1 {
			taskID = arrayRec.JobID
		}
		chs = append(chs, splitPending{arrayID: arrayRec.JobID, idx: idx, taskJobID: taskID, then: func(n *jobRecord) {
			n.State = uint32(states.JobCancelled)
			n.StartTime, n.EndTime = now, now
		}})
	}
	for _, j := range recs {
		s := j.state()
		switch {
		case s.IsFinished():
		case !cancel && s.IsPending():
		case !cancel:
			signals = append(signals, terminated{jobID: j.JobID, nodes: append([]string(nil), j.Nodes...)})
		case s.IsPending():
			chs = append(chs, endJob{jobID: j.JobID, state: states.JobCancelled, end: now, keepReason: true})
		default:
			chs = append(chs, endJob{jobID: j.JobID, state: states.JobCancelled, end: now, completing: true, keepReason: true})
			ends = append(ends, terminated{jobID: j.JobID, nodes: append([]string(nil), j.Nodes...)})
		}
	}
	if len(chs) == 0 && len(signals) == 0 {
		c.mu.Unlock()
		if !cancel {
			return killReply(errnoJobPending), true, nil
		}
		return killReply(errnoAlreadyDone), true, nil
	}
	var p interface{ Wait(context.Context) error }
	if len(chs) > 0 {
		pp, err := c.apply(chs)
		if err != nil {
			c.mu.Unlock()
			return nil, true, wire.Errorf(wire.ErrnoSlurmError, "cancel not applied: %v", err)
		}
		p = pp
	}
	c.mu.Unlock()
	if p != nil {
		if err := p.Wait(ctx); err != nil {
			return nil, true, durabilityError(err)
		}
	}
	c.log.Info("array signalled", "job", r.JobID, "task", r.ArrayTaskID, "signal", r.Signal, "uid", id.UID)
	for _, s := range signals {
		for _, n := range s.nodes {
			c.send(agentTask{kind: taskSignal, jobID: s.jobID, node: n, signal: r.Signal, flags: r.Flags})
		}
	}
	for _, e := range ends {
		for _, n := range e.nodes {
			c.send(agentTask{kind: taskTerminate, jobID: e.jobID, node: n})
		}
	}
	c.wake()
	return &wire.KillJobReply{}, true, nil
}

package ctld

import (
	"context"
	"fmt"
	"slices"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// killArray serves the array forms of MsgKillJob: "12_3" and "12" naming an array. A task
// that runs (or ran) has a record of its own and is handed back to the plain path by
// rewriting r to its job id (handled false). A pending task still in the array's record
// leaves it with no record of its own (dropPending), as Slurm's job_str_signal clears its
// bit; a whole array has each of its records signalled or cancelled. handled is false for
// everything else.
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
		chs = append(chs, dropPending{arrayID: arrayRec.JobID, idx: idx, now: now})
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

// dropPending cancels pending index idx of array record arrayID as Slurm 22.05 does: the
// index leaves the array's task list and gets no record (scontrol show job 12_3 then finds
// nothing, nor does sacct); when it was the last, the array's record itself ends CANCELLED,
// started and ended now, with no task index left (Slurm shows ArrayTaskId=4294967294, NO_VAL,
// and squeue the bare array id).
type dropPending struct {
	arrayID, idx uint32
	now          int64
}

func (ch dropPending) plan(t *tables) (*effects, error) {
	rec := t.jobs[ch.arrayID]
	if rec == nil || !rec.isArrayRecord() {
		return nil, fmt.Errorf("job %d is not a pending array", ch.arrayID)
	}
	i := slices.Index(rec.ArrayPending, ch.idx)
	if i < 0 {
		return nil, fmt.Errorf("array %d has no pending task %d", ch.arrayID, ch.idx)
	}
	n := rec.clone()
	n.ArrayPending = slices.Delete(slices.Clone(rec.ArrayPending), i, i+1)
	if len(n.ArrayPending) == 0 {
		n.ArrayPending, n.ArrayTaskID = nil, wire.NoVal
		n.State = uint32(states.JobCancelled)
		n.StartTime, n.EndTime = ch.now, ch.now
	}
	return &effects{jobs: []*jobRecord{n}}, nil
}

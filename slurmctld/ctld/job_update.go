package ctld

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Hold, release and requeue (scontrol hold/uhold/release/requeue/requeuehold), Slurm's
// update_job with Priority=0 and job_requeue. A hold by an operator is JobHeldAdmin and only
// an operator releases it; a hold by the job's user (or uhold) is JobHeldUser. A release
// gives the job a new priority, as priority/basic does for a new job.

// Slurm errno values of this file.
const (
	errnoUserIDMissing = 2010 // ESLURM_USER_ID_MISSING: update of someone else's job
	errnoNotSupported  = 2036 // ESLURM_NOT_SUPPORTED: an action this controller does not know
	errnoDisabled      = 2037 // ESLURM_DISABLED: requeue of a --no-requeue job
	errnoJobNotPending = 2073 // ESLURM_JOB_NOT_PENDING
	errnoJobFinished   = 2084 // ESLURM_JOB_FINISHED: hold, release or update of an ended job
)

func init() {
	errnoTexts[errnoUserIDMissing] = "Invalid user id"
	errnoTexts[errnoNotSupported] = "Requested operation not supported on this system"
	errnoTexts[errnoDisabled] = "Requested operation is presently disabled"
	errnoTexts[errnoJobNotPending] = "Job is no longer pending execution"
	errnoTexts[errnoJobFinished] = "Job has already finished"
}

// batchSchedDelay is how long after an update, hold or release the scheduling pass it asks
// for runs: Slurm's update RPC only queues a pass, which its background loop starts once
// batch_sched_delay (3 s by default) has passed since the last one. Until then squeue shows
// the reason the update left (None), as the reference does.
const batchSchedDelay = 3 * time.Second

// heldReason is the pending reason of a held job (priority 0).
func heldReason(j *jobRecord) states.Reason {
	if j.state().Has(states.JobResvDelHold) {
		return states.WaitResvDeleted
	}
	if j.AdminHold {
		return states.WaitHeld
	}
	return states.WaitHeldUser
}

// requeueKillDelay is how long after scontrol requeue's reply the job's old incarnation is
// killed: Slurm's agent queue's latency, a few milliseconds, with room for a loaded node.
const requeueKillDelay = 50 * time.Millisecond

// replaceJob installs a new version of an existing job (hold, release).
type replaceJob struct{ rec *jobRecord }

func (ch replaceJob) plan(t *tables) (*effects, error) {
	if t.jobs[ch.rec.JobID] == nil {
		return nil, fmt.Errorf("job %d does not exist", ch.rec.JobID)
	}
	return &effects{jobs: []*jobRecord{ch.rec}}, nil
}

// handleUpdateJob serves MsgUpdateJob: authenticate → find the job, task or array →
// authorize → one change for every record named → wait until durable → reply. For a whole
// array, the reply is success when any of its records was changed, else the first error.
func (c *Controller) handleUpdateJob(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.UpdateJobRequest)
	switch r.Action {
	case wire.JobActionHold, wire.JobActionUserHold, wire.JobActionRelease, wire.JobActionRequeue, wire.JobActionRequeueHold:
	case wire.JobActionUpdate: // job_update_fields.go
	case wire.JobActionSuspend, wire.JobActionResume: // job_suspend.go
		return c.handleSuspend(ctx, id, r)
	case wire.JobActionTop: // job_top.go
		return c.handleTop(ctx, id, r)
	default:
		return updateReply(errnoNotSupported), nil
	}
	priv := c.privileged(id)
	now := c.now().Unix()
	if r.Action == wire.JobActionUpdate {
		c.loadOwnerGroups(r.JobID, now) // part_access_groups.go, outside the lock
	}

	c.mu.Lock()
	recs, idx, arrayRec, found := c.t.arrayTargets(r.JobID, r.ArrayTaskID)
	if !found {
		c.mu.Unlock()
		return updateReply(errnoInvalidJobID), nil
	}
	owner := arrayRec
	if owner == nil {
		owner = recs[0]
	}
	if owner.UserID != id.UID && !priv {
		c.mu.Unlock()
		c.log.Warn("job update refused", "job", r.JobID, "uid", id.UID, "owner", owner.UserID)
		if r.Action == wire.JobActionRequeue || r.Action == wire.JobActionRequeueHold {
			return updateReply(errnoAccessDenied), nil
		}
		return updateReply(errnoUserIDMissing), nil
	}
	prio := c.t.lowPrio
	var chs multi
	var ends []terminated
	firstErr := int32(0)
	keptErr := int32(0) // an error Slurm reports after applying the update (updateFields)
	if idx != wire.NoVal && r.Action == wire.JobActionUpdate {
		// One pending task of an array (JobId=A_T): Slurm splits it off with a job id of its
		// own and changes it alone. The fields are tried on a copy first, so a refusal
		// leaves the array whole.
		probe := arrayRec.clone()
		probe.ArrayPending, probe.ArrayTaskID = nil, idx
		errno, kept := c.updateFields(probe, r, priv, now)
		if errno != 0 && !kept {
			c.mu.Unlock()
			return updateReply(errno), nil
		}
		keptErr = errno
		taskID := c.t.nextJobID
		if len(arrayRec.ArrayPending) == 1 {
			taskID = arrayRec.JobID
		}
		chs = append(chs, splitPending{arrayID: arrayRec.JobID, idx: idx, taskJobID: taskID, then: func(n *jobRecord) {
			c.setFields(n, r, priv, now) // as on the probe: same record, same request
			if n.state().IsPending() && n.Priority != 0 {
				n.Reason = uint32(states.WaitNoReason)
			}
		}})
	} else if idx != wire.NoVal {
		// One pending task of an array: split it off, then change it alone.
		task := arrayRec.clone()
		task.ArrayPending, task.ArrayTaskID = nil, idx
		errno, kept := c.updateOne(task, r.Action, priv, &prio, now)
		if errno != 0 && !kept {
			c.mu.Unlock()
			return updateReply(errno), nil
		}
		keptErr = errno
		taskID := c.t.nextJobID
		if len(arrayRec.ArrayPending) == 1 {
			taskID = arrayRec.JobID
		}
		changed := task
		chs = append(chs, splitPending{arrayID: arrayRec.JobID, idx: idx, taskJobID: taskID, then: func(n *jobRecord) {
			n.Priority, n.AdminHold, n.Reason = changed.Priority, changed.AdminHold, changed.Reason
		}})
	}
	for _, j := range recs {
		if r.Action == wire.JobActionRequeue || r.Action == wire.JobActionRequeueHold {
			if s := j.state(); r.RequeueFlags&wire.RequeueIncomplete != 0 && (!s.IsRunning() && !s.IsSuspended() || s.IsCompleting()) {
				continue // requeue Incomplete: only what still runs, the rest is no error
			}
			hold := r.Action == wire.JobActionRequeueHold
			ch, end, errno := c.requeueChange(j, hold, priv, now)
			if errno != 0 {
				firstErr = cmpOr(firstErr, errno)
				continue
			}
			if rq, ok := ch.(requeueJob); ok {
				// As Slurm's _job_requeue_op: State=SpecialExit holds it in that state.
				rq.specialExit = r.RequeueFlags&wire.RequeueSpecialExit != 0
				switch {
				case hold:
					rq.desc = "job requeued in held state"
				case rq.specialExit:
					rq.desc = "job requeued in special exit state"
				}
				ch = rq
			}
			chs = append(chs, ch)
			if end.jobID != 0 {
				ends = append(ends, end)
			}
			continue
		}
		n := j.clone()
		if r.Action == wire.JobActionUpdate {
			errno, kept := c.updateFields(n, r, priv, now)
			if errno != 0 && !kept {
				firstErr = cmpOr(firstErr, errno)
				continue
			}
			keptErr = cmpOr(keptErr, errno)
			if n.state().IsPending() && n.Priority != 0 {
				// Slurm's update_job clears a scheduler reason (BeginTime, Priority,
				// ...); the next pass sets it again.
				n.Reason = uint32(states.WaitNoReason)
			}
			chs = append(chs, replaceJob{rec: n})
			if len(n.Nodes) < len(j.Nodes) {
				// Shrunk (job_resize.go): the job ends on the nodes it gave back.
				gone := slices.DeleteFunc(slices.Clone(j.Nodes), func(x string) bool { return slices.Contains(n.Nodes, x) })
				ends = append(ends, terminated{jobID: j.JobID, nodes: gone})
			}
			continue
		}
		errno, kept := c.updateOne(n, r.Action, priv, &prio, now)
		if errno != 0 && !kept {
			firstErr = cmpOr(firstErr, errno)
			continue
		}
		keptErr = cmpOr(keptErr, errno)
		chs = append(chs, replaceJob{rec: n})
	}
	if len(chs) == 0 {
		c.mu.Unlock()
		return updateReply(firstErr), nil
	}
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "update not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("job updated", "job", r.JobID, "task", r.ArrayTaskID, "action", r.Action, "uid", id.UID)
	if len(ends) > 0 {
		// The old incarnations end after scontrol has its answer, and a moment later, as
		// Slurm's agent sends the kill from its own thread: a script that requeues itself
		// (scontrol requeue $SLURM_JOB_ID && echo requeued) runs its next command on Slurm,
		// whereas a kill sent the instant the reply leaves can reach the script first on a
		// loaded node.
		req.AfterReply(func() {
			time.AfterFunc(requeueKillDelay, func() {
				for _, e := range ends {
					for _, n := range e.nodes {
						c.send(agentTask{kind: taskTerminate, jobID: e.jobID, node: n})
					}
				}
			})
		})
	}
	if r.Action == wire.JobActionRequeue || r.Action == wire.JobActionRequeueHold {
		c.wake()
	} else {
		time.AfterFunc(batchSchedDelay, c.wake) // wake never blocks, even after shutdown
	}
	return updateReply(keptErr), nil
}

// updateOne applies a hold or release to n (a copy, about to be installed), returning 0 or
// the errno that refuses it, or with kept the one reported after applying it (a hold or
// release is an update to Slurm, checked against the partition as updateFields says).
func (c *Controller) updateOne(n *jobRecord, action uint16, priv bool, prio *uint32, now int64) (errno int32, kept bool) {
	if errno = c.holdRelease(n, action, priv, prio); errno != 0 {
		return errno, false
	}
	return c.partStillUsable(n, now)
}

// holdRelease is updateOne's change itself.
func (c *Controller) holdRelease(n *jobRecord, action uint16, priv bool, prio *uint32) int32 {
	s := n.state()
	if s.IsFinished() {
		return errnoJobFinished
	}
	switch action {
	case wire.JobActionHold, wire.JobActionUserHold:
		n.Priority = 0
		n.AdminHold = action == wire.JobActionHold && priv
		n.PrioritySet = false // a release recomputes it
		// A running job keeps running, but shows the hold as its reason, as in Slurm (it
		// would wait held if it were requeued).
		n.Reason = uint32(heldReason(n))
	case wire.JobActionRelease:
		if n.Priority != 0 {
			return 0
		}
		if n.AdminHold && !priv {
			return errnoAccessDenied
		}
		if c.multifactor() {
			*prio = max(*prio-1, 1) // until the next recomputation
			n.Priority = *prio
		} else {
			// Slurm's set_job_prio: the next value down, less the job's nice.
			n.Priority = c.basicPriority(n)
		}
		n.AdminHold = false
		n.Reason = uint32(states.WaitNoReason)
		if n.state().Has(states.JobResvDelHold) { // held when its reservation ended (resv_end.go)
			n.State &^= uint32(states.JobResvDelHold)
			n.StateDesc = ""
		}
		n.State &^= uint32(states.JobSpecialExit) // requeued held by RequeueExitHold
	}
	return 0
}

func updateReply(errno int32) *wire.UpdateJobReply {
	if errno == 0 {
		return &wire.UpdateJobReply{}
	}
	return &wire.UpdateJobReply{Errno: errno, Text: errnoTexts[errno]}
}

func cmpOr(a, b int32) int32 {
	if a != 0 {
		return a
	}
	return b
}

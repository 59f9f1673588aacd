package ctld

import (
	"fmt"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Requeue, as Slurm's job_requeue: a running batch job goes back to PENDING (COMPLETING
// first, until its nodes confirm the end of the old incarnation), its restart count goes up,
// its submit time becomes the requeue time and it is not eligible again before the launch
// credentials of the old incarnation have expired (Slurm: cred_expire 120 s + 1, pending
// reason BeginTime). A job whose --requeue/--no-requeue/JobRequeue forbids it is refused with
// "Requested operation is presently disabled". A node failure requeues the batch jobs that
// allow it instead of ending them NODE_FAIL.

// requeueDelay is how long a requeued job waits before it is eligible again (seconds).
const requeueDelay = 121

// terminated is a job whose old incarnation must be ended on its nodes.
type terminated struct {
	jobID uint32
	nodes []string
}

// requeueAllowed says whether the job may be requeued (--requeue, --no-requeue, JobRequeue).
func (c *Controller) requeueAllowed(j *jobRecord) bool {
	return int32(j.descInt(descRequeue)) == 1 || (int32(j.descInt(descRequeue)) < 0 && c.config().JobRequeue != 0)
}

// requeueChange is the change that requeues j (under the lock), the nodes to terminate, or
// the errno refusing it.
func (c *Controller) requeueChange(j *jobRecord, hold, priv bool, now int64) (change, terminated, int32) {
	s := j.state()
	switch {
	case s.IsPending():
		return nil, terminated{}, errnoJobPending
	case s.IsCompleting():
		return nil, terminated{}, errnoAlreadyDone
	case !c.requeueAllowed(j):
		return nil, terminated{}, errnoDisabled
	}
	ch := requeueJob{jobID: j.JobID, now: now, hold: hold}
	var end terminated
	if s.IsRunning() || s.IsSuspended() {
		end = terminated{jobID: j.JobID, nodes: append([]string(nil), j.Nodes...)}
		ch.completing = true
	}
	return ch, end, 0
}

// requeueJob puts a job back to PENDING with one more restart.
type requeueJob struct {
	jobID      uint32
	now        int64
	completing bool // the old incarnation still runs on its nodes: keep them until it ends
	hold       bool // requeuehold: held as by the user (Slurm's WAIT_HELD_USER)
	// desc is the state description scontrol's requeue gives ("job requeued in held
	// state"), shown in place of the reason while the job is held.
	desc string
	// RequeueExit and RequeueExitHold (job_requeue_exit.go): the exit status the batch
	// script ended with, and, when held, the SPECIAL_EXIT state.
	exitCode    uint32
	setExit     bool
	specialExit bool
}

func (ch requeueJob) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil {
		return nil, fmt.Errorf("job %d does not exist", ch.jobID)
	}
	n := j.clone()
	n.Restarts++
	if n.Magnetic {
		// Back to the plain queue: magnetic reservations may draw it again.
		n.editDesc(func(d *wire.JobDesc) { d.Reservation = "" })
		n.Magnetic = false
	}
	n.SubmitTime = ch.now
	n.EligibleTime = ch.now + requeueDelay
	n.EndTime = ch.now
	n.Reason = uint32(states.WaitTime)
	if ch.completing && j.holdsNodes() {
		n.State = uint32(states.JobPending | states.JobCompleting)
	} else {
		n.State = uint32(states.JobPending)
		clearAllocation(n)
	}
	if ch.setExit {
		n.ExitCode = ch.exitCode
	}
	if ch.specialExit {
		n.State |= uint32(states.JobSpecialExit)
	}
	if ch.hold || ch.specialExit {
		n.Priority, n.AdminHold = 0, false
		n.Reason = uint32(heldReason(n))
	}
	n.StateDesc = ch.desc
	return &effects{jobs: []*jobRecord{n}}, nil
}

// clearAllocation forgets a requeued job's old nodes.
func clearAllocation(n *jobRecord) {
	n.Nodes, n.CPUsPerNode, n.MemAlloc, n.BatchNode = nil, nil, 0, ""
	n.StartTime, n.EndTime = 0, 0
	// The next run starts afresh, as Slurm's requeue clears these.
	n.PreSusTime, n.SuspendTime, n.PreemptTime, n.PreemptSuspended = 0, 0, 0, false
}

// nodeFailChange ends a job whose node failed: requeued when it allows it, else NODE_FAIL.
func (c *Controller) nodeFailChange(j *jobRecord, now int64) change {
	if c.requeueAllowed(j) && !j.isInteractive() { // only batch jobs are requeued
		return requeueJob{jobID: j.JobID, now: now}
	}
	return endJob{jobID: j.JobID, state: states.JobNodeFail, reason: states.FailDownNode, end: now}
}

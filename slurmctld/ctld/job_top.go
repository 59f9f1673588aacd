package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol top JOB (Slurm's job_set_top): the job gets the highest priority among its user's
// pending jobs in its partition, and the job that had it takes the named job's old priority,
// so the user's jobs change order without gaining on anyone else's.

// handleTop serves MsgUpdateJob with JobActionTop.
func (c *Controller) handleTop(ctx context.Context, id *wire.Identity, r *wire.UpdateJobRequest) (any, error) {
	c.mu.Lock()
	j := c.t.jobs[r.JobID]
	if j == nil {
		c.mu.Unlock()
		return updateReply(errnoInvalidJobID), nil
	}
	if j.UserID != id.UID && !c.privileged(id) {
		c.mu.Unlock()
		return updateReply(errnoAccessDenied), nil
	}
	if !j.state().IsPending() {
		c.mu.Unlock()
		return updateReply(errnoJobNotPending), nil
	}
	if j.Priority == 0 {
		c.mu.Unlock()
		return updateReply(errnoJobHeld), nil
	}
	var top *jobRecord
	for _, o := range c.t.jobs {
		if o.UserID == j.UserID && o.Partition == j.Partition && o.state().IsPending() && o.Priority > 0 &&
			(top == nil || o.Priority > top.Priority) {
			top = o
		}
	}
	if top == nil || top.JobID == j.JobID || top.Priority <= j.Priority {
		c.mu.Unlock()
		return &wire.UpdateJobReply{}, nil
	}
	a, b := j.clone(), top.clone()
	a.Priority, b.Priority = top.Priority, j.Priority
	p, err := c.apply(multi{replaceJob{rec: a}, replaceJob{rec: b}})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "top not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.wake()
	return &wire.UpdateJobReply{}, nil
}

const errnoJobHeld = 2042 // ESLURM_JOB_HELD

func init() { errnoTexts[errnoJobHeld] = "Job is in held state, pending scheduler release" }

package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update StepId=JOB[.STEP] TimeLimit= (Slurm's update_step): the job's owner or an
// operator sets a live step's own time limit, or every running step's when no step is
// named. The controller keeps it (scontrol show step, squeue -s) and tells the nodes of
// each step, whose slurmstepd ends the step at that limit from its start.

// handleUpdateStep serves MsgUpdateStep.
func (c *Controller) handleUpdateStep(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.UpdateStepRequest)
	c.mu.RLock()
	j := c.t.jobs[r.JobID]
	var owner uint32
	if j != nil {
		owner = j.UserID
	}
	c.mu.RUnlock()
	switch {
	case j == nil:
		return nil, slurmErr(errnoInvalidJobID)
	case owner != id.UID && !c.privileged(id):
		c.log.Warn("step update refused", "job", r.JobID, "uid", id.UID)
		return nil, slurmErr(errnoUserIDMissing)
	}
	var targets []liveStep
	for _, s := range c.steps.list(r.JobID) {
		if r.StepID == wire.NoVal || s.id == r.StepID {
			targets = append(targets, s)
		}
	}
	if r.StepID != wire.NoVal && len(targets) == 0 {
		return nil, slurmErr(errnoInvalidJobID)
	}
	if r.TimeLimit == 0 {
		return &wire.OK{}, nil // nothing to change, as in Slurm
	}
	for _, s := range targets {
		c.steps.setTimeLimit(r.JobID, s.id, r.TimeLimit) // step_info.go
		c.log.Info("step time limit updated", "job", r.JobID, "step", s.id, "minutes", r.TimeLimit, "uid", id.UID)
		nodes, err := hostlist.Expand(s.nodes)
		if err != nil {
			continue
		}
		rep := c.broadcast(wire.MsgStepTimeLimit, &wire.StepTimeLimit{JobID: r.JobID, StepID: s.id, TimeLimit: r.TimeLimit}, nodes)
		for _, res := range rep.Results {
			if res.Errno != 0 {
				c.log.Warn("step time limit not delivered", "job", r.JobID, "step", s.id, "nodes", hostlist.Compress(res.Nodes), "err", res.Text)
			}
		}
	}
	return &wire.OK{}, nil
}

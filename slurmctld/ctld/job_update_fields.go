package ctld

import (
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update JobId=... with fields (Slurm's update_job): what a user may change on their
// own job and what only operators may. Fields that shape the allocation (Partition,
// NumNodes, StartTime, Dependency) change only while the job is pending.

const (
	errnoPartConfigUnavail = 2015 // ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE
	errnoInvalidTimeLimit  = 2051 // ESLURM_INVALID_TIME_LIMIT
)

func init() {
	errnoTexts[errnoPartConfigUnavail] = "Requested partition configuration not available now"
	errnoTexts[errnoInvalidTimeLimit] = "Requested time limit is invalid (missing or exceeds some limit)"
}

// updateFields applies r's fields to n (a copy about to be installed), returning 0 or the
// errno that refuses the whole update.
func (c *Controller) updateFields(n *jobRecord, r *wire.UpdateJobRequest, priv bool, now int64) int32 {
	s := n.state()
	if s.IsFinished() {
		return errnoJobFinished
	}
	samePart := r.Partition != nil && *r.Partition == n.Partition // a no-op Slurm allows at any time
	pendingOnly := r.Partition != nil && !samePart || r.MinNodes != wire.NoVal || r.BeginTime != 0 || r.Dependency != nil
	if pendingOnly && !s.IsPending() {
		return errnoJobNotPending
	}
	if r.Name != nil {
		n.editDesc().Name = *r.Name
	}
	if r.Comment != nil {
		n.editDesc().Comment = *r.Comment
	}
	if r.TimeLimit != wire.NoVal {
		increase := n.TimeLimit != wire.Infinite && (r.TimeLimit == wire.Infinite || r.TimeLimit > n.TimeLimit)
		if increase && !priv {
			return errnoAccessDenied
		}
		n.TimeLimit = r.TimeLimit
		n.editDesc().TimeLimit = r.TimeLimit
		if n.StartTime != 0 && !s.IsPending() {
			n.EndTime = 0
			if r.TimeLimit != wire.Infinite {
				n.EndTime = n.StartTime + int64(r.TimeLimit)*60
			}
		}
	}
	if r.Partition != nil {
		p := c.t.parts[*r.Partition]
		if p == nil {
			return errnoInvalidPartitionName
		}
		n.Partition, n.editDesc().Partition = p.conf.Name, p.conf.Name
	}
	if r.MinNodes != wire.NoVal {
		p := c.t.parts[n.Partition]
		if r.MinNodes == 0 || (r.MaxNodes != wire.NoVal && r.MaxNodes != 0 && r.MaxNodes < r.MinNodes) {
			return errnoInvalidNodeCount
		}
		if p != nil && int(r.MinNodes) > len(p.nodes) {
			return errnoPartConfigUnavail
		}
		n.MinNodes = r.MinNodes
		n.MaxNodes = r.MinNodes
		if r.MaxNodes != wire.NoVal {
			n.MaxNodes = r.MaxNodes
		}
		n.NumTasks = max(n.NumTasks, n.MinNodes)
	}
	if r.BeginTime != 0 {
		n.editDesc().BeginTime = r.BeginTime
		n.EligibleTime = max(r.BeginTime, now)
	}
	if r.Dependency != nil {
		if err := checkDependency(*r.Dependency); err != nil {
			return errnoDependency
		}
		n.editDesc().Dependency = *r.Dependency
	}
	if r.NiceSet {
		if r.Nice < 0 && !priv {
			return errnoAccessDenied
		}
		n.editDesc().Nice = r.Nice
	}
	if r.Priority != wire.NoVal {
		if !priv {
			return errnoAccessDenied
		}
		if !s.IsPending() && r.Priority == 0 {
			return errnoJobNotPending
		}
		n.Priority = r.Priority
		n.AdminHold = r.Priority == 0
		n.PrioritySet = r.Priority != 0
		if s.IsPending() {
			if r.Priority == 0 {
				n.Reason = uint32(states.WaitHeld)
			} else if states.Reason(n.Reason) == states.WaitHeld || states.Reason(n.Reason) == states.WaitHeldUser {
				n.Reason = uint32(states.WaitNoReason)
			}
		}
	}
	return 0
}

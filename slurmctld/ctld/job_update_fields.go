package ctld

import (
	"time"

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
// errno that refuses the whole update. With kept, the update stands and the errno is still
// the reply: Slurm's update_job checks the job against its partition's access and limits
// after changing it (job_limits_check) and reports a job that can no longer run there as
// ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE without undoing anything.
func (c *Controller) updateFields(n *jobRecord, r *wire.UpdateJobRequest, priv bool, now int64) (errno int32, kept bool) {
	if errno = c.setFields(n, r, priv, now); errno != 0 {
		return errno, false
	}
	return c.partStillUsable(n, now)
}

// partStillUsable is update_job's closing job_limits_check on updated job n: 0, or
// ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE (kept) when n can no longer run in its partition
// for a reason other than its limits.
func (c *Controller) partStillUsable(n *jobRecord, now int64) (errno int32, kept bool) {
	p := c.t.parts[n.Partition]
	if p == nil { // gone with a reconfigure: the cycle says PartitionDown
		return 0, false
	}
	switch c.partLimitReason(n, p, time.Unix(now, 0)) { // part_access.go
	case states.WaitNoReason, states.WaitPartTimeLimit, states.WaitPartNodeLimit:
		return 0, false
	}
	return errnoPartConfigUnavail, true
}

// setFields is updateFields' field by field part.
func (c *Controller) setFields(n *jobRecord, r *wire.UpdateJobRequest, priv bool, now int64) int32 {
	s := n.state()
	if s.IsFinished() {
		return errnoJobFinished
	}
	samePart := r.Partition != nil && *r.Partition == n.Partition // a no-op Slurm allows at any time
	// NumNodes of a running job shrinks it (job_resize.go); of a pending one, sets its request.
	resize := r.MinNodes != wire.NoVal && (s.IsRunning() || s.IsSuspended()) && !s.IsCompleting()
	pendingOnly := r.Partition != nil && !samePart || r.MinNodes != wire.NoVal && !resize || r.BeginTime != 0 || r.Dependency != nil
	if pendingOnly && !s.IsPending() {
		return errnoJobNotPending
	}
	if r.Name != nil {
		n.editDesc(func(d *wire.JobDesc) { d.Name = *r.Name })
	}
	if r.Comment != nil {
		n.editDesc(func(d *wire.JobDesc) { d.Comment = *r.Comment })
	}
	if r.MailType != nil {
		n.editDesc(func(d *wire.JobDesc) { d.MailType = *r.MailType })
	}
	if r.MailUser != nil {
		// "" goes back to the job's user (at MailDomain), as Slurm's _get_mail_user.
		n.editDesc(func(d *wire.JobDesc) { d.MailUser = *r.MailUser })
	}
	// An empty value always applies: it turns a job's (null) into Slurm's empty string.
	if r.Licenses != nil && (*r.Licenses != n.descStr(descLicenses) || *r.Licenses == "" && !n.descFlag(descLicensesEmpty)) {
		if errno := c.updateLicenses(n, *r.Licenses, priv); errno != 0 { // licenses.go
			return errno
		}
	}
	if r.Reservation != nil && *r.Reservation != n.descStr(descReservation) {
		if !s.IsPending() && !s.IsRunning() {
			return errnoNotPendingNorRunning
		}
		if errno := c.t.resvAccess(*r.Reservation, n.UserID, n.descStr(descAccount)); errno != 0 { // resv_jobs.go
			return errno
		}
		n.editDesc(func(d *wire.JobDesc) { d.Reservation = *r.Reservation })
	}
	if r.TimeLimit != wire.NoVal {
		increase := n.TimeLimit != wire.Infinite && (r.TimeLimit == wire.Infinite || r.TimeLimit > n.TimeLimit)
		if increase && !priv {
			return errnoAccessDenied
		}
		n.TimeLimit = r.TimeLimit
		n.editDesc(func(d *wire.JobDesc) { d.TimeLimit = r.TimeLimit })
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
		n.Partition = p.conf.Name
		n.editDesc(func(d *wire.JobDesc) { d.Partition = p.conf.Name })
		c.applyMemLimits(n, p) // the new partition's memory default and limit (job_memory.go)
	}
	if resize {
		if errno := shrinkJob(n, r.MinNodes, now); errno != 0 {
			return errno
		}
	} else if r.MinNodes != wire.NoVal {
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
		n.editDesc(func(d *wire.JobDesc) { d.BeginTime = r.BeginTime })
		n.EligibleTime = max(r.BeginTime, now)
	}
	if r.Dependency != nil {
		if err := checkDependency(*r.Dependency); err != nil {
			return errnoDependency
		}
		n.editDesc(func(d *wire.JobDesc) { d.Dependency = *r.Dependency })
	}
	if r.NiceSet {
		if r.Nice < 0 && !priv {
			return errnoAccessDenied
		}
		n.editDesc(func(d *wire.JobDesc) { d.Nice = r.Nice })
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

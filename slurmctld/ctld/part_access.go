package ctld

import (
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Partition access and limits as Slurm 22.05 checks them (_part_access_check, _valid_job_part,
// job_limits_check): who may use a partition (ReqResv, RootOnly, DisableRootJobs,
// AllowGroups, AllocNodes) and whether a job's CPUs, node count and time limit fit it. At
// submit an access refusal always refuses the job; a limit refuses it only under
// EnforcePartLimits=ANY or ALL, otherwise the job pends. The scheduling cycle runs the same
// check on every pending job: a failed limit becomes PartitionTimeLimit or
// PartitionNodeLimit, anything else PartitionConfig. The partition's accounts and QOS lists
// are not checked: without associations Slurm does not check them either.

const (
	errnoPartGroup         = 2003 // ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP
	errnoTooManyCPUs       = 2005 // ESLURM_TOO_MANY_REQUESTED_CPUS
	errnoPartitionNotAvail = 2070 // ESLURM_PARTITION_NOT_AVAIL
)

func init() {
	errnoTexts[errnoPartGroup] = "User's group not permitted to use this partition"
	errnoTexts[errnoTooManyCPUs] = "More processors requested than permitted"
	errnoTexts[errnoPartitionNotAvail] = "Required partition not available (inactive or drain)"
}

// partRequest is what the check examines of a job, from its description at submit or its
// record later. NoVal marks what was not given.
type partRequest struct {
	uid         uint32 // the job's user
	submitUID   uint32 // who asks: RootOnly is theirs to pass (the job's user after submission, as in Slurm)
	allocNode   string // the submit host
	reservation string
	minCPUs     uint32
	minNodes    uint32
	maxNodes    uint32
	timeLimit   uint32 // minutes; Infinite for none
}

// accessRefusal says whether errno refuses a job whatever EnforcePartLimits says.
func accessRefusal(errno int32) bool {
	return errno == errnoAccessDenied || errno == errnoUserIDMissing || errno == errnoPartGroup
}

// slurmUser is Slurm's validate_slurm_user: root and SlurmUser (and the controller's own
// uid, which stands for SlurmUser when it runs unprivileged).
func (c *Controller) slurmUser(uid uint32) bool {
	return uid == 0 || uid == c.slurmUID || uid == c.selfUID
}

// partAccess is Slurm's _part_access_check: 0, or the errno that keeps r out of p. A user
// whose groups are not cached yet is refused and looked up in the background (the cycle
// runs again when that is done); the submit and update handlers look users up first.
// Called with c.mu held (read or write).
func (c *Controller) partAccess(p *partEntry, r partRequest, now time.Time) int32 {
	cf := p.conf
	if cf.ReqResv && r.reservation == "" {
		return errnoAccessDenied
	}
	if cf.RootOnly && !c.slurmUser(r.submitUID) {
		return errnoAccessDenied
	}
	if r.uid == 0 && (cf.DisableRootJobs || c.config().DisableRootJobs) {
		return errnoUserIDMissing
	}
	if cf.AllowGroups != "" && !c.slurmUser(r.uid) {
		in, known := c.groups.inAny(r.uid, cf.AllowGroups, now)
		if !known {
			c.groups.loadInBackground(r.uid, c.t.partGroupNames(), now, c.wake)
		}
		if !in {
			return errnoPartGroup
		}
	}
	if !allocNodeAllowed(cf.AllocNodes, r.allocNode) {
		return errnoAccessDenied
	}
	// Limits apply where the partition schedules (UP or DRAIN), as in Slurm.
	if cf.State != "" && !strings.EqualFold(cf.State, "UP") && !strings.EqualFold(cf.State, "DRAIN") {
		return 0
	}
	nodes := uint64(len(p.nodes))
	if r.minCPUs != wire.NoVal {
		if r.minCPUs > p.cpus {
			return errnoTooManyCPUs
		}
		if cf.MaxCPUsPerNode != wire.Infinite && uint64(r.minCPUs) > uint64(cf.MaxCPUsPerNode)*nodes {
			return errnoTooManyCPUs
		}
	}
	switch {
	case r.minNodes != wire.NoVal && uint64(r.minNodes) > nodes,
		r.minNodes != wire.NoVal && r.minNodes < cf.MinNodes,
		r.maxNodes != wire.NoVal && cf.MaxNodes != wire.Infinite && r.maxNodes > cf.MaxNodes:
		return errnoInvalidNodeCount
	case r.timeLimit != wire.NoVal && cf.MaxTime != wire.Infinite && r.timeLimit > cf.MaxTime:
		return errnoInvalidTimeLimit
	}
	return 0
}

// allocNodeAllowed is Slurm's validate_alloc_node: AllocNodes (unset or ALL for any host)
// must name the host the job was submitted from.
func allocNodeAllowed(allocNodes, host string) bool {
	if allocNodes == "" || strings.EqualFold(allocNodes, "ALL") {
		return true
	}
	if host == "" {
		return false
	}
	names, err := hostlist.Expand(allocNodes)
	if err != nil {
		return false
	}
	for _, n := range names {
		if n == host {
			return true
		}
	}
	return false
}

// partLimitReason is job_limits_check's verdict on pending job j in its partition p:
// WaitNoReason, or why p will not run it as things are.
func (c *Controller) partLimitReason(j *jobRecord, p *partEntry, now time.Time) states.Reason {
	switch c.partAccess(p, j.partRequest(), now) {
	case 0:
		return states.WaitNoReason
	case errnoInvalidTimeLimit:
		return states.WaitPartTimeLimit
	case errnoInvalidNodeCount:
		return states.WaitPartNodeLimit
	default:
		return states.WaitPartConfig
	}
}

// partRequest is what partAccess examines of j's record.
func (j *jobRecord) partRequest() partRequest {
	r := partRequest{
		uid: j.UserID, submitUID: j.UserID, allocNode: j.descStr(descSubmitHost), reservation: j.descStr(descReservation),
		minCPUs: j.NumTasks * j.CPUsPerTask, minNodes: j.MinNodes, maxNodes: wire.NoVal,
		timeLimit: j.TimeLimit,
	}
	if j.MaxNodes != 0 {
		r.maxNodes = j.MaxNodes
	}
	if uint32(j.descUint(descTimeLimit)) == wire.NoVal && strings.Contains(j.descStr(descPartition), ",") {
		// No --time and several partitions: the limit is the one it runs in (startChange),
		// as Slurm leaves it unset until then.
		r.timeLimit = wire.NoVal
	}
	return r
}

// checkJobParts is Slurm's _valid_job_part at submit: the job's partitions (parts, several
// for -p a,b) against its request r, its time-min (NoVal for none) and the first
// partition's DefaultTime. It returns 0 or the errno refusing the job.
func (c *Controller) checkJobParts(parts []*partEntry, r partRequest, timeMin uint32, now time.Time) int32 {
	enforce := c.config().EnforcePartLimits
	var minOrig, maxOrig, maxTime uint32
	if len(parts) > 1 {
		minOrig, maxOrig = wire.Infinite, 1
		var fail int32
		usable := false
		for _, p := range parts {
			rc := c.partAccess(p, r, now)
			if rc != 0 && (accessRefusal(rc) || enforce == "ALL") {
				fail = rc
				break
			} else if rc != 0 {
				fail = rc
			} else {
				usable = true
			}
			if usable && enforce == "ANY" {
				fail = 0
			}
			minOrig, maxOrig = min(minOrig, p.conf.MinNodes), max(maxOrig, p.conf.MaxNodes)
			maxTime = max(maxTime, p.conf.MaxTime)
		}
		if enforce != "NO" && fail != 0 {
			switch {
			case enforce == "ALL", enforce == "ANY" && !usable:
				return fail
			default:
				return errnoPartitionNotAvail
			}
		}
	} else {
		p := parts[0]
		minOrig, maxOrig, maxTime = p.conf.MinNodes, p.conf.MaxNodes, p.conf.MaxTime
		if rc := c.partAccess(p, r, now); rc != 0 && (accessRefusal(rc) || enforce != "NO") {
			return rc
		}
	}
	enforced := enforce != "NO"
	switch {
	case r.minNodes != wire.NoVal && r.minNodes > maxOrig && enforced,
		r.maxNodes != wire.NoVal && r.maxNodes < minOrig && enforced:
		return errnoInvalidNodeCount
	}
	limit := r.timeLimit
	if def := parts[0].conf.DefaultTime; limit == wire.NoVal {
		if def == 0 {
			return errnoInvalidTimeLimit // "job's default time is 0"
		}
		limit = def
	}
	switch {
	case timeMin != wire.NoVal && timeMin > maxTime:
		return errnoInvalidTimeMinLimit
	case limit != wire.NoVal && limit > maxTime && timeMin == wire.NoVal && enforced:
		return errnoInvalidTimeLimit
	case timeMin != wire.NoVal && limit != wire.NoVal && timeMin > limit:
		return errnoInvalidTimeMinLimit
	}
	return 0
}

// checkSubmitParts runs checkJobParts for new job j (its defaults applied, not yet its
// partition's, its owner set) submitted by id to the partitions named, then raises j's node count to the
// partitions' MinNodes where its maximum allows, as Slurm's _valid_job_part does.
func (c *Controller) checkSubmitParts(d *wire.JobDesc, id *wire.Identity, j *jobRecord, names []string, now int64) error {
	parts := make([]*partEntry, 0, len(names))
	for _, n := range names {
		parts = append(parts, c.t.parts[strings.TrimSpace(n)])
	}
	// AllocNodes is checked against the client's own host name, where Slurm checks the
	// resolved AllocNode (alloc_node.go): a site's AllocNodes lists short login-node names,
	// which the client's name always is and a resolver's answer may not be.
	r := partRequest{uid: j.UserID, submitUID: id.UID, allocNode: d.SubmitHost, reservation: d.Reservation,
		minCPUs: j.NumTasks * j.CPUsPerTask, minNodes: wire.NoVal, maxNodes: wire.NoVal, timeLimit: d.TimeLimit}
	if d.MinNodes != wire.NoVal && d.MinNodes != 0 || d.ReqNodes != "" {
		r.minNodes = j.MinNodes
	}
	if j.MaxNodes != 0 {
		r.maxNodes = j.MaxNodes
	}
	timeMin := d.TimeMin
	if timeMin == 0 {
		timeMin = wire.NoVal
	}
	if errno := c.checkJobParts(parts, r, timeMin, time.Unix(now, 0)); errno != 0 {
		return slurmErr(errno)
	}
	least := parts[0].conf.MinNodes
	for _, p := range parts[1:] {
		least = min(least, p.conf.MinNodes)
	}
	if least > j.MinNodes && (j.MaxNodes == 0 || j.MaxNodes >= least) {
		j.MinNodes = least
		j.NumTasks = max(j.NumTasks, j.MinNodes)
	}
	return nil
}

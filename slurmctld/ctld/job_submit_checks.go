package ctld

import (
	"cmp"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// Reservations, licenses and features checked at submit. A job naming a reservation must
// name one that exists and admits its user or account (resv_jobs.go). Licenses are checked
// against slurm.conf's (licenses.go).

const (
	errnoInvalidLicenses    = 2048 // ESLURM_INVALID_LICENSES
	errnoReservationInvalid = 2053 // ESLURM_RESERVATION_INVALID
)

func init() {
	errnoTexts[errnoInvalidLicenses] = "Invalid license specification"
	errnoTexts[errnoReservationInvalid] = "Requested reservation is invalid"
}

// checkResvLicenses refuses a job's --reservation and --licenses as described above.
func (c *Controller) checkResvLicenses(d *wire.JobDesc, uid uint32) error {
	if err := c.checkJobLicenses(d.Licenses); err != nil { // licenses.go
		return err
	}
	if errno := c.t.resvAccess(d.Reservation, uid, d.Account); errno != 0 {
		return slurmErr(errno)
	}
	return nil
}

const (
	errnoInvalidFeature = 2029 // ESLURM_INVALID_FEATURE
	errnoInvalidPrefer  = 2131 // ESLURM_INVALID_PREFER
)

func init() {
	errnoTexts[errnoInvalidFeature] = "Invalid feature specification"
	errnoTexts[errnoInvalidPrefer] = "Invalid preferred feature specification"
}

// checkFeatures refuses a --constraint that does not parse, or that names a feature no node
// of the cluster has, as Slurm's _valid_feature_list does at submit.
func (t *tables) checkFeatures(constraint string) error {
	if strings.TrimSpace(constraint) == "" {
		return nil
	}
	c, err := selection.ParseConstraint(constraint)
	if err != nil {
		return slurmErr(errnoInvalidFeature)
	}
	for _, f := range constraintNames(c) {
		found := false
		for _, n := range t.nodes {
			if slices.Contains(n.features(), f) {
				found = true
				break
			}
		}
		if !found {
			return slurmErr(errnoInvalidFeature)
		}
	}
	return nil
}

// constraintNames are the feature names a parsed --constraint mentions.
func constraintNames(c selection.Constraint) []string {
	names := slices.Clone(c.Match)
	for _, and := range c.Any {
		names = append(names, and...)
	}
	return names
}

// reqHas says whether the --nodelist expression names node.
func reqHas(reqNodes, node string) bool {
	if reqNodes == "" {
		return false
	}
	req, err := hostlist.Expand(reqNodes)
	return err == nil && slices.Contains(req, node)
}

// placeableEver is the test Slurm's job_allocate makes of a new job that is not held and
// that its partition's limits allow: were every node idle, could a selection place it? A
// job needing more CPUs on one node than any node has is refused with Slurm's "CPU count per
// node can not be satisfied", and one with fewer nodes left than it needs (after --exclude
// and --constraint, and for --exclusive the nodes larger than MaxCPUsPerNode) with
// "Requested node configuration is not available".
func (t *tables) placeableEver(j *jobRecord, p *partEntry) error {
	if perNode := j.minCPUsPerNode(); perNode > p.maxNodeCPUs {
		e := slurmErr(errnoNodeConfigUnavail)
		e.UserMsg = "CPU count per node can not be satisfied"
		return e
	}
	var exc []string
	if l := j.descStr(descExcNodes); l != "" {
		exc, _ = hostlist.Expand(l)
	}
	c, _ := selection.ParseConstraint(j.descStr(descConstraint)) // checked before (checkFeatures)
	limit := p.conf.MaxCPUsPerNode
	var n uint32
	var caps []uint32 // tasks each usable node could take were it idle
	threads := false  // some node has the threads per core the job asks for
	for _, name := range p.nodes {
		node := t.nodes[name]
		if j.Exclusive && limit != 0 && limit != wire.Infinite && node.cpus() > limit {
			continue // a whole node is more CPUs than MaxCPUsPerNode lets the partition use
		}
		if slices.Contains(exc, name) || !c.MatchesSome(node.activeFeatures()) {
			continue
		}
		n++
		caps = append(caps, t.idleTasks(j, node))
		_, ok := j.coresOn(node)
		threads = threads || ok
	}
	if n < j.MinNodes {
		return slurmErr(errnoNodeConfigUnavail)
	}
	if !threads {
		e := slurmErr(errnoNodeConfigUnavail)
		e.UserMsg = "Socket, core and/or thread specification can not be satisfied"
		return e
	}
	// The tasks must fit on the nodes the job may have (the most capable ones first): on
	// nodes with several threads per core a task takes whole cores, so the CPU count alone
	// (fitsEver) can promise room that is not there.
	slices.SortFunc(caps, func(a, b uint32) int { return cmp.Compare(b, a) })
	if j.MaxNodes != 0 && uint32(len(caps)) > j.MaxNodes {
		caps = caps[:j.MaxNodes]
	}
	var tasks uint64
	for _, c := range caps {
		tasks += uint64(c)
	}
	if tasks < uint64(j.NumTasks) {
		return slurmErr(errnoNodeConfigUnavail)
	}
	return nil
}

// idleTasks is how many tasks of j node could take were it idle, within j's
// --ntasks-per-node and --mincpus. A partition's MaxCPUsPerNode is not counted: a job over
// it pends (PartitionConfig, part_access.go) rather than being refused.
func (t *tables) idleTasks(j *jobRecord, node *nodeEntry) uint32 {
	cores, ok := j.coresOn(node)
	if !ok {
		return 0
	}
	free := node.cpus()
	if cores.Usable(free) < uint32(j.descUint(descMinCPUs)) {
		return 0
	}
	n := cores.Tasks(free)
	if j.TasksPerNod > 0 {
		n = min(n, j.TasksPerNod)
	}
	return n
}

package ctld

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// verifyStart checks one plan entry against the tables as they are now, counting the starts
// this plan already applied (apply updates the nodes' allocations at once), and returns the
// job and the allocation to start it with. A plugin proposes; only what still holds here is
// applied, so a faulty or stale plan can never double-book a node, exceed a partition's
// limits or start a job the controller does not consider eligible. done holds the jobs this
// plan started already. Called with c.mu held.
func (c *Controller) verifyStart(s scheduler.Start, now int64, running *inUse, done map[uint32]bool) (*jobRecord, allocation, error) {
	j := c.t.jobs[s.JobID]
	switch {
	case j == nil:
		return nil, allocation{}, fmt.Errorf("no such job")
	case done[s.JobID]:
		return nil, allocation{}, fmt.Errorf("started already in this plan")
	case !j.state().IsPending() || j.state().IsCompleting():
		return nil, allocation{}, fmt.Errorf("job is %s, not pending", j.state())
	}
	r, _, parts := c.eligibility(j, now, running)
	if r != states.WaitNoReason {
		return nil, allocation{}, fmt.Errorf("job is not eligible: %s", r)
	}
	chosen := s.Partition
	switch {
	case parts == nil && chosen != "" && chosen != j.Partition:
		return nil, allocation{}, fmt.Errorf("partition %s is not the job's (%s)", chosen, j.Partition)
	case parts != nil && chosen == "":
		chosen = parts[0]
	case parts != nil && !slices.Contains(parts, chosen):
		return nil, allocation{}, fmt.Errorf("partition %s is not one the job may start in now (%s)", chosen, strings.Join(parts, ","))
	}
	part := c.t.parts[cmp.Or(chosen, j.Partition)]
	resv := j.descStr(descReservation)
	if s.Reservation != "" {
		if err := c.t.magneticStart(j, s.Reservation, now); err != nil { // resv_magnetic.go
			return nil, allocation{}, err
		}
		resv = s.Reservation
	}
	if err := c.t.resvBarsIn(j, resv, part, s.Nodes, now); err != nil { // resv_jobs.go
		return nil, allocation{}, err
	}
	n := uint32(len(s.Nodes))
	switch {
	case n == 0:
		return nil, allocation{}, fmt.Errorf("no nodes")
	case len(s.CPUs) != len(s.Nodes):
		return nil, allocation{}, fmt.Errorf("%d nodes but %d CPU counts", len(s.Nodes), len(s.CPUs))
	case n < j.MinNodes:
		return nil, allocation{}, fmt.Errorf("%d nodes, job needs at least %d", n, j.MinNodes)
	case j.MaxNodes != 0 && n > j.MaxNodes:
		return nil, allocation{}, fmt.Errorf("%d nodes, job allows at most %d", n, j.MaxNodes)
	case part.conf.MaxNodes != wire.Infinite && n > part.conf.MaxNodes:
		return nil, allocation{}, fmt.Errorf("%d nodes exceed partition %s MaxNodes=%d", n, part.conf.Name, part.conf.MaxNodes)
	}
	minCPUs := uint32(j.descUint(descMinCPUs)) // --mincpus
	var req, exc []string
	if l := j.descStr(descReqNodes); l != "" {
		req, _ = hostlist.Expand(l)
	}
	if l := j.descStr(descExcNodes); l != "" {
		exc, _ = hostlist.Expand(l)
	}
	for _, r := range req {
		if !slices.Contains(s.Nodes, r) {
			return nil, allocation{}, fmt.Errorf("requested node %s (--nodelist) not in the allocation", r)
		}
	}
	cpt := max(j.CPUsPerTask, 1)
	a := allocation{}
	var total uint32
	shares := c.t.sharesCPUs(j, part.conf.Name) // select_share.go
	var shareNodes []*nodeEntry
	var shareHeld []uint32
	for i, name := range s.Nodes {
		node := c.t.nodes[name]
		cpus := s.CPUs[i]
		var cores selection.Cores
		var held uint32
		servable := false
		if node != nil {
			cores, servable = j.coresOn(node)
			held = c.t.heldOn(j, node, cpus) // whole cores (select_cores.go)
			if c.t.wholeCores {
				cpus = held // under CR_Core the job's CPUs are its cores', whatever the plan said
			}
		}
		switch {
		case node == nil:
			return nil, allocation{}, fmt.Errorf("unknown node %s", name)
		case !servable:
			return nil, allocation{}, fmt.Errorf("node %s has %d threads per core, job asks for %d", name, node.tpc(), j.threadsPerCore())
		case slices.Contains(s.Nodes[:i], name):
			return nil, allocation{}, fmt.Errorf("node %s named twice", name)
		case !inList(part.nodes, name):
			return nil, allocation{}, fmt.Errorf("node %s is not in partition %s", name, part.conf.Name)
		case inList(exc, name):
			return nil, allocation{}, fmt.Errorf("node %s is excluded (--exclude)", name)
		case !node.usable():
			return nil, allocation{}, fmt.Errorf("node %s is %s", name, node.displayState())
		case node.exclusive > 0:
			return nil, allocation{}, fmt.Errorf("node %s is held by an exclusive job", name)
		case j.Exclusive && node.jobs > 0 && !shares:
			return nil, allocation{}, fmt.Errorf("exclusive job on node %s, which runs jobs", name)
		case shares && node.jobs > node.shareJobs:
			return nil, allocation{}, fmt.Errorf("node %s runs jobs that do not share CPUs", name)
		case !shares && node.sharedByOthers(part.conf.Name):
			return nil, allocation{}, fmt.Errorf("node %s runs jobs of another partition that share CPUs", name)
		case !c.t.servesUser(node, j, part):
			return nil, allocation{}, fmt.Errorf("node %s is kept to another user's jobs (--exclusive=user, ExclusiveUser)", name)
		case j.Exclusive && cpus != node.cpus():
			return nil, allocation{}, fmt.Errorf("exclusive job given %d of node %s's %d CPUs", cpus, name, node.cpus())
		case cpus < cpt || cores.Tasks(held) == 0:
			return nil, allocation{}, fmt.Errorf("%d CPUs on node %s, less than one task's %d", cpus, name, cpt)
		case cpus < minCPUs:
			return nil, allocation{}, fmt.Errorf("%d CPUs on node %s, less than --mincpus=%d", cpus, name, minCPUs)
		case !shares && node.busyCPUs()+held > node.cpus():
			return nil, allocation{}, fmt.Errorf("node %s over-allocated: %d CPUs in use + %d > %d", name, node.busyCPUs(), held, node.cpus())
		case held > node.partRoom(part):
			return nil, allocation{}, fmt.Errorf("%d CPUs on node %s exceed what partition %s's MaxCPUsPerNode=%d leaves (%d)", held, name, part.conf.Name, part.conf.MaxCPUsPerNode, node.partRoom(part))
		case j.TasksPerNod > 0 && cores.Tasks(held) < j.TasksPerNod:
			return nil, allocation{}, fmt.Errorf("%d CPUs on node %s, less than --ntasks-per-node=%d tasks' %d", cpus, name, j.TasksPerNod, j.TasksPerNod*cpt)
		case j.TasksPerNod > 0 && !j.Exclusive && cpus > cores.CPUs(c.t.wholeCores, j.TasksPerNod, minCPUs):
			return nil, allocation{}, fmt.Errorf("%d CPUs on node %s exceed --ntasks-per-node=%d", cpus, name, j.TasksPerNod)
		}
		if c.trackMem {
			a.mem = max(a.mem, j.memPerNode(cores.UsedCPUs(c.t.wholeCores, cpus, j.threadsPerCore())))
		}
		// The devices are the controller's choice, from its own tables (gres.go), whatever
		// the plan counted.
		if len(j.Gres) > 0 {
			tk, ok := node.assignGres(j)
			if !ok {
				return nil, allocation{}, fmt.Errorf("node %s GRES over-allocated: %s in use, job needs %s", name, gresUsedString(node.gres), j.descStr(descGres))
			}
			a.gres = append(a.gres, tk)
		}
		total += cores.Tasks(held)
		shareNodes, shareHeld = append(shareNodes, node), append(shareHeld, held)
		a.nodes = append(a.nodes, name)
		a.cpus = append(a.cpus, cpus)
	}
	if total < j.NumTasks {
		return nil, allocation{}, fmt.Errorf("room for %d tasks of %d CPUs, job needs %d", total, cpt, j.NumTasks)
	}
	if shares {
		if _, ok := c.t.pickRow(part.conf.Name, shareNodes, shareHeld, j.Exclusive); !ok {
			return nil, allocation{}, fmt.Errorf("no row of partition %s (OverSubscribe=%s) has room for the job on its nodes", part.conf.Name, part.conf.OverSubscribe)
		}
	}
	// The memory counted is the controller's, from the request (as selection counts it: the
	// largest per-node need on every node), whatever Mem the plan says.
	for _, name := range a.nodes {
		if node := c.t.nodes[name]; a.mem > 0 && node.allocMem+a.mem > node.conf.RealMemory {
			return nil, allocation{}, fmt.Errorf("node %s memory over-allocated: %d MiB in use + %d > %d", name, node.allocMem, a.mem, node.conf.RealMemory)
		}
	}
	if part.conf.Name != j.Partition {
		a.partition = part.conf.Name
	}
	a.magnetic = s.Reservation
	return j, a, nil
}

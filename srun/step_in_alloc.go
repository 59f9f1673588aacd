package main

import (
	"fmt"
	"slices"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// stepInAllocation settles a step's nodes and tasks inside an allocation as Slurm's srun
// does before it asks for the step (job_step_create_allocation, then _set_ntasks and
// _job_create_structure): --exclude becomes a node list, the node count the step may use
// is the allocation's cut to -N's maximum (else its minimum), the tasks default to that
// count (or to --ntasks-per-node per node, or with -c to what the allocation's CPUs hold),
// and a minimum above the nodes left stops srun. It returns false after printing why srun
// stops.
func stepInAllocation(o *options, info *wire.JobAllocInfo, say func(string)) bool {
	var nnodes int
	if o.spec != nil && o.spec.Exclude != "" {
		if nnodes = excludeInAllocation(o, info.Nodes, say); nnodes < 0 {
			return false
		}
	} else {
		nnodes = len(slices.Compact(slices.Clone(info.Nodes)))
		defaultStepNodes(o, nnodes)
		nnodes = capNodes(o, nnodes)
	}
	if o.spec == nil || o.spec.TaskNodes == nil { // an arbitrary layout counted its tasks
		setStepTasks(o, info.CPUsPerNode, nnodes)
	}
	if o.nodesSet && o.nodes > 0 && nnodes > 0 && int(o.nodes) > nnodes {
		say(fmt.Sprintf("Only allocated %d nodes asked for %d", nnodes, o.nodes))
		if o.spec != nil && o.spec.Exclude != "" {
			say("Are required nodes explicitly excluded?")
		}
		return false
	}
	return true
}

// defaultStepNodes gives a step without -N its minimum node count: every node it may use,
// or one per task when it has fewer tasks (Slurm's _set_min_node_count).
func defaultStepNodes(o *options, nnodes int) {
	if o.nodesSet {
		return
	}
	o.nodes = uint32(nnodes)
	if o.ntasksSet && o.ntasks < uint32(nnodes) {
		o.nodes = o.ntasks
	}
	o.nodesSet = true
	if o.spec != nil {
		o.spec.MinNodes, o.spec.NodesSet = o.nodes, true
	}
}

// capNodes is the node count a step of nnodes available nodes may use: -N's maximum, else
// its minimum, when lower.
func capNodes(o *options, nnodes int) int {
	most := 0
	if o.spec != nil {
		most = int(o.spec.MaxNodes)
	}
	if most == 0 {
		most = int(o.nodes)
	}
	if most > 0 && most < nnodes {
		return most
	}
	return nnodes
}

// setStepTasks is Slurm's _set_ntasks: without -n a step has a task per node it may use,
// or --ntasks-per-node's per node, or, with -c, as many tasks as the allocation's CPUs hold
// (on all its nodes, even when the step may use fewer), never fewer than the nodes.
func setStepTasks(o *options, cpusPerNode []uint32, nnodes int) {
	if o.ntasksSet {
		return
	}
	cnt := 0
	switch {
	case o.tasksPerNode > 0:
		cnt = nnodes * int(o.tasksPerNode)
		o.ntasksSet = true
	case o.cpusPerTask > 0:
		for _, c := range cpusPerNode {
			cnt += int(c / o.cpusPerTask)
		}
		o.ntasksSet = true
	}
	o.ntasks = uint32(max(cnt, nnodes))
	if o.ntasksSet && o.spec != nil {
		o.spec.NTasks = o.ntasks
	}
}

// excludeInAllocation turns --exclude, for a step inside an allocation, into the step's
// node list: the allocation's nodes without the excluded ones (a name outside the
// allocation changes nothing), cut to the step's maximum node count, or, with --nodelist
// too, the listed nodes topped up from the rest to that count. Without -N the step takes
// every node left, or one per task when there are fewer tasks. It returns the node count
// the step may use, or -1 after printing why srun stops.
func excludeInAllocation(o *options, allocNodes []string, say func(string)) int {
	hosts := slices.Compact(slices.Clone(allocNodes)) // hostlist_uniq: each node once
	nnodes := len(hosts)
	var listed []string
	if o.nodelist != "" {
		listed = mustExpand(o.nodelist)
	}
	for _, name := range mustExpand(o.spec.Exclude) {
		if i := slices.Index(hosts, name); i >= 0 {
			hosts = slices.Delete(hosts, i, i+1)
			nnodes--
		}
		if slices.Contains(listed, name) {
			say(fmt.Sprintf("Requested node %s is also in the excluded list.", name))
			say("Job not submitted.")
			return -1
		}
	}
	defaultStepNodes(o, nnodes)
	nnodes = capNodes(o, nnodes)
	if len(hosts) == 0 {
		say("Hostlist is empty!  Can't run job.")
		return -1
	}
	if listed != nil {
		for _, name := range hosts {
			if len(listed) >= nnodes {
				break
			}
			if !slices.Contains(listed, name) {
				listed = append(listed, name)
			}
		}
		o.nodelist = hostlist.Compress(listed)
	} else {
		o.nodelist = hostlist.Compress(hosts[:min(len(hosts), max(nnodes, 0))])
	}
	o.spec.NodeList = o.nodelist
	return nnodes
}

package ctld

import "fmt"

// stepLayout places a step's tasks on the job's nodes with block distribution, as srun's
// default: the step uses nodes from the start of the allocation (minNodes of them, or as many
// as it has tasks, at most the job's), every node gets at least one task, the tasks are
// spread evenly (the first nodes take the remainder) within each node's CPUs, and ranks are
// numbered node by node. With plane > 0 (--distribution=plane) the same nodes take
// planeCounts' shares instead (srun numbers the ranks). cpus are the job's CPUs on each node; cpt is CPUs per task. With
// overcommit (-O) a node with a CPU takes any number of tasks. It returns the number
// of nodes used and the tasks on each, or an error text of Slurm's.
func stepLayout(cpus []uint32, numTasks, minNodes, tasksPerNode, cpt uint32, overcommit bool, plane uint32) ([]uint32, error) {
	if cpt == 0 {
		cpt = 1
	}
	total := uint32(len(cpus))
	if total == 0 {
		return nil, fmt.Errorf("the job has no nodes")
	}
	if minNodes > total {
		return nil, errStepNodes
	}
	nodes := minNodes
	if numTasks == 0 {
		if nodes == 0 {
			nodes = total
		}
		numTasks = nodes
		if tasksPerNode > 0 {
			numTasks = nodes * tasksPerNode
		}
	}
	if nodes == 0 {
		nodes = min(total, numTasks)
		if tasksPerNode > 0 {
			nodes = min(total, (numTasks+tasksPerNode-1)/tasksPerNode)
		}
	}
	if numTasks < nodes {
		return nil, errStepTasks
	}
	capOf := func(i uint32) uint32 {
		c := cpus[i] / cpt
		if overcommit && cpus[i] > 0 {
			c = numTasks // any CPU takes every task, whatever -c asks
		}
		if tasksPerNode > 0 {
			c = min(c, tasksPerNode)
		}
		return c
	}
	var capacity uint32
	for i := range nodes {
		capacity += capOf(i)
	}
	if capacity < numTasks {
		return nil, errStepCPUs
	}
	if plane > 0 {
		caps := make([]uint32, nodes)
		for i := range caps {
			caps[i] = capOf(uint32(i))
		}
		return planeCounts(caps, numTasks, plane), nil
	}
	tasks := make([]uint32, nodes)
	left := numTasks
	// Even shares first, then whatever the shares could not hold, node by node.
	for i := range nodes {
		share := numTasks / nodes
		if i < numTasks%nodes {
			share++
		}
		tasks[i] = min(share, capOf(i))
		left -= tasks[i]
	}
	for i := uint32(0); left > 0 && i < nodes; i++ {
		add := min(left, capOf(i)-tasks[i])
		tasks[i] += add
		left -= add
	}
	for _, t := range tasks {
		if t == 0 {
			return nil, errStepCPUs
		}
	}
	return tasks, nil
}

// planeCounts is how many tasks each node takes under --distribution=plane=plane, as Slurm's
// _task_layout_plane counts them: one task on every node first, then blocks of plane tasks
// node by node in turn (the first round's blocks one short), each node up to caps[i]; a
// round that places nothing lets the next ones go beyond (never reached: the step's
// capacity was checked).
func planeCounts(caps []uint32, numTasks, plane uint32) []uint32 {
	tasks := make([]uint32, len(caps))
	var placed uint32
	for i := range tasks {
		if placed < numTasks {
			tasks[i]++
			placed++
		}
	}
	over := false
	for round := 0; placed < numTasks; round++ {
		first := uint32(0)
		if round == 0 {
			first = 1 // the task placed above opens the node's first block
		}
		any := false
		for i := range tasks {
			for k := first; k < plane && placed < numTasks; k++ {
				if tasks[i] != caps[i] || over {
					tasks[i]++
					placed++
					any = true
				}
			}
		}
		over = over || !any
	}
	return tasks
}

// stepRequest is what a step asks of its job's allocation.
type stepRequest struct {
	numTasks, minNodes, tasksPerNode, cpt uint32
	exact, overlap                        bool
	// overcommit lets tasks share CPUs (srun -O); Slurm does not overcommit an --exact step.
	overcommit bool
	// plane is --distribution=plane=<size>'s size, 0 for the other distributions (block).
	plane uint32
}

// stepAlloc is where a step runs: its nodes, the tasks and the CPUs it holds on each, and
// whether it overlaps (holds nothing other steps must wait for).
type stepAlloc struct {
	nodes   []string
	tasks   []uint32
	cpus    []uint32
	overlap bool
}

// placeStep lays a step out over its job's nodes (jobCPUs each) as Slurm 22.05 does with
// steps that do not overlap: used[node] are the CPUs other such steps hold. A step that the
// job could never hold gets stepLayout's error; one that fits only once other steps end gets
// errStepBusy (srun retries). The step takes the nodes, in allocation order, that have room
// for a task; on each it holds every free CPU (--whole, the default) or just its tasks'
// (--exact). An --overlap step is laid out over the whole allocation and holds nothing.
func placeStep(jobNodes []string, jobCPUs []uint32, used map[string]uint32, r stepRequest) (stepAlloc, error) {
	over := r.overcommit && !r.exact
	tasks, err := stepLayout(jobCPUs, r.numTasks, r.minNodes, r.tasksPerNode, r.cpt, over, r.plane)
	if err != nil {
		return stepAlloc{}, err
	}
	nodes, avail := jobNodes, jobCPUs
	if !r.overlap && len(used) > 0 {
		nodes, avail = nil, nil
		for i, n := range jobNodes {
			free := jobCPUs[i] - min(used[n], jobCPUs[i])
			if free >= max(r.cpt, 1) || over && free > 0 {
				nodes, avail = append(nodes, n), append(avail, free)
			}
		}
		if len(nodes) == 0 {
			return stepAlloc{}, errStepBusy
		}
		if tasks, err = stepLayout(avail, r.numTasks, r.minNodes, r.tasksPerNode, r.cpt, over, r.plane); err != nil {
			return stepAlloc{}, errStepBusy
		}
	}
	a := stepAlloc{nodes: nodes[:len(tasks)], tasks: tasks, cpus: make([]uint32, len(tasks)), overlap: r.overlap}
	for i, t := range tasks {
		a.cpus[i] = avail[i]
		if r.exact {
			a.cpus[i] = t * max(r.cpt, 1)
		}
	}
	return a, nil
}

// placeArbitrary lays out a step of --distribution=arbitrary: node i of nodes (the step's,
// in allocation order) runs counts[nodes[i]] tasks, whatever its own CPUs, since Slurm checks
// only totals: the tasks' CPUs must fit in the job's (jobTotal; "More processors requested
// than permitted"), in what the job has on those nodes ("Requested node configuration is
// not available"), and in what its other steps leave free there (or the step waits). Each node's CPUs are held as placeStep holds them.
func placeArbitrary(nodes []string, cpus []uint32, used map[string]uint32, counts map[string]uint32, jobTotal uint64, r stepRequest) (stepAlloc, error) {
	cpt := max(r.cpt, 1)
	a := stepAlloc{nodes: nodes, tasks: make([]uint32, len(nodes)), cpus: make([]uint32, len(nodes)), overlap: r.overlap}
	var need, free, total uint64
	for i, n := range nodes {
		a.tasks[i] = counts[n]
		f := cpus[i]
		if !r.overlap {
			f -= min(used[n], cpus[i])
		}
		a.cpus[i] = f
		if r.exact {
			a.cpus[i] = min(f, counts[n]*cpt)
		}
		need += uint64(counts[n]) * uint64(cpt)
		free += uint64(f)
		total += uint64(cpus[i])
	}
	switch {
	case r.overcommit && !r.exact:
	case need > jobTotal:
		return stepAlloc{}, errStepCPUs
	case need > total:
		return stepAlloc{}, slurmErr(errnoNodeConfigUnavail)
	case need > free:
		return stepAlloc{}, errStepBusy
	}
	return a, nil
}

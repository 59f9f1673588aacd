package ctld

import "fmt"

// stepLayout places a step's tasks on the job's nodes with block distribution, as srun's
// default: the step uses nodes from the start of the allocation (minNodes of them, or as many
// as it has tasks, at most the job's), every node gets at least one task, the tasks are
// spread evenly (the first nodes take the remainder) within each node's CPUs, and ranks are
// numbered node by node. cpus are the job's CPUs on each node; cpt is CPUs per task. It
// returns the number of nodes used and the tasks on each, or an error text of Slurm's.
func stepLayout(cpus []uint32, numTasks, minNodes, tasksPerNode, cpt uint32) ([]uint32, error) {
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

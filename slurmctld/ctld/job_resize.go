package ctld

import "slices"

// scontrol update JobId= NumNodes=N of a running job (Slurm's update_job resizing a job):
// the job keeps its first N nodes and gives the others back; its steps there are killed and
// those nodes run the job's epilog (the update handler terminates the job on them). The
// job's node count becomes N (NumNodes=N-N), ResizeTime records when. scontrol then writes
// slurm_job_<id>_resize.sh/.csh for a job script to take up its new environment. Growing a
// running job (Slurm's job expansion through a second job) is not supported, and shrinking
// it to no node (which Slurm allows for that expansion) is an invalid node count.

// shrinkJob shrinks n, a copy of a running job, to nodes nodes: the node running its
// batch script stays, and the others are kept in the allocation's order.
func shrinkJob(n *jobRecord, nodes uint32, now int64) int32 {
	switch {
	case int(nodes) > len(n.Nodes):
		return errnoNotSupported // growing a running job
	case nodes == 0:
		return errnoInvalidNodeCount
	case int(nodes) == len(n.Nodes):
		return 0
	case len(n.CPUsPerNode) != len(n.Nodes):
		return errnoInvalidNodeCount // a record without its CPU counts cannot be cut
	}
	batch := n.batchHost()
	keep := make([]bool, len(n.Nodes))
	kept := 0
	if i := slices.Index(n.Nodes, batch); i >= 0 {
		keep[i], kept = true, 1
	}
	for i := range n.Nodes {
		if kept < int(nodes) && !keep[i] {
			keep[i] = true
			kept++
		}
	}
	var names []string
	var cpus []uint32
	var gres [][]gresTake
	for i, k := range keep {
		if !k {
			continue
		}
		names, cpus = append(names, n.Nodes[i]), append(cpus, n.CPUsPerNode[i])
		if i < len(n.GresAlloc) {
			gres = append(gres, n.GresAlloc[i])
		}
	}
	n.Nodes, n.CPUsPerNode = names, cpus
	if n.GresAlloc != nil {
		n.GresAlloc = gres
	}
	n.MinNodes, n.MaxNodes = nodes, nodes
	n.ResizeTime = now
	return 0
}

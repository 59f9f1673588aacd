package main

import "strings"

// nodeDistribution is the node-level part of srun's --distribution (SLURM_DISTRIBUTION):
// "block" (the default, also for "*" and none), "cyclic", or another Slurm method ("plane",
// "arbitrary"), which srun refuses over several nodes.
func nodeDistribution(dist string) string {
	d, _, _ := strings.Cut(dist, ":")
	d, _, _ = strings.Cut(d, ",") // ",pack"/",nopack" say how the job's CPUs are used
	if name, _, ok := strings.Cut(d, "="); ok {
		d = name // plane=N
	}
	switch d {
	case "", "*", "block", "pack", "nopack":
		return "block"
	}
	return d
}

// taskRanks deals the step's global task ids to its nodes, tasks[i] to node i, as Slurm's
// step layout does: block gives each node consecutive ids; cyclic deals them one per node
// in turn, skipping nodes that have all of theirs.
func taskRanks(tasks []uint32, dist string) [][]uint32 {
	out := make([][]uint32, len(tasks))
	for i, n := range tasks {
		out[i] = make([]uint32, 0, n)
	}
	var rank uint32
	if nodeDistribution(dist) != "cyclic" {
		for i, n := range tasks {
			for range n {
				out[i] = append(out[i], rank)
				rank++
			}
		}
		return out
	}
	for dealt := true; dealt; {
		dealt = false
		for i, n := range tasks {
			if uint32(len(out[i])) < n {
				out[i] = append(out[i], rank)
				rank++
				dealt = true
			}
		}
	}
	return out
}

package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// nodeDistribution is the node-level part of srun's --distribution (SLURM_DISTRIBUTION):
// "block" (the default, also for "*" and none), "cyclic", "plane" or "arbitrary".
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

// planeSize is the plane=<size> of a plane distribution, 0 for any other.
func planeSize(s *jobspec.SiteOptions) uint32 {
	if nodeDistribution(s.Distribution) != "plane" || s.PlaneSize == jobspec.NoVal {
		return 0
	}
	return s.PlaneSize
}

// taskRanks deals the step's global task ids to its nodes, tasks[i] to node i, as Slurm's
// step layout does: block gives each node consecutive ids; cyclic deals them one per node
// in turn, skipping nodes that have all of theirs; plane (plane > 0) deals blocks of plane
// ids the same way (_task_layout_plane).
func taskRanks(tasks []uint32, dist string, plane uint32) [][]uint32 {
	out := make([][]uint32, len(tasks))
	for i, n := range tasks {
		out[i] = make([]uint32, 0, n)
	}
	var rank uint32
	block := uint32(1)
	switch {
	case plane > 0:
		block = plane
	case nodeDistribution(dist) != "cyclic":
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
			for k := uint32(0); k < block && uint32(len(out[i])) < n; k++ {
				out[i] = append(out[i], rank)
				rank++
				dealt = true
			}
		}
	}
	return out
}

// arbitraryRefusal is what srun says of an arbitrary distribution before it asks for
// anything ("" when nothing): outside an allocation the job needs the list
// (slurm_opt_create_job_desc), inside one the list must name one node per task
// (existing_allocation). A longer list outside an allocation lays out its first tasks.
func arbitraryRefusal(o *options, inAlloc bool) string {
	js := o.spec
	if js == nil || nodeDistribution(js.Site.Distribution) != "arbitrary" {
		return ""
	}
	ntasks := max(o.ntasks, 1)
	if inAlloc && len(js.TaskNodes) == 0 {
		// No list of its own: the one the batch job's sbatch left (existing_allocation).
		if v := os.Getenv("SLURM_ARBITRARY_NODELIST"); v != "" {
			js.TaskNodes, _ = hostlist.Expand(v)
		}
	}
	switch {
	case !inAlloc && js.NodeList == "":
		return "With Arbitrary distribution you need to specify a nodelist or hostfile with the -w option"
	case !inAlloc:
		if uint32(len(js.TaskNodes)) > ntasks {
			js.TaskNodes = js.TaskNodes[:ntasks]
		}
	case uint32(len(js.TaskNodes)) != ntasks:
		return fmt.Sprintf("You asked for %d tasks but hostlist specified %d nodes", ntasks, len(js.TaskNodes))
	}
	return ""
}

// arbitraryRanks deals the ranks of an arbitrary layout: task i runs on taskNodes[i], so
// each of the step's nodes gets the ranks that name it, in order.
func arbitraryRanks(nodes, taskNodes []string) [][]uint32 {
	at := make(map[string]int, len(nodes))
	for i, n := range nodes {
		at[n] = i
	}
	out := make([][]uint32, len(nodes))
	for rank, n := range taskNodes {
		if i, ok := at[n]; ok {
			out[i] = append(out[i], uint32(rank))
		}
	}
	return out
}

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// allocEnv is the command's environment: salloc's own with the allocation's variables, as
// Slurm's salloc sets them (env_array_for_job, then SLURM_NTASKS/SLURM_NPROCS and
// SLURM_CLUSTER_NAME); a variable salloc sets replaces an inherited one.
func (s *session) allocEnv(info *wire.JobAllocInfo, base []string) []string {
	js := s.js
	set := map[string]string{}
	var order []string
	put := func(k, v string) {
		if _, ok := set[k]; !ok {
			order = append(order, k)
		}
		set[k] = v
	}
	u32 := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	nodes := len(info.Nodes)
	cpt := uint32(1)
	if js.CPUsPerTask != jobspec.NoVal && js.CPUsPerTask > 0 {
		cpt = js.CPUsPerTask
	}
	ntasks := s.ntasks(nodes)

	put("SLURM_JOB_ID", u32(info.JobID))
	put("SLURM_JOBID", u32(info.JobID))
	put("SLURM_JOB_NAME", info.Name)
	put("SLURM_JOB_NODELIST", info.NodeList)
	put("SLURM_JOB_NUM_NODES", strconv.Itoa(nodes))
	put("SLURM_JOB_PARTITION", info.Partition)
	put("SLURM_JOB_CPUS_PER_NODE", cmdclient.RepeatCounts(info.CPUsPerNode))
	put("SLURM_NNODES", strconv.Itoa(nodes))
	put("SLURM_NODELIST", info.NodeList)
	// Slurm prints the alias list of cloud nodes; with none it is the literal "(null)".
	put("SLURM_NODE_ALIASES", "(null)")
	put("SLURM_TASKS_PER_NODE", cmdclient.RepeatCounts(tasksPerNode(info.CPUsPerNode, cpt, ntasks)))
	if js.Account != "" {
		put("SLURM_JOB_ACCOUNT", js.Account)
	}
	if js.QOS != "" {
		put("SLURM_JOB_QOS", js.QOS)
	}
	if js.CPUsPerTask != jobspec.NoVal {
		put("SLURM_CPUS_PER_TASK", u32(js.CPUsPerTask))
	}
	if js.NTasksPerNode != jobspec.NoVal {
		put("SLURM_NTASKS_PER_NODE", u32(js.NTasksPerNode))
	}
	if js.MemPerNode != jobspec.NoVal64 {
		put("SLURM_MEM_PER_NODE", strconv.FormatUint(js.MemPerNode, 10))
	}
	if js.MemPerCPU != jobspec.NoVal64 {
		put("SLURM_MEM_PER_CPU", strconv.FormatUint(js.MemPerCPU, 10))
	}
	put("SLURM_SUBMIT_DIR", js.SubmitDir)
	host, _ := os.Hostname()
	if i := strings.IndexByte(host, '.'); i > 0 {
		host = host[:i]
	}
	put("SLURM_SUBMIT_HOST", host)
	if ntasks > 0 {
		put("SLURM_NTASKS", u32(ntasks))
		put("SLURM_NPROCS", u32(ntasks))
	}
	put("SLURM_CLUSTER_NAME", info.ClusterName)
	for _, kv := range siteEnv(js, base) { // siteopts.go
		put(kv[0], kv[1])
	}

	out := make([]string, 0, len(base)+len(order))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, over := set[name]; !over {
			out = append(out, kv)
		}
	}
	for _, k := range order {
		out = append(out, k+"="+set[k])
	}
	return out
}

// tasksPerNode is SLURM_TASKS_PER_NODE's list: without -n, each node runs as many tasks as
// it has CPUs for (cpus / cpus-per-task); with -n, the tasks fill the nodes in order, each
// node first getting one, as Slurm's block layout of an allocation does.
func tasksPerNode(cpus []uint32, cpt, ntasks uint32) []uint32 {
	out := make([]uint32, len(cpus))
	if ntasks == 0 {
		for i, c := range cpus {
			out[i] = max(c/cpt, 1)
		}
		return out
	}
	left := ntasks
	for i := range out {
		if left == 0 {
			break
		}
		out[i] = 1
		left--
	}
	for i, c := range cpus {
		more := min(max(c/cpt, 1)-out[i], left)
		out[i] += more
		left -= more
	}
	for i := 0; left > 0 && len(out) > 0; i = (i + 1) % len(out) {
		out[i]++ // overcommitted: spread the rest round-robin
		left--
	}
	return out
}

// layoutLine is the debug line (-vv) Slurm's salloc logs as it lays out the allocation's
// tasks for the command's environment: the tasks asked for (as SLURM_NTASKS counts them) or
// else as many as the CPUs hold, the nodes, and the distribution's task_dist_states value.
func (s *session) layoutLine(info *wire.JobAllocInfo) {
	ntasks := s.ntasks(len(info.Nodes))
	if ntasks == 0 {
		for _, c := range info.CPUsPerNode {
			if s.js.CPUsPerTask != jobspec.NoVal && s.js.CPUsPerTask > 1 {
				c /= s.js.CPUsPerTask
			}
			ntasks += c
		}
	}
	fmt.Fprintf(s.stderr, "salloc: debug:  laying out the %d tasks on %d hosts %s dist %d\n",
		ntasks, len(info.Nodes), info.NodeList, compatopts.TaskDist(s.js.Site.Distribution))
}

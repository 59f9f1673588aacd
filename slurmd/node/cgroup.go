package node

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// Memory confinement (task/cgroup with ConstrainRAMSpace=yes): slurmd decides what each
// step's slurmstepd puts its tasks in and writes it into the launch file, so the stepd never
// reads slurm.conf or cgroup.conf. The limit is the job's memory on the node: --mem, or
// --mem-per-cpu times the job's CPUs there, or DefMemPerNode/DefMemPerCPU when the job asked
// for none; no limit (only the oom-kill accounting) when none of them is set.

// cgroupCheck remembers whether the node can create memory cgroups at all: a node where it
// cannot (not root, read-only mount) says so once and runs its steps unconfined.
type cgroupCheck struct {
	once sync.Once
	err  error
}

var cgroupProbe cgroupCheck

// memoryConfined says whether slurm.conf and cgroup.conf ask for memory confinement.
func (d *Daemon) memoryConfined() bool {
	cg := d.cfg.Cgroup
	if cg == nil || !cg.ConstrainRAMSpace {
		return false
	}
	for _, p := range strings.Split(d.cfg.TaskPlugin, ",") {
		if strings.TrimSpace(p) == "task/cgroup" {
			return true
		}
	}
	return false
}

// memory is the launch file's confinement of a step with the job's limitMiB (0 = the
// job asked for none) on a node with cpus of the job's CPUs.
func (d *Daemon) memory(limitMiB uint64, cpus uint32) stepdlaunch.Memory {
	if !d.memoryConfined() {
		return stepdlaunch.Memory{}
	}
	cg := d.cfg.Cgroup
	cgroupProbe.once.Do(func() {
		cgroupProbe.err = stepd.CgroupAvailable(cg.CgroupMountpoint)
		if cgroupProbe.err != nil {
			d.log.Warn("task/cgroup: memory cgroups are not writable here; steps run without a memory limit",
				"mount", cg.CgroupMountpoint, "err", cgroupProbe.err)
		}
	})
	if cgroupProbe.err != nil {
		return stepdlaunch.Memory{}
	}
	if limitMiB == 0 {
		switch {
		case d.cfg.DefMemPerNode > 0:
			limitMiB = d.cfg.DefMemPerNode
		case d.cfg.DefMemPerCPU > 0:
			limitMiB = d.cfg.DefMemPerCPU * uint64(cpus)
		}
	}
	return stepdlaunch.Memory{Constrain: true, Mount: cg.CgroupMountpoint, LimitMiB: limitMiB,
		AllowedRAMSpace: cg.AllowedRAMSpace}
}

// batchMemory is the memory (MiB) a batch launch gives the job on node, and the job's CPUs
// there.
func batchMemory(m *wire.LaunchBatchJob, node string) (uint64, uint32) {
	var cpus uint32
	if names, err := hostlist.Expand(m.NodeList); err == nil {
		if i := slices.Index(names, node); i >= 0 && i < len(m.CPUsPerNode) {
			cpus = m.CPUsPerNode[i]
		}
	}
	if cpus == 0 && len(m.CPUsPerNode) > 0 {
		cpus = m.CPUsPerNode[0]
	}
	switch {
	case m.MemPerNode > 0 && m.MemPerNode != wire.NoVal64:
		return m.MemPerNode, cpus
	case m.MemPerCPU > 0 && m.MemPerCPU != wire.NoVal64:
		return m.MemPerCPU * uint64(cpus), cpus
	}
	return m.MemPerGPUNode, cpus // --mem-per-gpu's, or 0
}

// stepMemory is the job's memory (MiB) on h for an srun step. The batch launch of the job,
// when this node is its batch host, is the controller's word; on the job's other nodes the
// launch carries no memory field yet, so the step's environment (the allocation's
// SLURM_MEM_PER_NODE or SLURM_MEM_PER_CPU, which sbatch, salloc and srun export) says it.
// That is the user's to change: until the launch credential carries the limit, as Slurm's
// does, a step outside its batch host can run with a larger limit than the job asked for.
func stepMemory(h *hosted, m *wire.LaunchTasks) uint64 {
	if b, err := stepdlaunch.Read(stepdlaunch.Path(h.spool, m.JobID)); err == nil {
		mem, _ := batchMemory(&b.Msg, h.node.Name)
		return mem
	}
	env := func(name string) uint64 {
		for i := len(m.Environment) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(m.Environment[i], name+"="); ok {
				n, _ := strconv.ParseUint(v, 10, 64)
				return n
			}
		}
		return 0
	}
	if v := env("SLURM_MEM_PER_NODE"); v > 0 {
		return v
	}
	return env("SLURM_MEM_PER_CPU") * uint64(m.CPUsOnNode)
}

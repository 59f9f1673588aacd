package ctld

import (
	"slices"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// Whole cores: on a node with several threads per core a job holds whole cores, so the
// node's allocated CPUs (sinfo's A/I/O/T, scontrol's CPUAlloc) count every thread of them
// even where the job's own CPUs (CR_CPU) do not (plugins/sched/selection cores.go has
// Slurm's rules; the controller and every plugin count the same way).

// The request fields read here, on their own (job_record_desc.go).
var (
	descNTasksPerCore  = descField("NTasksPerCore")
	descThreadsPerCore = descField("ThreadsPerCore")
)

// tpc is the node's threads per core as Slurm schedules them: 1 when its CPUs count cores.
func (n *nodeEntry) tpc() uint32 {
	c := n.conf
	return selection.NodeTPC(uint32(c.CPUs), uint32(c.Sockets), uint32(c.CoresPerSocket), uint32(c.ThreadsPerCore))
}

// ntasksPerCore is the job's --ntasks-per-core, 0 when not given (--hint=multithread's
// INFINITE16 is no limit).
func (j *jobRecord) ntasksPerCore() uint32 {
	v := uint32(j.descUint(descNTasksPerCore))
	if v == wire.NoVal || v >= 0xffff {
		return 0
	}
	return v
}

// threadsPerCore is the job's --threads-per-core (1 with --hint=nomultithread), 0 when not
// given.
func (j *jobRecord) threadsPerCore() uint32 {
	v := uint32(j.descUint(descThreadsPerCore))
	if v == wire.NoVal || v >= 0xffff {
		return 0
	}
	return v
}

// coresOn is how j takes n's cores; false when n cannot serve j at all.
func (j *jobRecord) coresOn(n *nodeEntry) (selection.Cores, bool) {
	return selection.CoresOf(n.tpc(), j.ntasksPerCore(), j.threadsPerCore(), j.CPUsPerTask)
}

// heldOn is what cpus CPUs of j take of n: the CPUs of the whole cores behind them.
func (t *tables) heldOn(j *jobRecord, n *nodeEntry, cpus uint32) uint32 {
	if j.Exclusive {
		return cpus
	}
	c, _ := j.coresOn(n)
	return c.Held(t.wholeCores, cpus)
}

// usedCPUs is j's CPUs on each of its nodes as its allocation reports them (srun's and
// salloc's allocation, SLURM_JOB_CPUS_PER_NODE, the batch job's SLURM_CPUS_ON_NODE): with
// --threads-per-core below a node's, only the threads it uses of its whole cores.
func (t *tables) usedCPUs(j *jobRecord) []uint32 {
	out := slices.Clone(j.CPUsPerNode)
	if j.threadsPerCore() == 0 || !t.wholeCores {
		return out
	}
	for i, name := range j.Nodes {
		if n := t.nodes[name]; n != nil && i < len(out) {
			c, _ := j.coresOn(n)
			out[i] = c.UsedCPUs(true, out[i], j.threadsPerCore())
		}
	}
	return out
}

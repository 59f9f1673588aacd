package selection

import "github.com/orbit-hpc/orbit/plugins/scheduler"

// Whole cores on nodes with several threads per core.
//
// Slurm's select/cons_tres never splits a core between jobs on a node whose CPUs are
// hardware threads (Slurm's node tpc > 1: more CPUs than Sockets*CoresPerSocket). Whatever
// SelectTypeParameters say, a job takes whole cores there: `-n1` holds a core, and the
// node's CPUAlloc (sinfo's A/I/O/T, scontrol's AllocTRES) counts both of its threads. Under
// CR_Core (and CR_Socket) the job's CPUs are those whole cores (NumCPUs=2 for `-n1` on two
// threads per core); under CR_CPU they stay what its tasks asked for (NumCPUs=1) while the
// node still loses the whole core.
//
// How many of a core's threads a job's tasks use is Slurm's common_cpus_per_core: all of
// them, unless --threads-per-core (or --hint=nomultithread, which sets it to 1) or
// --ntasks-per-core (times --cpus-per-task) asks for fewer. A job with --ntasks-per-core=1
// and more CPUs per task than a core gives it takes whole cores for each task
// (_count_used_cpus). On a node with one thread per core every CPU is a core and all of this
// is the plain CPU count.

// Cores is how one job takes the cores of one node.
type Cores struct {
	tpc  uint32 // the node's threads per core (CPUs of one core)
	use  uint32 // CPUs of a core the job's tasks use
	task uint32 // cores each task takes when tasks never share one; 0 when they may
	cpt  uint32 // CPUs per task
}

// CoresOf is how a job with the given --ntasks-per-core and --threads-per-core (0: not
// given) and CPUs per task takes a node with tpc threads per core (0 or 1: one). It is false
// when the node cannot serve the job at all: it asks for more threads of a core than the
// node has (select/cons_tres skips such a node).
func CoresOf(tpc, ntasksPerCore, threadsPerCore, cpt uint32) (Cores, bool) {
	tpc, cpt = max(tpc, 1), max(cpt, 1)
	use := tpc
	if ntasksPerCore > 0 {
		use = uint32(min(uint64(tpc), uint64(ntasksPerCore)*uint64(cpt)))
	}
	if threadsPerCore > 0 {
		if threadsPerCore > tpc && ntasksPerCore == 0 {
			return Cores{}, false
		}
		use = min(use, threadsPerCore)
	}
	c := Cores{tpc: tpc, use: use, cpt: cpt}
	if ntasksPerCore == 1 && cpt > use {
		c.task = ceilDiv(cpt, use)
	}
	return c, true
}

// JobCores is CoresOf for a job of the scheduler's view on node n.
func JobCores(n *scheduler.Node, j *scheduler.Job) (Cores, bool) {
	return CoresOf(n.ThreadsPerCore, j.NTasksPerCore, j.ThreadsPerCore, j.CPUsPerTask)
}

// Tasks is how many tasks fit in free CPUs of the node (whole cores of them).
func (c Cores) Tasks(free uint32) uint32 {
	cores := free / c.tpc
	if c.task > 0 {
		return cores / c.task
	}
	return uint32(uint64(cores) * uint64(c.use) / uint64(c.cpt))
}

// Usable is how many of free CPUs of the node the job's tasks can use: the threads they
// use of its whole free cores (what --mincpus is held against).
func (c Cores) Usable(free uint32) uint32 { return free / c.tpc * c.use }

// MemTasks is how many tasks fit in avail MiB of the node's memory at memPerCPU MiB per CPU
// (UsedCPUs's count of a task's CPUs: whole cores under CR_Core).
func (c Cores) MemTasks(avail, memPerCPU uint64, wholeCores bool, threadsPerCore uint32) uint32 {
	if memPerCPU == 0 {
		return ^uint32(0)
	}
	if !wholeCores || c.tpc == 1 {
		return uint32(min(avail/memPerCPU/uint64(c.cpt), uint64(^uint32(0))))
	}
	perCore := uint64(c.UsedCPUs(true, c.tpc, threadsPerCore)) * memPerCPU
	return c.Tasks(uint32(min(avail/perCore, uint64(^uint32(0)/c.tpc))) * c.tpc)
}

// Count is the cores tasks take on the node, at least enough for minCPUs (--mincpus) of
// the threads the job uses.
func (c Cores) Count(tasks, minCPUs uint32) uint32 {
	var n uint32
	if c.task > 0 {
		n = tasks * c.task
	} else {
		n = uint32(ceilDiv64(uint64(tasks)*uint64(c.cpt), uint64(c.use)))
	}
	return max(n, ceilDiv(minCPUs, c.use))
}

// CPUs is the job's CPUs on the node for tasks there: under CR_Core (wholeCores) the CPUs
// of the cores they take, under CR_CPU what they ask for.
func (c Cores) CPUs(wholeCores bool, tasks, minCPUs uint32) uint32 {
	if wholeCores {
		return c.Count(tasks, minCPUs) * c.tpc
	}
	return max(tasks*c.cpt, minCPUs)
}

// Held is what an allocation of cpus CPUs to the job takes of the node: the CPUs of the
// whole cores behind them.
func (c Cores) Held(wholeCores bool, cpus uint32) uint32 {
	if c.tpc == 1 {
		return cpus
	}
	if wholeCores {
		return ceilDiv(cpus, c.tpc) * c.tpc
	}
	if c.task > 0 {
		return ceilDiv(cpus, c.cpt) * c.task * c.tpc
	}
	return ceilDiv(cpus, c.use) * c.tpc
}

// UsedCPUs is how many of cpus CPUs the job's threads use: under CR_Core, with
// --threads-per-core below the node's, only those threads of its cores. It is what Slurm's
// allocation reports for the node (job_resources_get_node_cpu_cnt: the batch job's
// SLURM_CPUS_ON_NODE, SLURM_JOB_CPUS_PER_NODE) and what --mem-per-cpu counts; the job's
// NumCPUs and the node's CPUAlloc count the whole cores.
func (c Cores) UsedCPUs(wholeCores bool, cpus uint32, threadsPerCore uint32) uint32 {
	if wholeCores && threadsPerCore > 0 && threadsPerCore < c.tpc {
		return cpus / c.tpc * threadsPerCore
	}
	return cpus
}

// NodeTPC is Slurm's tpc for a node: its threads per core, or 1 when its CPUs are counted
// as cores (CPUs= no more than Sockets*CoresPerSocket).
func NodeTPC(cpus, sockets, coresPerSocket, threadsPerCore uint32) uint32 {
	if sockets*coresPerSocket >= cpus || threadsPerCore == 0 {
		return 1
	}
	return threadsPerCore
}

func ceilDiv(a, b uint32) uint32 { return uint32(ceilDiv64(uint64(a), uint64(b))) }

func ceilDiv64(a, b uint64) uint64 {
	if b == 0 {
		return 0
	}
	return (a + b - 1) / b
}

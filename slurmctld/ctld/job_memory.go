package ctld

import (
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Memory defaults and limits as Slurm 22.05 applies them to a job (_validate_job_desc,
// _valid_pn_min_mem, job_limits_check):
//
//   - A job that asks for no memory gets its partition's DefMemPerCPU or DefMemPerNode, else
//     slurm.conf's (MinMemoryCPU/MinMemoryNode show it, the scheduler counts it, slurmd
//     limits the job to it).
//   - MaxMemPerCPU or MaxMemPerNode (the partition's, else slurm.conf's) bounds it. A per-CPU
//     request over MaxMemPerCPU is spread over more CPUs: cpus-per-task is multiplied and the
//     memory per CPU divided by the same factor. A per-node request under MaxMemPerCPU raises
//     the CPUs the job needs per node (MinCPUsNode). A request no adjustment can fit leaves
//     the job pending with reason MaxMemPerLimit; under EnforcePartLimits it is refused at
//     submit ("Memory required by task is not available").
//
// A job that ends up with no memory at all needs a whole node's memory when memory is a
// consumable resource, as Slurm's select plugin allocates it (jobRecord.MemWholeNode).

// memRequest is the part of a job the limits examine and adjust.
type memRequest struct {
	memPerCPU, memPerNode uint64 // MiB; 0 = none
	cpusPerTask           uint32
	minCPUs               uint32 // --mincpus (pn_min_cpus); 0 = none
	numTasks              uint32 // as given; NoVal = not given
	maxNodes              uint32 // 0 = no maximum
	tasksPerNode          uint32 // 0 = not given
	exclusive             bool
}

func (j *jobRecord) memRequest() memRequest {
	return memRequest{memPerCPU: j.MemPerCPU, memPerNode: j.shownMemPerNode(), cpusPerTask: j.CPUsPerTask,
		minCPUs: uint32(j.descUint(descMinCPUs)), numTasks: uint32(j.descUint(descNumTasks)), maxNodes: j.MaxNodes, tasksPerNode: j.TasksPerNod,
		exclusive: j.Exclusive}
}

// setMemRequest installs an adjusted request in j (a record being built or a copy).
func (j *jobRecord) setMemRequest(r memRequest) {
	j.MemPerCPU, j.MemPerNode, j.CPUsPerTask = r.memPerCPU, r.memPerNode, r.cpusPerTask
	if r.minCPUs != uint32(j.descUint(descMinCPUs)) {
		j.editDesc(func(d *wire.JobDesc) { d.MinCPUs = r.minCPUs })
	}
}

// shownMemPerNode is the memory per node the job asked for (or got by default): 0 for a
// whole-node job, whose MemPerNode is what the scheduler counts.
func (j *jobRecord) shownMemPerNode() uint64 {
	if j.MemWholeNode {
		return 0
	}
	return j.MemPerNode
}

// minMemoryNode is scontrol's MinMemoryNode: shownMemPerNode, but 0 for memory asked per GPU
// (--mem-per-gpu), which Slurm keeps apart (MemPerTres=).
func (j *jobRecord) minMemoryNode() uint64 {
	if m := j.gpuMemPerNode(); m > 0 && j.MemPerNode == m && !memSet(j.descUint(descMemPerNode)) {
		return 0
	}
	return j.shownMemPerNode()
}

// memSet reports whether a limit, default or request is set (neither 0, UNLIMITED nor
// "not given").
func memSet(v uint64) bool { return v != 0 && v != conf.Infinite64 && v != wire.NoVal64 }

// applyMemDefault gives j the default memory of partition p when its user asked for none.
func applyMemDefault(j *jobRecord, p *conf.Partition, cfg *conf.Config) {
	if memSet(j.descUint(descMemPerCPU)) || memSet(j.descUint(descMemPerNode)) {
		return
	}
	j.MemPerCPU, j.MemPerNode = 0, 0
	switch {
	case j.gpuMemPerNode() > 0:
		j.MemPerNode = j.gpuMemPerNode() // --mem-per-gpu (gres_gpu.go)
	case memSet(p.DefMemPerCPU):
		j.MemPerCPU = p.DefMemPerCPU
	case memSet(p.DefMemPerNode):
		j.MemPerNode = p.DefMemPerNode
	case memSet(cfg.DefMemPerCPU):
		j.MemPerCPU = cfg.DefMemPerCPU
	case memSet(cfg.DefMemPerNode):
		j.MemPerNode = cfg.DefMemPerNode
	}
}

// memLimit is MaxMemPerCPU or MaxMemPerNode of partition p, else slurm.conf's: the value and
// whether it is per CPU; 0 when there is none.
func memLimit(p *conf.Partition, cfg *conf.Config) (uint64, bool) {
	switch {
	case memSet(p.MaxMemPerCPU):
		return p.MaxMemPerCPU, true
	case memSet(p.MaxMemPerNode):
		return p.MaxMemPerNode, false
	case memSet(cfg.MaxMemPerCPU):
		return cfg.MaxMemPerCPU, true
	case memSet(cfg.MaxMemPerNode):
		return cfg.MaxMemPerNode, false
	}
	return 0, false
}

// fitMemLimit is Slurm's _valid_pn_min_mem: r adjusted to partition pe's memory limit, and
// whether it fits it.
func fitMemLimit(r memRequest, pe *partEntry, t *tables, cfg *conf.Config) (memRequest, bool) {
	limit, limitPerCPU := memLimit(pe.conf, cfg)
	if limit == 0 {
		return r, true
	}
	if r.memPerCPU != 0 && limitPerCPU {
		if r.memPerCPU <= limit {
			return r, true
		}
		ratio := uint32((r.memPerCPU + limit - 1) / limit)
		r.cpusPerTask = max(r.cpusPerTask, 1) * ratio
		r.memPerCPU = (r.memPerCPU + uint64(ratio) - 1) / uint64(ratio)
		if r.numTasks == wire.NoVal || r.numTasks == 0 {
			r.minCPUs = r.cpusPerTask
		}
		return r, true
	}
	jobMem := r.memPerNode
	if r.memPerCPU == 0 && jobMem == 0 {
		jobMem = t.partMaxMemory(pe) // a job with no memory counts a whole node
	}
	if r.memPerCPU == 0 && !limitPerCPU {
		return r, jobMem <= limit
	}
	// One limit per CPU, the other per node: compare per node.
	var cpusPerNode uint32
	if r.exclusive || strings.EqualFold(pe.conf.OverSubscribe, "EXCLUSIVE") {
		cpusPerNode = pe.maxNodeCPUs
	} else {
		cpusPerNode = max(r.tasksPerNode, 1)
		if r.numTasks != wire.NoVal && r.numTasks != 0 && r.maxNodes != 0 {
			cpusPerNode = max(cpusPerNode, (r.numTasks+r.maxNodes-1)/r.maxNodes)
		}
		cpusPerNode *= max(r.cpusPerTask, 1)
		cpusPerNode = max(cpusPerNode, r.minCPUs)
	}
	if r.memPerCPU != 0 { // per-CPU request, per-node limit
		return r, r.memPerCPU*uint64(cpusPerNode) <= limit
	}
	need := uint32((jobMem + limit - 1) / limit) // per-node request, per-CPU limit
	if r.minCPUs < need {
		r.minCPUs = need
		cpusPerNode = max(cpusPerNode, need)
		if r.tasksPerNode != 0 {
			r.cpusPerTask = (r.minCPUs + r.tasksPerNode - 1) / r.tasksPerNode
		}
	}
	return r, jobMem <= limit*uint64(cpusPerNode)
}

// partMaxMemory is the most memory any node of partition p has (Slurm's _mem_per_node_part).
func (t *tables) partMaxMemory(p *partEntry) uint64 {
	var most uint64
	for _, n := range p.nodes {
		if e := t.nodes[n]; e != nil {
			most = max(most, e.conf.RealMemory)
		}
	}
	return most
}

// applyMemLimits gives new or moved job j its partition's memory default and adjusts its
// request to the partition's limit. It reports whether the request fits the limit.
func (c *Controller) applyMemLimits(j *jobRecord, pe *partEntry) bool {
	cfg := c.config()
	applyMemDefault(j, pe.conf, cfg)
	j.MemWholeNode = false
	r, ok := fitMemLimit(j.memRequest(), pe, c.t, cfg)
	if ok {
		j.setMemRequest(r)
	}
	if c.trackMem && j.MemPerNode == 0 && j.MemPerCPU == 0 {
		j.MemPerNode, j.MemWholeNode = c.t.partMinMemory(pe), true
	}
	return ok
}

// partMinMemory is the least memory a node of partition p has: what a whole-node job counts
// (exactly each node's memory where the partition's nodes are alike).
func (t *tables) partMinMemory(p *partEntry) uint64 {
	var least uint64
	for _, n := range p.nodes {
		if e := t.nodes[n]; e != nil && (least == 0 || e.conf.RealMemory < least) {
			least = e.conf.RealMemory
		}
	}
	return least
}

// memFits says whether pending job j's memory request fits partition pe's limit now (the
// scheduling cycle's check; a job that does not fit waits with MaxMemPerLimit).
func (c *Controller) memFits(j *jobRecord, pe *partEntry) bool {
	_, ok := fitMemLimit(j.memRequest(), pe, c.t, c.config())
	return ok
}

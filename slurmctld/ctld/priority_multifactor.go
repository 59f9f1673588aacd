package ctld

import (
	"math"

	"github.com/orbit-hpc/orbit/conf"
)

// niceOffset is Slurm's NICE_OFFSET: nice values and the site factor travel offset by it so
// that they are unsigned.
const niceOffset = 0x80000000

// jobFactors are one job's priority/multifactor factors, each already multiplied by its
// weight (Slurm's priority_factors_object_t after _get_priority_internal), plus its nice.
type jobFactors struct {
	age, assoc, fairShare, jobSize, part, qos float64
	nice                                      int32 // the job's nice (not offset)
	site                                      int64 // the site factor (not offset); 0 without a site plugin
}

// priority is the job's priority from its factors, as Slurm sums them: weighted factors plus
// the site factor minus nice, at least 1 (0 means held), at most 2^32-1, truncated.
func (f jobFactors) priority() uint32 {
	p := f.age + f.assoc + f.fairShare + f.jobSize + f.part + f.qos + float64(f.site) - float64(f.nice)
	if p < 1 {
		p = 1
	}
	if p > math.MaxUint32 {
		p = math.MaxUint32
	}
	return uint32(p)
}

// jobFactorsAt computes j's factors at now as Slurm 22.05's set_priority_factors does
// (src/plugins/priority/multifactor/priority_multifactor.c), with these inputs:
//
//   - age: the time since the job began to accrue age — its eligible time (begin time), or
//     its submit time with PriorityFlags=ACCRUE_ALWAYS; Slurm uses the begin time when it
//     does not enforce accounting limits, which Orbit never does — over PriorityMaxAge,
//     capped at 1.
//   - job size: the CPUs and nodes asked for against the cluster's (below).
//   - partition: the partition's PriorityJobFactor over the largest of all partitions (or
//     the raw factor with NO_NORMAL_PART); 0 when the factor is 0.
//   - fair-share: the user's factor from the embedded accounting's usage
//     (priority_fairshare.go). Without accounting (accounting_storage/none) Slurm has no
//     associations and ignores both this weight and PriorityWeightAge: both factors are 0.
//   - association: 0. The associations Orbit models carry no priority.
//   - QOS: 0. The only QOS is "normal", whose priority is 0.
//   - nice: subtracted.
//
// Called with c.mu held.
func (c *Controller) jobFactorsAt(j *jobRecord, now int64) jobFactors {
	pc := c.config().Priority
	f := jobFactors{nice: int32(j.descInt(descNice))}
	accrue := j.EligibleTime
	if pc.Flags&conf.PriorityAccrueAlways != 0 {
		accrue = j.SubmitTime
	}
	withAcct := c.config().AccountingEnabled()
	if pc.WeightFairShare != 0 && withAcct {
		f.fairShare = c.fairShareFactor(j.UserID) * float64(pc.WeightFairShare)
	}
	if pc.WeightAge != 0 && accrue != 0 && withAcct {
		var diff uint32
		if now > accrue {
			diff = uint32(min(now-accrue, math.MaxUint32))
		}
		age := 1.0
		if diff < pc.MaxAge {
			age = float64(diff) / float64(pc.MaxAge)
		}
		f.age = age * float64(pc.WeightAge)
	}
	if pc.WeightJobSize != 0 {
		f.jobSize = c.jobSizeFactor(j) * float64(pc.WeightJobSize)
	}
	if part := c.t.parts[j.Partition]; part != nil && part.conf.PriorityJobFactor != 0 && pc.WeightPartition != 0 {
		norm := float64(part.conf.PriorityJobFactor)
		if pc.Flags&conf.PriorityNoNormalPart == 0 {
			norm /= float64(c.maxPartJobFactor())
		}
		f.part = norm * float64(pc.WeightPartition)
	}
	return f
}

// jobSizeFactor is the job-size factor in [0, 1], as Slurm 22.05 computes it from the CPUs
// the job asks for (tasks × CPUs per task: a pending job has no allocation yet), its minimum
// node count, the cluster's CPUs and its node count:
//
//   - SMALL_RELATIVE_TO_TIME: max(CPUs, min nodes × average CPUs per node) / time limit in
//     minutes / cluster CPUs; PriorityFavorSmall then takes 1 minus it.
//   - PriorityFavorSmall: ((nodes − min nodes)/nodes + (cluster CPUs − CPUs)/cluster CPUs) / 2.
//   - otherwise (favour large): (min nodes/nodes + CPUs/cluster CPUs) / 2.
func (c *Controller) jobSizeFactor(j *jobRecord) float64 {
	var clusterCPUs float64
	for _, n := range c.t.nodes {
		clusterCPUs += float64(n.cpus())
	}
	nodes := float64(len(c.t.nodes))
	if nodes == 0 || clusterCPUs == 0 {
		return 0
	}
	cpus := float64(j.NumTasks) * float64(max(j.CPUsPerTask, 1))
	minNodes := float64(j.MinNodes)
	pc := c.config().Priority
	var js float64
	switch {
	case pc.Flags&conf.PrioritySmallRelativeToTime != 0:
		js = minNodes * clusterCPUs / nodes
		if cpus > js {
			js = cpus
		}
		limit := float64(j.TimeLimit)
		if j.TimeLimit == 0 {
			limit = 1
		}
		// An unlimited job divides by INFINITE (0xffffffff) as Slurm does: nearly 0.
		js /= limit
		js /= clusterCPUs
		if pc.FavorSmall {
			js = 1 - js
		}
	case pc.FavorSmall:
		js = (nodes - minNodes) / nodes
		if cpus != 0 {
			js += (clusterCPUs - cpus) / clusterCPUs
			js /= 2
		}
	default:
		js = minNodes / nodes
		if cpus != 0 {
			js += cpus / clusterCPUs
			js /= 2
		}
	}
	return min(max(js, 0), 1)
}

// maxPartJobFactor is the largest PriorityJobFactor of all partitions (Slurm's
// part_max_priority, which normalises the partition factor), at least 1.
func (c *Controller) maxPartJobFactor() uint16 {
	m := uint16(1)
	for _, p := range c.t.parts {
		m = max(m, p.conf.PriorityJobFactor)
	}
	return m
}

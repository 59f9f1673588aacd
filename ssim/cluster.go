package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Cluster is what a slurm.conf gives the simulation: the scheduler's configuration, its
// nodes and partitions, and the partition jobs without one go to.
type Cluster struct {
	Config     scheduler.Config
	Nodes      []scheduler.Node
	Partitions []scheduler.Partition
	Default    string
	// OverTimeLimit is slurm.conf's OverTimeLimit in minutes: how long past its time limit a
	// job may run before it is killed.
	OverTimeLimit int64
	// Conf is the slurm.conf itself: the controller engine runs a controller on it.
	Conf *conf.Config
}

// ClusterOf builds the simulated cluster from cfg. Every node is up and idle at the start
// unless slurm.conf gives it State=DOWN, DRAIN or FUTURE (or lists it in DownNodes). The
// default partition is the one marked Default=YES, else the first, as in Slurm.
func ClusterOf(cfg *conf.Config) (*Cluster, error) {
	c := &Cluster{
		Config: scheduler.Config{
			SchedulerType:        cfg.SchedulerType,
			SchedulerParameters:  cfg.SchedulerParameters,
			SelectType:           cfg.SelectType,
			SelectTypeParameters: cfg.SelectTypeParameters,
			PriorityType:         cfg.PriorityType,
		},
		OverTimeLimit: int64(cfg.OverTimeLimit),
		Conf:          cfg,
	}
	down := map[string]bool{}
	for _, d := range cfg.DownNodes {
		for _, n := range d.Nodes {
			down[n] = true
		}
	}
	for _, n := range cfg.Nodes {
		st := strings.ToUpper(n.State)
		usable := !down[n.Name] && !strings.HasPrefix(st, "DOWN") && !strings.HasPrefix(st, "DRAIN") && !strings.HasPrefix(st, "FUTURE")
		c.Nodes = append(c.Nodes, scheduler.Node{
			Name: n.Name, CPUs: uint32(max(n.CPUs, 1)), RealMemory: n.RealMemory,
			Features: slices.Clone(n.Features), Weight: n.Weight, Usable: usable,
		})
	}
	for _, p := range cfg.Partitions {
		c.Partitions = append(c.Partitions, scheduler.Partition{
			Name:          p.Name,
			Nodes:         slices.Clone(p.Nodes),
			Up:            p.State == "" || strings.EqualFold(p.State, "UP"),
			MaxTime:       p.MaxTime,
			MaxNodes:      p.MaxNodes,
			MinNodes:      p.MinNodes,
			PriorityTier:  uint32(p.PriorityTier),
			OverSubscribe: p.OverSubscribe != "" && !strings.EqualFold(p.OverSubscribe, "NO") && !strings.EqualFold(p.OverSubscribe, "EXCLUSIVE"),
		})
		if p.Default && c.Default == "" {
			c.Default = p.Name
		}
	}
	if len(c.Partitions) == 0 {
		return nil, fmt.Errorf("%s: no PartitionName line: jobs have nowhere to run", cfg.Path)
	}
	if c.Default == "" {
		c.Default = c.Partitions[0].Name
	}
	return c, nil
}

// Partition is the named partition, or nil.
func (c *Cluster) Partition(name string) *scheduler.Partition {
	for i := range c.Partitions {
		if c.Partitions[i].Name == name {
			return &c.Partitions[i]
		}
	}
	return nil
}

// cpusPerNode is the CPUs of the partition's smallest node: a trace's processors become
// nodes by it, so a job never asks for more CPUs than its nodes have.
func (c *Cluster) cpusPerNode(p *scheduler.Partition) uint32 {
	var cpn uint32
	for _, n := range c.Nodes {
		if slices.Contains(p.Nodes, n.Name) && (cpn == 0 || n.CPUs < cpn) {
			cpn = n.CPUs
		}
	}
	return max(cpn, 1)
}

// SimJob is a trace job as the engine runs it: in a partition of the cluster, with a node
// count, the time limit the scheduler sees and the runtime the emulated node ends it at.
type SimJob struct {
	Job
	// Seq is the engine's job id (1, 2, ... in submit order).
	Seq       uint32
	Partition string
	NodeCount uint32
	// Limit is the time limit in minutes (scheduler.Infinite for none).
	Limit uint32
}

// Estimate says which time limit the scheduler sees: the user's (the trace's requested
// time) or the job's real runtime (perfect knowledge, the bound any runtime predictor is
// measured against).
type Estimate int

// The --estimate values.
const (
	EstimateUser Estimate = iota
	EstimateRuntime
)

// Place maps trace jobs onto the cluster: the trace's partition when slurm.conf has one of
// that name, else the default; nodes as the trace says, else ceil(processors / CPUs per
// node of the partition's smallest node); the time limit by est, rounded up to whole
// minutes as Slurm keeps limits (a job with no requested time gets none, and backfill then
// plans it for the partition's MaxTime). Jobs that could never run there (more nodes than
// the partition has, or above its MaxNodes) are left out and counted in skipped.
func (c *Cluster) Place(jobs []Job, est Estimate, skipped map[string]int) []SimJob {
	out := make([]SimJob, 0, len(jobs))
	for _, j := range jobs {
		part := c.Partition(j.Partition)
		if part == nil {
			part = c.Partition(c.Default)
		}
		nodes := j.Nodes
		if nodes <= 0 {
			cpn := int64(c.cpusPerNode(part))
			nodes = (j.Procs + cpn - 1) / cpn
		}
		if nodes > int64(len(part.Nodes)) || (part.MaxNodes != scheduler.Infinite && nodes > int64(part.MaxNodes)) {
			skipped[fmt.Sprintf("more nodes than partition %s allows", part.Name)]++
			continue
		}
		limit := uint32(scheduler.Infinite)
		secs := j.Requested
		if est == EstimateRuntime {
			secs = j.Runtime
		}
		if secs >= 0 {
			limit = uint32(max((secs+59)/60, 1))
		}
		out = append(out, SimJob{Job: j, Partition: part.Name, NodeCount: uint32(nodes), Limit: limit})
	}
	return out
}

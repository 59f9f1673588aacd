package builtin

import (
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Result is what one main pass decided.
type Result struct {
	Starts  []scheduler.Start
	Reasons []scheduler.PendingReason
	// Tested is how many jobs had a node selection tried (sdiag's depth).
	Tested int
	// DepthReached says the pass stopped at its queue depth with jobs left untested.
	DepthReached bool
}

// Main runs Slurm's main scheduling pass over pending (already in priority order) with
// pool holding what running jobs use; it books its starts in pool. depth > 0 stops after
// that many jobs were tested (default_queue_depth); jobs past it keep their reasons. A job
// that may start in several partitions (Job.Parts) is tried in each in turn, at its place in
// the queue, and starts in the first that has room: Slurm queues one entry per partition,
// which orders them the same way when the partitions share a PriorityTier. A job that
// starts nowhere shows the reason of the last partition tried, as each of Slurm's entries
// overwrites it.
//
// As in Slurm's schedule(), a job that cannot start for want of resources blocks its
// partition (later jobs there wait with Priority) and withholds the partition's nodes from
// every later job of any partition; a job left with fewer nodes than it needs waits with
// Resources, "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher
// priority partitions", and blocks its own partition in turn. A job held to its --nodelist
// withholds only those nodes.
func Main(pending []*scheduler.Job, parts func(string) *scheduler.Partition, nodes []scheduler.Node, pool *selection.Pool, depth int) Result {
	var r Result
	blocked := map[string]bool{}
	capacity := selection.NewCapacity(nodes)
	fail := func(part *scheduler.Partition) {
		blocked[part.Name] = true
		pool.Withhold(part.Nodes)
	}
	var one [1]string
	for _, j := range pending {
		if !j.Eligible || j.State != scheduler.JobPending {
			continue // the controller has set its reason
		}
		reason, desc := states.WaitNoReason, ""
		started := false
		names := j.Partitions
		if len(names) == 0 {
			one[0] = j.Partition // Parts() without allocating, for the usual job of one partition
			names = one[:]
		}
		for _, name := range names {
			part := parts(name)
			if part == nil {
				continue
			}
			desc = ""
			switch {
			case !capacity.FitsEver(j, part):
				reason = states.WaitPartConfig
				continue
			case blocked[name]:
				reason = states.WaitPriority
				continue
			case uint32(pool.Unheld(part)) < max(j.MinNodes, 1):
				reason, desc = states.WaitResources, states.DescNodesReserved
				fail(part)
				continue
			}
			if depth > 0 && r.Tested >= depth {
				r.DepthReached = true
				return r
			}
			r.Tested++
			a, ok := pool.Select(j, part)
			if !ok {
				reason = states.WaitResources
				if uint32(len(j.ReqNodes)) >= j.MinNodes && len(j.ReqNodes) > 0 {
					pool.Withhold(j.ReqNodes) // its nodes only, not the partition
				} else {
					fail(part)
				}
				continue
			}
			pool.Take(a, j.Exclusive)
			st := scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem, Gres: a.Gres}
			if name != j.Partition {
				st.Partition = name
			}
			r.Starts = append(r.Starts, st)
			started = true
			break
		}
		if !started && reason != states.WaitNoReason {
			r.Reasons = append(r.Reasons, scheduler.PendingReason{JobID: j.ID, Reason: uint32(reason), Desc: desc})
		}
	}
	return r
}

// PoolOf is the free resources of m's nodes after its running jobs.
func PoolOf(m *scheduler.Mirror) *selection.Pool {
	cfg := m.Config()
	p := selection.NewPool(selection.ParseMode(cfg.SelectType, cfg.SelectTypeParameters), m.Nodes())
	p.LimitPartitions(m.Partitions()) // MaxCPUsPerNode
	for _, j := range m.Running() {
		p.TakeJob(j)
	}
	return p
}

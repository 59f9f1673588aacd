// Command sched_sjf is an example scheduler plugin, SchedulerType=sched/sjf: shortest job
// first. Pending jobs are ordered by time limit, then priority; each eligible job that fits
// on the free nodes starts, the rest wait (reason Resources for the first blocked job of a
// partition, Priority after it, as sched/builtin). README.md says how to build, install and
// test a plugin like it. It links only the SDK: plugins/scheduler and plugins/sched/selection.
package main

import (
	"cmp"
	"context"
	"slices"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func main() { scheduler.Serve(&SJF{}) }

// SJF is the plugin: a mirror of the cluster fed by the controller, and one pass per cycle.
type SJF struct{ m scheduler.Mirror }

// Sync replaces the mirror with the whole state.
func (s *SJF) Sync(_ context.Context, st scheduler.State) error { s.m.Sync(st); return nil }

// Update applies what changed; a gap returns ErrResync and the controller sends a Sync.
func (s *SJF) Update(_ context.Context, d scheduler.Delta) error { return s.m.Update(d) }

// Schedule starts, shortest time limit first, every eligible job that fits now.
func (s *SJF) Schedule(_ context.Context, _ int64) (scheduler.Plan, error) {
	cfg := s.m.Config()
	pool := selection.NewPool(selection.ParseMode(cfg.SelectType, cfg.SelectTypeParameters), s.m.Nodes())
	pool.LimitPartitions(s.m.Partitions()) // MaxCPUsPerNode
	for _, j := range s.m.Running() {
		pool.TakeJob(j)
	}
	plan := scheduler.Plan{Seq: s.m.Seq()}
	blocked := map[string]bool{}
	for _, j := range Order(s.m.Pending()) {
		part := s.m.Partition(j.Partition)
		if !j.Eligible || part == nil {
			continue // the controller has set its reason
		}
		reason := states.WaitPriority
		if !blocked[j.Partition] {
			if a, ok := pool.Select(j, part); ok {
				pool.Take(a, j.Exclusive)
				plan.Starts = append(plan.Starts, scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem})
				plan.Stats.JobsTested++
				continue
			}
			plan.Stats.JobsTested++
			reason, blocked[j.Partition] = states.WaitResources, true
		}
		plan.Reasons = append(plan.Reasons, scheduler.PendingReason{JobID: j.ID, Reason: uint32(reason)})
	}
	return plan, nil
}

// Order sorts jobs shortest time limit first (no limit counts as longest), then in the
// controller's priority order.
func Order(jobs []*scheduler.Job) []*scheduler.Job {
	slices.SortStableFunc(jobs, func(a, b *scheduler.Job) int {
		return cmp.Or(cmp.Compare(a.TimeLimit, b.TimeLimit), scheduler.ComparePriority(a, b))
	})
	return jobs
}

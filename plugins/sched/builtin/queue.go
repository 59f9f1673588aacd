package builtin

import (
	"cmp"
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Queue is m's pending jobs in the order Slurm's schedulers consider them (job_scheduler.c
// sort_job_queue2): jobs of partitions with a higher PriorityTier first, then by priority,
// submit time and id (scheduler.ComparePriority). A job whose partition m does not know
// sorts as tier 0.
func Queue(m *scheduler.Mirror) []*scheduler.Job {
	pending := m.Pending()
	tiers := map[string]uint32{}
	for _, j := range pending {
		if _, ok := tiers[j.Partition]; !ok {
			if p := m.Partition(j.Partition); p != nil {
				tiers[j.Partition] = p.PriorityTier
			} else {
				tiers[j.Partition] = 0
			}
		}
	}
	if len(tiers) < 2 {
		return pending // one partition (the usual case): nothing to reorder
	}
	// Pending is in priority order already: a stable sort by tier keeps it within a tier.
	slices.SortStableFunc(pending, func(a, b *scheduler.Job) int {
		return cmp.Compare(tiers[b.Partition], tiers[a.Partition])
	})
	return pending
}

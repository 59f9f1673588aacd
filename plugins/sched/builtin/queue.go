package builtin

import (
	"cmp"
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Queue is m's pending jobs in the order Slurm's schedulers consider them (job_scheduler.c
// sort_job_queue2): jobs that name an advance reservation first, then jobs of partitions
// with a higher PriorityTier, then by priority, submit time and id
// (scheduler.ComparePriority). A job whose partition m does not know sorts as tier 0.
//
// Jobs in reservations go first so that no job outside blocks a partition, and withholds
// its nodes, before they had their turn on the nodes reserved for them.
func Queue(m *scheduler.Mirror) []*scheduler.Job {
	pending := m.Pending()
	tiers := map[string]uint32{}
	inResv := false
	for _, j := range pending {
		inResv = inResv || j.Reservation != ""
		if _, ok := tiers[j.Partition]; !ok {
			if p := m.Partition(j.Partition); p != nil {
				tiers[j.Partition] = p.PriorityTier
			} else {
				tiers[j.Partition] = 0
			}
		}
	}
	if len(tiers) < 2 && !inResv {
		return pending // one partition and no reservation (the usual case): nothing to reorder
	}
	// Pending is in priority order already: a stable sort keeps it within a tier.
	slices.SortStableFunc(pending, func(a, b *scheduler.Job) int {
		if ra, rb := a.Reservation != "", b.Reservation != ""; ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return cmp.Compare(tiers[b.Partition], tiers[a.Partition])
	})
	return pending
}

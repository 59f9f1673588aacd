package store

import (
	"math/bits"
	"time"
)

// numGroupBuckets is the number of group-size buckets: 1, 2, 3-4, 5-8, … 513-1024, 1025+.
const numGroupBuckets = 12

// statCounters are the writer's running totals, guarded by Store.statsMu.
type statCounters struct {
	batches, failedBatches uint64
	groups, failedGroups   uint64
	maxGroup               int
	groupSizes             [numGroupBuckets]uint64
	commitTime             time.Duration
}

// GroupSizeBucket counts the transactions that carried between Min and Max batches.
type GroupSizeBucket struct {
	Min, Max int // Max is 0 for the last, open-ended bucket
	Count    uint64
}

// Stats is a snapshot of the writer's work since Open, for sdiag.
type Stats struct {
	Batches       uint64            // batches made durable
	FailedBatches uint64            // batches refused by SQLite (not counting invalid batches refused before queueing)
	Groups        uint64            // transactions committed, one WAL fsync each
	FailedGroups  uint64            // transactions that failed as a whole (BEGIN or COMMIT failed)
	MaxGroupSize  int               // most batches seen in one transaction
	GroupSizes    []GroupSizeBucket // transactions by number of batches carried
	CommitTime    time.Duration     // total time spent writing and syncing transactions
	Queued        int               // batches waiting for the writer at the time of the snapshot
}

// Stats returns the writer's counters since Open.
func (s *Store) Stats() Stats {
	s.statsMu.Lock()
	c := s.stats
	s.statsMu.Unlock()
	st := Stats{
		Batches:       c.batches,
		FailedBatches: c.failedBatches,
		Groups:        c.groups,
		FailedGroups:  c.failedGroups,
		MaxGroupSize:  c.maxGroup,
		CommitTime:    c.commitTime,
		Queued:        len(s.queue),
	}
	for i, n := range c.groupSizes {
		b := GroupSizeBucket{Count: n}
		switch {
		case i == 0:
			b.Min, b.Max = 1, 1
		case i == numGroupBuckets-1:
			b.Min = 1<<(i-1) + 1
		default:
			b.Min, b.Max = 1<<(i-1)+1, 1<<i
		}
		st.GroupSizes = append(st.GroupSizes, b)
	}
	return st
}

// groupBucket is the bucket of a group of n ≥ 1 batches: the smallest i with n ≤ 2^i.
func groupBucket(n int) int {
	i := bits.Len(uint(n - 1))
	return min(i, numGroupBuckets-1)
}

func (s *Store) recordGroup(size, failed int, ok bool, d time.Duration) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	c := &s.stats
	c.commitTime += d
	c.failedBatches += uint64(failed)
	if !ok {
		c.failedGroups++
		return
	}
	c.groups++
	c.batches += uint64(size - failed)
	c.maxGroup = max(c.maxGroup, size)
	c.groupSizes[groupBucket(size)]++
}

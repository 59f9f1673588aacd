package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/format"
)

// defaultSort is squeue's order for jobs: partition, then compact state name, then priority
// from high to low.
const defaultSort = "P,t,-p"

type rowCmp func(a, b *format.JobRow) int

// sortKeys maps a -S letter to its comparison; Slurm accepts some letters without sorting by
// them (c, f, h, n, O), which map to nil.
var sortKeys = map[byte]rowCmp{
	'B': func(a, b *format.JobRow) int { return strings.Compare(a.BatchHost, b.BatchHost) },
	'C': func(a, b *format.JobRow) int { return cmp.Compare(a.NumCPUs, b.NumCPUs) },
	'D': func(a, b *format.JobRow) int { return cmp.Compare(a.NumNodes, b.NumNodes) },
	'e': func(a, b *format.JobRow) int { return a.End.Compare(b.End) },
	'g': func(a, b *format.JobRow) int { return strings.Compare(a.GroupName, b.GroupName) },
	'G': func(a, b *format.JobRow) int { return cmp.Compare(a.GroupID, b.GroupID) },
	'i': cmpJobID,
	'j': func(a, b *format.JobRow) int { return strings.Compare(a.Name, b.Name) },
	'l': func(a, b *format.JobRow) int { return cmp.Compare(a.TimeLimit, b.TimeLimit) },
	'M': func(a, b *format.JobRow) int { return cmp.Compare(a.TimeUsed(), b.TimeUsed()) },
	'p': func(a, b *format.JobRow) int { return cmp.Compare(a.Priority, b.Priority) },
	'P': func(a, b *format.JobRow) int { return strings.Compare(a.Partition, b.Partition) },
	'Q': func(a, b *format.JobRow) int { return cmp.Compare(a.Priority, b.Priority) },
	'S': func(a, b *format.JobRow) int { return a.Start.Compare(b.Start) },
	't': func(a, b *format.JobRow) int { return strings.Compare(a.State.Compact(), b.State.Compact()) },
	'T': func(a, b *format.JobRow) int { return strings.Compare(a.State.String(), b.State.String()) },
	'u': func(a, b *format.JobRow) int { return strings.Compare(a.UserName, b.UserName) },
	'U': func(a, b *format.JobRow) int { return cmp.Compare(a.UserID, b.UserID) },
	'v': func(a, b *format.JobRow) int { return strings.Compare(a.Reservation, b.Reservation) },
	'V': func(a, b *format.JobRow) int { return a.Submit.Compare(b.Submit) },
	'c': nil, 'f': nil, 'h': nil, 'n': nil, 'O': nil,
}

// cmpJobID orders by job id, array tasks of one array by task id.
func cmpJobID(a, b *format.JobRow) int {
	ida, idb := a.JobID, b.JobID
	if a.ArrayTaskID != format.NoVal {
		ida = a.ArrayJobID
	}
	if b.ArrayTaskID != format.NoVal {
		idb = b.ArrayJobID
	}
	if ida != idb {
		return cmp.Compare(ida, idb)
	}
	return cmp.Compare(a.ArrayTaskID, b.ArrayTaskID)
}

// startCmp is Slurm's start-time order: a job without a start time compares as later than
// anything (even with -S -S), and a pending job's past start counts as now.
func startCmp(rev bool) rowCmp {
	return func(a, b *format.JobRow) int {
		if a.Start.IsZero() {
			return 1
		}
		if b.Start.IsZero() {
			return -1
		}
		sa, sb := a.Start, b.Start
		if a.State.IsPending() && sa.Before(a.Now) {
			sa = a.Now
		}
		if b.State.IsPending() && sb.Before(b.Now) {
			sb = b.Now
		}
		c := sa.Compare(sb)
		if rev {
			c = -c
		}
		return c
	}
}

// parseSort turns a -S list ("P,t,-p", "-cluster") into comparisons in the order Slurm
// applies them: it reads the list from its end, one letter at a time, so the last key is
// applied first and the first key last.
func parseSort(spec string) ([]rowCmp, error) {
	if spec == "" {
		spec = defaultSort
	}
	const cluster = "cluster"
	var keys []rowCmp
	for i := len(spec) - 1; i >= 0; i-- {
		ch := spec[i]
		if ch == ',' || ch == '+' || ch == '-' {
			continue
		}
		rev := i > 0 && spec[i-1] == '-'
		if i+1 >= len(cluster) && strings.EqualFold(spec[i+1-len(cluster):i+1], cluster) {
			i -= len(cluster) - 1 // one cluster: nothing to sort by
			continue
		}
		if ch == 'S' {
			keys = append(keys, startCmp(rev))
			continue
		}
		c, ok := sortKeys[ch]
		if !ok {
			return nil, fmt.Errorf("Invalid sort specification: %c", ch)
		}
		if c == nil {
			continue
		}
		if rev {
			f := c
			c = func(a, b *format.JobRow) int { return -f(a, b) }
		}
		keys = append(keys, c)
	}
	return keys, nil
}

// sortRows orders rows by spec (squeue's default when empty) as Slurm does. The controller
// lists jobs in job id order; squeue first sorts them by start time, latest first, and then
// applies each key, last key first, with glibc's merge sort (msort). Its exact behaviour
// matters: the start-time comparison is not a strict order (a job without a start time is
// "later" than everything, itself included), which reverses the order of such jobs.
func sortRows(rows []*format.JobRow, spec string) error {
	keys, err := parseSort(spec)
	if err != nil {
		return err
	}
	slices.SortStableFunc(rows, func(a, b *format.JobRow) int { return cmp.Compare(a.JobID, b.JobID) })
	tmp := make([]*format.JobRow, len(rows))
	msort(rows, tmp, startCmp(true))
	for _, k := range keys {
		msort(rows, tmp, k)
	}
	return nil
}

// msort is glibc's merge sort (msort_with_tmp): halves of n/2 and n-n/2, and a merge that
// takes from the left run while cmp(left, right) <= 0.
func msort[T any](b, tmp []T, cmpf func(a, b T) int) {
	n := len(b)
	if n <= 1 {
		return
	}
	n1 := n / 2
	b1, b2 := b[:n1], b[n1:]
	msort(b1, tmp, cmpf)
	msort(b2, tmp, cmpf)
	out := tmp[:0]
	for len(b1) > 0 && len(b2) > 0 {
		if cmpf(b1[0], b2[0]) <= 0 {
			out = append(out, b1[0])
			b1 = b1[1:]
		} else {
			out = append(out, b2[0])
			b2 = b2[1:]
		}
	}
	out = append(out, b1...)
	copy(b, out)
}

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

// parseSort turns a -S list ("P,t,-p", "-cluster") into comparisons, first key first.
func parseSort(spec string) ([]rowCmp, error) {
	if spec == "" {
		spec = defaultSort
	}
	var keys []rowCmp
	for _, item := range strings.Split(spec, ",") {
		for len(item) > 0 {
			rev := false
			switch item[0] {
			case '+':
				item = item[1:]
				continue
			case '-':
				rev = true
				item = item[1:]
			}
			if len(item) == 0 {
				break
			}
			if len(item) >= 7 && strings.EqualFold(item[:7], "cluster") {
				item = item[7:] // one cluster: nothing to sort by
				continue
			}
			c, ok := sortKeys[item[0]]
			if !ok {
				return nil, fmt.Errorf("Invalid sort specification: %c", item[0])
			}
			item = item[1:]
			if c == nil {
				continue
			}
			if rev {
				f := c
				c = func(a, b *format.JobRow) int { return -f(a, b) }
			}
			keys = append(keys, c)
		}
	}
	return keys, nil
}

// sortRows orders rows by spec (squeue's default when empty). Rows that compare equal keep
// job id order.
func sortRows(rows []*format.JobRow, spec string) error {
	keys, err := parseSort(spec)
	if err != nil {
		return err
	}
	slices.SortStableFunc(rows, func(a, b *format.JobRow) int {
		for _, k := range keys {
			if c := k(a, b); c != 0 {
				return c
			}
		}
		return cmpJobID(a, b)
	})
	return nil
}

package main

import (
	"cmp"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// sortGroups orders the lines as sort_sinfo_list does. The spec ("#P,-t" by default, "N"
// for -N) is read from its last letter to its first, each letter a stable sort, so the first
// letter is the primary key. "-" before a letter reverses it; "#" before P orders partitions
// as configured instead of by name. Unknown letters are ignored, as in Slurm. set says a
// spec was given at all (an empty SINFO_SORT sorts nothing).
func sortGroups(list []*group, spec string, set, nodeView bool) {
	if !set {
		spec = "#P,-t"
		if nodeView {
			spec = "N"
		}
	}
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '#' || c == '+' || c == '-' {
			continue
		}
		reverse := i > 0 && spec[i-1] == '-'
		partOrder := i > 0 && spec[i-1] == '#'
		key := sortKey(c, partOrder)
		if key == nil {
			continue
		}
		slices.SortStableFunc(list, func(a, b *group) int {
			if reverse {
				return -key(a, b)
			}
			return key(a, b)
		})
	}
}

// sortKey returns the comparison for one sort letter, or nil for a letter Slurm ignores.
func sortKey(c byte, partOrder bool) func(a, b *group) int {
	partStr := func(get func(g *group) string) func(a, b *group) int {
		return func(a, b *group) int {
			return strings.Compare(orEmpty(a, get), orEmpty(b, get))
		}
	}
	partNum := func(get func(g *group) int64) func(a, b *group) int {
		return func(a, b *group) int {
			var x, y int64
			if a.part != nil {
				x = get(a)
			}
			if b.part != nil {
				y = get(b)
			}
			return cmp.Compare(x, y)
		}
	}
	row := func(get func(g *group) uint64) func(a, b *group) int {
		return func(a, b *group) int { return cmp.Compare(get(a), get(b)) }
	}
	switch c {
	case 'a':
		return partNum(func(g *group) int64 { return int64(partitionStateUp(g.part.State)) })
	case 'A', 'F':
		return row(func(g *group) uint64 { return uint64(g.row.NodesAlloc) })
	case 'b':
		return func(a, b *group) int { return strings.Compare(a.row.FeaturesAct, b.row.FeaturesAct) }
	case 'c':
		return row(func(g *group) uint64 { return uint64(g.row.MinCPUs) })
	case 'd':
		return row(func(g *group) uint64 { return uint64(g.row.MinDiskMB) })
	case 'D':
		return row(func(g *group) uint64 { return uint64(g.row.NodesTotal) })
	case 'E':
		return func(a, b *group) int { return strings.Compare(a.row.Reason, b.row.Reason) }
	case 'f':
		return func(a, b *group) int { return strings.Compare(a.row.Features, b.row.Features) }
	case 'g':
		return partStr(func(g *group) string { return g.part.AllowGroups })
	case 'h':
		return partNum(func(g *group) int64 { return int64(maxShare(g.part)) })
	case 'H':
		return func(a, b *group) int { return cmp.Compare(a.reasonTime, b.reasonTime) }
	case 'l':
		return partNum(func(g *group) int64 { return int64(g.part.MaxTime) })
	case 'm':
		return row(func(g *group) uint64 { return g.row.MinMemMB })
	case 'M':
		return partNum(func(g *group) int64 { return int64(preemptModeNum(preemptMode(g.part))) })
	case 'n':
		return func(a, b *group) int { return hostCmpFirst(first(a.hosts), first(b.hosts)) }
	case 'N':
		return func(a, b *group) int { return hostCmpFirst(firstSorted(a.nodes), firstSorted(b.nodes)) }
	case 'o':
		return func(a, b *group) int { return hostCmpFirst(first(a.addrs), first(b.addrs)) }
	case 'O':
		return func(a, b *group) int { return cmp.Compare(a.cpuLoad[0], b.cpuLoad[0]) }
	case 'e':
		return func(a, b *group) int { return cmp.Compare(a.freeMem[0], b.freeMem[0]) }
	case 'p':
		return partNum(func(g *group) int64 { return int64(g.part.PriorityTier) })
	case 'P', 'R':
		if partOrder && c == 'P' {
			return func(a, b *group) int { return cmp.Compare(a.partIdx, b.partIdx) }
		}
		return partStr(func(g *group) string { return g.part.Name })
	case 'r':
		return partNum(func(g *group) int64 {
			if g.part.RootOnly {
				return 1
			}
			return 0
		})
	case 's':
		return partNum(func(g *group) int64 {
			v := g.part.MaxNodes
			if v != infinite {
				v += g.part.MinNodes
			}
			return int64(v)
		})
	case 'S':
		return partNum(func(g *group) int64 { return int64(g.part.PriorityJobFactor) })
	case 't', 'T':
		// Slurm subtracts the raw state words as ints.
		return func(a, b *group) int { return cmp.Compare(int32(a.row.NodeState), int32(b.row.NodeState)) }
	case 'u', 'U':
		return func(a, b *group) int { return cmp.Compare(a.row.ReasonUID, b.row.ReasonUID) }
	case 'V':
		return func(a, b *group) int { return 0 } // one cluster
	case 'w':
		return row(func(g *group) uint64 { return uint64(g.row.MinWeight) })
	case 'X':
		return row(func(g *group) uint64 { return uint64(g.row.MinSockets) })
	case 'Y':
		return row(func(g *group) uint64 { return uint64(g.row.MinCores) })
	case 'Z':
		return row(func(g *group) uint64 { return uint64(g.row.MinThreads) })
	case 'z':
		return func(a, b *group) int {
			return cmp.Or(cmp.Compare(a.row.MinSockets, b.row.MinSockets),
				cmp.Compare(a.row.MinCores, b.row.MinCores),
				cmp.Compare(a.row.MinThreads, b.row.MinThreads))
		}
	}
	return nil
}

const infinite = 0xffffffff

func orEmpty(g *group, get func(g *group) string) string {
	if g.part == nil {
		return ""
	}
	return get(g)
}

// partitionStateUp is Slurm's numeric partition state (PARTITION_DOWN 1, UP 3, DRAIN 2,
// INACTIVE 0), which -S a compares.
func partitionStateUp(s string) int {
	switch strings.ToUpper(s) {
	case "UP":
		return 3
	case "DRAIN":
		return 2
	case "DOWN":
		return 1
	}
	return 0
}

// preemptModeNum is Slurm's PREEMPT_MODE_* value, which -S M compares.
func preemptModeNum(s string) int {
	n := 0
	for _, m := range strings.Split(strings.ToUpper(s), ",") {
		switch m {
		case "SUSPEND":
			n |= 1
		case "REQUEUE":
			n |= 2
		case "CANCEL":
			n |= 8
		case "GANG":
			n |= 0x8000
		case "WITHIN":
			n |= 0x4000
		}
	}
	return n
}

// hostCmpFirst compares the first hosts of two lines' lists as hostlist_cmp_first does: by
// prefix in natural order, then number. An empty list ("") sorts last.
func hostCmpFirst(x, y string) int {
	switch {
	case x == y:
		return 0
	case x == "":
		return 1
	case y == "":
		return -1
	}
	hl := hostlist.FromNames([]string{y, x})
	hl.Sort()
	if h, _ := hl.Nth(0); h == x {
		return -1
	}
	return 1
}

// first is the first host pushed on a list: sinfo sorts only the node list itself, so the
// host-name and address lists keep their order.
func first(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// firstSorted is the host a sorted node list starts with.
func firstSorted(names []string) string {
	if len(names) <= 1 {
		return first(names)
	}
	hl := hostlist.FromNames(names)
	hl.Sort()
	h, _ := hl.Nth(0)
	return h
}

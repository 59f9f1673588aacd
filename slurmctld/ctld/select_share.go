package ctld

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// Jobs sharing CPUs (OverSubscribe=YES:n with --oversubscribe, FORCE:n), counted as
// plugins/sched/selection's share.go counts them, so that the controller verifies and shows
// what the plugins plan: a sharing partition has n rows; a job that shares holds its CPUs
// in one row, no two jobs of a row hold the same CPU; the CPUs sharing jobs hold on a node
// are its fullest row's (nodeEntry.shareCPUs), beside allocCPUs, those of jobs that do not
// share. A job that shares never joins a node where a job that does not share runs, nor
// the other way round across partitions (select/cons_tres's NODE_CR_ONE_ROW).
//
// The row a job holds is the controller's run-time choice (tables.shareRow), made again
// when the state is loaded, and shown to the plugins (scheduler.Job.ShareRow).

// shareOf is the rows of a partition with OverSubscribe=over (YES:n or FORCE:n: n, YES and
// FORCE alone 4) and whether every job there shares (FORCE); rows < 2 when none share.
func shareOf(over string) (rows int, force bool) {
	u := strings.ToUpper(over)
	switch {
	case strings.HasPrefix(u, "FORCE"):
		force, u = true, u[len("FORCE"):]
	case strings.HasPrefix(u, "YES"):
		u = u[len("YES"):]
	default:
		return 0, false
	}
	if u == "" {
		return 4, force
	}
	n, err := strconv.Atoi(strings.TrimPrefix(u, ":"))
	if err != nil {
		return 0, false
	}
	return n, force
}

// sharesCPUs says whether job j shares CPUs in partition part: the partition lets several
// jobs hold a CPU, forces it or j asked with --oversubscribe, and the select plugin counts
// CPUs (not select/linear, not CR_Memory).
func (t *tables) sharesCPUs(j *jobRecord, part string) bool {
	p := t.parts[part]
	if p == nil || !t.sharesAtAll {
		return false
	}
	rows, force := shareOf(p.conf.OverSubscribe)
	return rows > 1 && (force || jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedOK)
}

// busyCPUs is the CPUs jobs hold on n, as sinfo and scontrol show them: those of jobs that
// do not share, and the fullest row's of those that do.
func (n *nodeEntry) busyCPUs() uint32 { return min(n.allocCPUs+n.shareCPUs, n.cpus()) }

// sharedByOthers says whether jobs of a partition other than part share CPUs on n: a job
// that does not share stays off it.
func (n *nodeEntry) sharedByOthers(part string) bool {
	for p, rows := range n.share {
		if p == part {
			continue
		}
		for _, u := range rows {
			if u > 0 {
				return true
			}
		}
	}
	return false
}

// viewIdle is the view of a node's idle CPUs (freeIn); a view >= 0 is one row's.
const viewIdle = -1

// freeIn is the CPUs of n a job of partition part may take in view v, whether nothing
// holds any of them in that view (an --exclusive job needs that), and whether the job may
// use n at all; shares says the job shares CPUs there (sharesCPUs).
func freeIn(n *nodeEntry, shares bool, part string, v int) (free uint32, empty, ok bool) {
	cpus := n.cpus()
	if shares {
		if n.jobs > n.shareJobs {
			return 0, false, false // a job that does not share holds it
		}
		if v == viewIdle {
			return cpus - min(n.shareCPUs, cpus), n.jobs == 0, true
		}
		var u uint32
		if rows := n.share[part]; v < len(rows) {
			u = rows[v]
		}
		return cpus - min(u, cpus), u == 0, true
	}
	if len(n.share) > 0 && n.sharedByOthers(part) {
		return 0, false, false
	}
	return cpus - n.busyCPUs(), n.jobs == 0, true
}

// sketch is a copy of the named nodes of t (all when names is nil), with what releasing a
// job there needs, that will-run and preemption change to try a future without touching t.
func (t *tables) sketch(names []string) *tables {
	f := &tables{nodes: make(map[string]*nodeEntry, len(names)), parts: t.parts, wholeCores: t.wholeCores, sharesAtAll: t.sharesAtAll,
		shareRow: maps.Clone(t.shareRow)}
	add := func(name string, n *nodeEntry) {
		cp := *n
		cp.gres = n.cloneGres() // release frees devices: not the live node's
		cp.partCPUs = maps.Clone(n.partCPUs)
		if n.share != nil {
			cp.share = make(map[string][]uint32, len(n.share))
			for p, rows := range n.share {
				cp.share[p] = slices.Clone(rows)
			}
		}
		f.nodes[name] = &cp
	}
	if names == nil {
		for name, n := range t.nodes {
			add(name, n)
		}
	}
	for _, name := range names {
		if n := t.nodes[name]; n != nil {
			add(name, n)
		}
	}
	return f
}

// shareRowsOf is partition part's rows in the order a job is tried in them: fullest first
// (select/cons_tres's part_data_sort_res), then by number.
func (t *tables) shareRowsOf(part string) []int {
	rows, _ := shareOf(t.parts[part].conf.OverSubscribe)
	total := make([]uint64, rows)
	for _, name := range t.parts[part].nodes {
		for r, u := range t.nodes[name].share[part] {
			if r < rows {
				total[r] += uint64(u)
			}
		}
	}
	order := make([]int, rows)
	for r := range order {
		order[r] = r
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case total[a] > total[b]:
			return -1
		case total[a] < total[b]:
			return 1
		}
		return 0
	})
	return order
}

// pickRow is the row of partition part where held[k] more CPUs fit on every nodes[k] (in
// a row with nothing on those nodes for a whole-node job), fullest row first; false when
// none has room.
func (t *tables) pickRow(part string, nodes []*nodeEntry, held []uint32, whole bool) (int, bool) {
	for _, r := range t.shareRowsOf(part) {
		fits := true
		for k, n := range nodes {
			var u uint32
			if rows := n.share[part]; r < len(rows) {
				u = rows[r]
			}
			if whole && u > 0 || u+held[k] > n.cpus() {
				fits = false
				break
			}
		}
		if fits {
			return r, true
		}
	}
	return 0, false
}

// holdShared books (sign 1) or gives back (-1) a sharing job's CPUs in its row. What is
// given back is what was booked, whatever the partition says by then.
func (t *tables) holdShared(j *jobRecord, sign int) {
	nodes := make([]*nodeEntry, 0, len(j.Nodes))
	held := make([]uint32, 0, len(j.Nodes))
	for i, name := range j.Nodes {
		if n := t.nodes[name]; n != nil {
			nodes = append(nodes, n)
			held = append(held, t.heldOn(j, n, j.CPUsPerNode[i]))
		}
	}
	row, ok := t.shareRow[j.JobID]
	if sign > 0 {
		row, _ = t.pickRow(j.Partition, nodes, held, j.Exclusive) // row 0 when none has room: Slurm's "job overflow"
		if t.shareRow == nil {
			t.shareRow = map[uint32]int{}
		}
		t.shareRow[j.JobID] = row
	} else {
		if !ok {
			return
		}
		delete(t.shareRow, j.JobID)
	}
	for k, n := range nodes {
		if n.share == nil {
			n.share = map[string][]uint32{}
		}
		use := n.share[j.Partition]
		if len(use) <= row {
			use = append(use, make([]uint32, row+1-len(use))...)
		}
		use[row] = uint32(max(int64(use[row])+int64(sign)*int64(held[k]), 0))
		n.share[j.Partition] = use
		n.shareJobs += sign
		n.shareCPUs = 0
		for _, u := range n.share {
			for _, c := range u {
				n.shareCPUs = max(n.shareCPUs, c)
			}
		}
	}
}

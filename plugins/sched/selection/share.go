package selection

import (
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Jobs sharing CPUs (OverSubscribe=YES:n, FORCE:n), as select/cons_tres keeps them: such a
// partition has n rows; no two jobs of one row hold the same CPU, and a job that shares
// holds all its CPUs in one row, so a CPU is held by at most n jobs. Slurm keeps a core
// bitmap per row; a Pool counts: the CPUs each row holds on each node. Jobs of different
// rows are taken to overlap as far as they can (Slurm gives a job the lowest-numbered cores
// free to it), so the CPUs sharing jobs hold on a node are its fullest row's (Free.ShareCPUs).
//
// As job_test.c places them: a job that shares is tried on idle CPUs first, then row by row
// (fullest first), then in an empty row; it never goes to a node where a job that does not
// share runs (NODE_CR_ONE_ROW). A job that does not share takes idle CPUs only, and not on
// nodes where jobs of another partition share CPUs. An --exclusive job that shares takes
// whole nodes its row has nothing on (_block_whole_nodes), not nodes nobody holds.
//
// select/linear and CR_Memory do not share this way: there every job is booked as one that
// does not share.

// shareRows is one sharing partition's rows.
type shareRows struct {
	force bool       // FORCE: every job of the partition shares
	use   [][]uint32 // by row, then pool index: CPUs the row holds on the node
	total []uint64   // by row: CPUs the row holds in all
}

// Views of a node's CPUs a job is placed on (Pool.freeIn): idle ones, or (a row index)
// those free in one row of its partition, or the most any row leaves (a Tally's bound).
const (
	viewIdle = -1
	viewAny  = -2
)

// shareParts registers the rows of parts whose jobs may share CPUs (LimitPartitions).
func (p *Pool) shareParts(parts []scheduler.Partition) {
	if !p.Mode.CPUs || p.Mode.WholeNode {
		return
	}
	for _, part := range parts {
		if part.ShareRows < 2 {
			continue
		}
		if p.shareIdx == nil {
			p.shareIdx = map[string]int{}
		}
		rs := shareRows{force: part.ShareForce, total: make([]uint64, part.ShareRows)}
		for range part.ShareRows {
			rs.use = append(rs.use, make([]uint32, len(p.nodes)))
		}
		p.shareIdx[part.Name] = len(p.share)
		p.share = append(p.share, rs)
	}
}

// sharing is the rows of partition part when j shares CPUs there, else -1.
func (p *Pool) sharing(j *scheduler.Job, part string) int {
	si, ok := p.shareIdx[part]
	if !ok || !(p.share[si].force || j.Oversubscribe) {
		return -1
	}
	return si
}

// views is the order in which Select tries a job on a partition's CPUs: idle ones, then,
// for a job that shares (rows si), each row that holds something, fullest first, then
// one empty row if there is one.
func (p *Pool) views(si int) []int {
	if si < 0 {
		return idleOnly
	}
	rs := &p.share[si]
	rows := make([]int, len(rs.total))
	for r := range rows {
		rows[r] = r
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		switch {
		case rs.total[a] > rs.total[b]:
			return -1
		case rs.total[a] < rs.total[b]:
			return 1
		}
		return 0
	})
	out := []int{viewIdle}
	for _, r := range rows {
		out = append(out, r)
		if rs.total[r] == 0 {
			break // one empty row is as good as another
		}
	}
	return out
}

// idleOnly is the views of a job that does not share (read only).
var idleOnly = []int{viewIdle}

// idleRow is the row a job placed on idle CPUs joins: the fullest (which Slurm's
// add_job_to_res, trying its rows in their last sorted order, takes first).
func (p *Pool) idleRow(si int) int {
	return p.views(si)[1]
}

// nodeView is what one view of a node leaves a job (Pool.freeIn): the CPUs it may take,
// whether nothing is held there in that view (an --exclusive job needs that), and whether
// it may use the node at all.
type nodeView struct {
	free      uint32
	empty, ok bool
}

// freeIn is node i in view v for a job of partition part; si is the job's rows when it
// shares CPUs, else -1.
func (p *Pool) freeIn(i int, si int, part string, v int) nodeView {
	f := &p.nodes[i]
	cpus := f.Node.CPUs
	if si >= 0 {
		if f.Jobs > f.ShareJobs {
			return nodeView{} // a job that does not share holds the node
		}
		var u uint32
		switch v {
		case viewIdle:
			return nodeView{cpus - min(f.ShareCPUs, cpus), f.Jobs == 0, true}
		case viewAny:
			u = cpus
			for _, row := range p.share[si].use {
				u = min(u, row[i])
			}
		default:
			u = p.share[si].use[v][i]
		}
		return nodeView{cpus - min(u, cpus), u == 0, true}
	}
	if len(p.share) == 0 {
		return nodeView{cpus - min(f.AllocCPUs, cpus), f.Jobs == 0, true} // no partition shares
	}
	mine, hasMine := p.shareIdx[part]
	for k := range p.share {
		if hasMine && k == mine {
			continue
		}
		for _, row := range p.share[k].use {
			if row[i] > 0 {
				return nodeView{} // jobs of another partition share CPUs here
			}
		}
	}
	return nodeView{cpus - min(f.AllocCPUs+f.ShareCPUs, cpus), f.Jobs == 0, true}
}

// fitRow is the first row of si where cpus[k] more CPUs fit on every node idx[k] (nothing
// held there for a whole-node booking): the row a running job is booked in when its row is
// not known. Row 0 when none fits (Slurm logs a "job overflow" then).
func (p *Pool) fitRow(si int, idx []int32, cpus []uint32, whole bool) int {
	for r, row := range p.share[si].use {
		fits := true
		for k, i := range idx {
			if whole && row[i] > 0 || row[i]+cpus[k] > p.nodes[i].Node.CPUs {
				fits = false
				break
			}
		}
		if fits {
			return r
		}
	}
	return 0
}

// bookShare adds (sign 1) or removes (-1) cpus of node i in row r of si.
func (p *Pool) bookShare(si, r, i int, cpus uint32, sign int) {
	rs := &p.share[si]
	rs.use[r][i] = uint32(int64(rs.use[r][i]) + int64(sign)*int64(cpus))
	rs.total[r] = uint64(int64(rs.total[r]) + int64(sign)*int64(cpus))
	var most uint32
	for k := range p.share {
		for _, row := range p.share[k].use {
			most = max(most, row[i])
		}
	}
	p.nodes[i].ShareCPUs = most
}

// cloneShare is a deep copy of rows.
func cloneShare(rows []shareRows) []shareRows {
	out := make([]shareRows, len(rows))
	for k, rs := range rows {
		out[k] = shareRows{force: rs.force, total: slices.Clone(rs.total)}
		for _, row := range rs.use {
			out[k].use = append(out[k].use, slices.Clone(row))
		}
	}
	return out
}

// overbookedShare names a node one row holds more CPUs of than it has, or "".
func (p *Pool) overbookedShare() string {
	for _, rs := range p.share {
		for _, row := range rs.use {
			for i, u := range row {
				if u > p.nodes[i].Node.CPUs {
					return p.nodes[i].Node.Name
				}
			}
		}
	}
	return ""
}

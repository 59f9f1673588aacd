package selection

import (
	"cmp"
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Free is what is left of one node: its configuration and what jobs hold on it.
type Free struct {
	Node      scheduler.Node
	AllocCPUs uint32
	AllocMem  uint64
	Jobs      int // jobs (or reservations) holding the node
	Exclusive int // of which with --exclusive (or whole-node under select/linear), not sharing
	// ShareJobs are the jobs holding it that share CPUs, and ShareCPUs the CPUs they hold
	// (share.go): not counted in AllocCPUs.
	ShareJobs int
	ShareCPUs uint32
	// OwnerJobs are the jobs holding it with --exclusive=user (or in a partition with
	// ExclusiveUser=YES), all of user Owner: no other user's job may join them (user.go).
	OwnerJobs int
	Owner     uint32
	users     []uint32 // the user of each job holding it
}

// Pool is the free resources of every node, in the order nodes were given (configuration
// order). A Pool is a value a scheduler changes as it plans: Take books an allocation.
//
// Nodes live in a slice indexed through a name index that clones share (the node set never
// changes during a pass), so booking and cloning cost no map allocation per node.
type Pool struct {
	Mode  Mode
	nodes []Free
	index map[string]int
	order []string
	// parts caches each partition's node indices for Watch (a pool lives for one pass).
	parts map[string][]int
	watch *Tally
	// gresUsed is every node's GRES in use, flat: node i's entries (one per entry of its
	// Node.Gres) start at gresOff[i]. Clones copy it; the offsets are shared.
	gresUsed []uint64
	gresOff  []int32
	// caps are the partitions with a MaxCPUsPerNode (LimitPartitions): partUse[k][i] is the
	// CPUs that partition caps[name].index's jobs hold on node i.
	caps    map[string]partCap
	partUse [][]uint32
	// withheld marks nodes a main pass keeps from lower-priority jobs (Withhold); nil
	// when none is.
	withheld []bool
	// barred marks the nodes kept from the job being placed (Bar); nil when none is.
	barred []bool
	// prefer marks the nodes Select takes first (Prefer); nil when none.
	prefer []bool
	// share is the rows of each partition whose jobs share CPUs (share.go), shareIdx
	// their index by partition name.
	share    []shareRows
	shareIdx map[string]int
}

// partCap is one partition's MaxCPUsPerNode and its row in Pool.partUse.
type partCap struct {
	index int
	max   uint32
}

// noCap is the room a partition without MaxCPUsPerNode leaves on a node.
const noCap = ^uint32(0)

// LimitPartitions makes p count, for each of parts with a MaxCPUsPerNode, the CPUs its jobs
// hold on each node (allocations name their partition: Alloc.Partition), so that Select
// gives none of its jobs more than the limit leaves (select/cons_tres's part_cpu_limit),
// and keep the rows of those whose jobs share CPUs (share.go). It is called on a new pool,
// before anything is booked.
func (p *Pool) LimitPartitions(parts []scheduler.Partition) {
	p.shareParts(parts)
	for _, part := range parts {
		if part.MaxCPUsPerNode == 0 || part.MaxCPUsPerNode == scheduler.Infinite {
			continue
		}
		if p.caps == nil {
			p.caps = map[string]partCap{}
		}
		p.caps[part.Name] = partCap{index: len(p.partUse), max: part.MaxCPUsPerNode}
		p.partUse = append(p.partUse, make([]uint32, len(p.nodes)))
	}
}

// Withhold keeps the named nodes from every later Select on p (Slurm's main scheduler takes
// the nodes of a partition whose job could not start out of avail_node_bitmap, so that lower
// priority jobs of other partitions do not take them first). Unknown names are ignored.
func (p *Pool) Withhold(names []string) {
	if p.withheld == nil {
		p.withheld = make([]bool, len(p.nodes))
	}
	for _, n := range names {
		if i, ok := p.index[n]; ok {
			p.withheld[i] = true
		}
	}
}

// Available is how many of part's nodes a job may be given now: usable (not down, drained
// or not responding) and not withheld (Slurm's avail_node_bitmap within the partition).
func (p *Pool) Available(part *scheduler.Partition) int {
	n := 0
	for _, i := range p.partIndex(part) {
		if p.nodes[i].Node.Usable && (p.withheld == nil || !p.withheld[i]) {
			n++
		}
	}
	return n
}

// Unavailable is those of names no job may be given now, in their order: nodes down,
// drained, draining or not responding, and with withheld also the nodes Withhold set aside
// (Slurm's avail_node_bitmap during a pass); nil when every one is available.
// Reservations' Bar does not count: that is a reservation's matter, not the node's.
func (p *Pool) Unavailable(names []string, withheld bool) []string {
	var out []string
	for _, n := range names {
		i, ok := p.index[n]
		if !ok || !p.nodes[i].Node.Usable || (withheld && p.withheld != nil && p.withheld[i]) {
			out = append(out, n)
		}
	}
	return out
}

// held says whether node i is withheld or barred.
func (p *Pool) held(i int) bool {
	return (p.withheld != nil && p.withheld[i]) || (p.barred != nil && p.barred[i])
}

// room is one partition's MaxCPUsPerNode against what its jobs use on each node, resolved
// once for a loop over nodes (no map lookup per node).
type room struct {
	max uint32
	use []uint32 // nil: no limit
}

func (p *Pool) roomOf(part string) room {
	if c, ok := p.caps[part]; ok {
		return room{max: c.max, use: p.partUse[c.index]}
	}
	return room{}
}

// at is the CPUs left to the partition on node i.
func (r room) at(i int) uint32 {
	if r.use == nil {
		return noCap
	}
	return r.max - min(r.use[i], r.max)
}

// NewPool is the nodes with nothing allocated.
func NewPool(mode Mode, nodes []scheduler.Node) *Pool {
	p := &Pool{Mode: mode, index: make(map[string]int, len(nodes)), parts: map[string][]int{}}
	for _, n := range nodes {
		if _, dup := p.index[n.Name]; dup {
			continue
		}
		p.index[n.Name] = len(p.nodes)
		p.nodes = append(p.nodes, Free{Node: n})
		p.order = append(p.order, n.Name)
		p.gresOff = append(p.gresOff, int32(len(p.gresUsed)))
		p.gresUsed = append(p.gresUsed, make([]uint64, len(n.Gres))...)
	}
	return p
}

// gresOf is node i's GRES in use, one entry per entry of its Node.Gres.
func (p *Pool) gresOf(i int) []uint64 {
	off := int(p.gresOff[i])
	return p.gresUsed[off : off+len(p.nodes[i].Node.Gres)]
}

// GresUsed is what is in use of node name's GRES, one count per entry of its Node.Gres
// (nil for an unknown node). The slice is the pool's: do not change it.
func (p *Pool) GresUsed(name string) []uint64 {
	if i, ok := p.index[name]; ok {
		return p.gresOf(i)
	}
	return nil
}

// Clone is an independent copy of p (without a Watch or a Bar).
func (p *Pool) Clone() *Pool {
	c := &Pool{Mode: p.Mode, nodes: append([]Free(nil), p.nodes...), index: p.index, order: p.order, parts: map[string][]int{},
		gresUsed: append([]uint64(nil), p.gresUsed...), gresOff: p.gresOff, caps: p.caps, withheld: slices.Clone(p.withheld),
		share: cloneShare(p.share), shareIdx: p.shareIdx}
	for i := range c.nodes {
		c.nodes[i].users = slices.Clone(c.nodes[i].users)
	}
	for _, row := range p.partUse {
		c.partUse = append(c.partUse, slices.Clone(row))
	}
	return c
}

// Node is the free record of a node, or nil.
func (p *Pool) Node(name string) *Free {
	if i, ok := p.index[name]; ok {
		return &p.nodes[i]
	}
	return nil
}

// Names is the nodes in configuration order.
func (p *Pool) Names() []string { return p.order }

// TakeJob books what a running job holds (its Nodes, CPUs and Mem, and the whole cores
// behind its CPUs).
func (p *Pool) TakeJob(j *scheduler.Job) { p.Take(p.JobAlloc(j), j.Exclusive) }

// JobAlloc is what running job j holds, as an Alloc to book.
func (p *Pool) JobAlloc(j *scheduler.Job) Alloc {
	return Alloc{Nodes: j.Nodes, CPUs: j.CPUs, Held: p.HeldFor(j, j.Nodes, j.CPUs), Mem: j.Mem, Gres: j.GresAlloc, Partition: j.Partition,
		UserID: j.UserID, UserExclusive: j.ExclusiveUser, Share: p.sharing(j, j.Partition) >= 0, Row: j.ShareRow}
}

// StartAlloc is what start s of job j holds, as an Alloc to book (in the first row it
// fits in when it shares CPUs).
func (p *Pool) StartAlloc(j *scheduler.Job, s scheduler.Start) Alloc {
	part := cmp.Or(s.Partition, j.Partition)
	return Alloc{Nodes: s.Nodes, CPUs: s.CPUs, Held: p.HeldFor(j, s.Nodes, s.CPUs), Mem: s.Mem, Gres: s.Gres, Partition: part,
		UserID: j.UserID, UserExclusive: j.ExclusiveUser, Share: p.sharing(j, part) >= 0, Row: -1}
}

// HeldFor is Alloc.Held for job j given cpus[k] CPUs on nodes[k] (its allocation, or a
// start planned for it): what those CPUs take of each node where that is more (whole cores
// under CR_CPU); nil when it is the CPUs everywhere.
func (p *Pool) HeldFor(j *scheduler.Job, nodes []string, cpus []uint32) []uint32 {
	var out []uint32
	for k, name := range nodes {
		f := p.Node(name)
		if f == nil || k >= len(cpus) || j.Exclusive {
			continue
		}
		c, _ := JobCores(&f.Node, j)
		if h := c.Held(p.Mode.WholeCores, cpus[k]); h != cpus[k] {
			if out == nil {
				out = slices.Clone(cpus)
			}
			out[k] = h
		}
	}
	return out
}

// Take books an allocation; exclusive marks its nodes as held whole.
func (p *Pool) Take(a Alloc, exclusive bool) { p.book(a, exclusive, 1) }

// Release gives back an allocation Take booked with the same arguments.
func (p *Pool) Release(a Alloc, exclusive bool) { p.book(a, exclusive, -1) }

// book adds (sign 1) or removes (sign -1) an allocation, keeping a Watch's totals current.
func (p *Pool) book(a Alloc, exclusive bool, sign int) { p.bookIdx(p.Resolve(a, exclusive), sign) }

// Overbooked names a node whose allocations exceed what it has, or "" if none: the
// invariant "no node is ever allocated beyond its resources".
func (p *Pool) Overbooked() string {
	for i := range p.nodes {
		f := &p.nodes[i]
		if p.Mode.CPUs && f.AllocCPUs+f.ShareCPUs > f.Node.CPUs {
			return f.Node.Name
		}
		if p.Mode.Memory && f.AllocMem > f.Node.RealMemory {
			return f.Node.Name
		}
		if f.Exclusive > 0 && f.Jobs > 1 {
			return f.Node.Name
		}
		for k, used := range p.gresOf(i) {
			if used > f.Node.Gres[k].Count {
				return f.Node.Name
			}
		}
	}
	return p.overbookedShare()
}

// partIndex is the indices of part's nodes (configuration order, each once).
func (p *Pool) partIndex(part *scheduler.Partition) []int {
	if idx, ok := p.parts[part.Name]; ok && len(idx) <= len(part.Nodes) {
		return idx
	}
	seen := make(map[int]bool, len(part.Nodes))
	idx := make([]int, 0, len(part.Nodes))
	for _, name := range part.Nodes {
		if i, ok := p.index[name]; ok && !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	p.parts[part.Name] = idx
	return idx
}

// Booking is an allocation resolved against a Pool's node index once, so that booking and
// releasing it again and again (a backfill pass moving through time) costs no name lookup.
type Booking struct {
	idx       []int32
	cpus      []uint32
	mem       uint64
	exclusive bool
	gres      [][]gresDelta // by position in idx; nil when the allocation holds no GRES
	part      int           // row of Pool.partUse its CPUs count in; -1 for none
	user      uint32
	userExcl  bool
	share     int // rows of Pool.share the allocation shares CPUs in, -1 for none
	row       int
}

// gresDelta is a count of one entry of a node's Node.Gres.
type gresDelta struct {
	entry int32
	n     uint64
}

// Resolve is a's Booking on p; nodes p does not have are left out (nothing to count
// against).
func (p *Pool) Resolve(a Alloc, exclusive bool) Booking {
	b := Booking{idx: make([]int32, 0, len(a.Nodes)), cpus: make([]uint32, 0, len(a.Nodes)), mem: a.Mem, exclusive: exclusive, part: -1,
		user: a.UserID, userExcl: a.UserExclusive}
	if c, ok := p.caps[a.Partition]; ok {
		b.part = c.index
	}
	b.share = -1
	if si, ok := p.shareIdx[a.Partition]; ok && a.Share {
		b.share, b.row = si, a.Row
	}
	for k, name := range a.Nodes {
		i, ok := p.index[name]
		if !ok {
			continue
		}
		var c uint32
		if k < len(a.Held) {
			c = a.Held[k]
		} else if k < len(a.CPUs) {
			c = a.CPUs[k]
		}
		b.idx = append(b.idx, int32(i))
		b.cpus = append(b.cpus, c)
		if k < len(a.Gres) && len(a.Gres[k]) > 0 {
			if b.gres == nil {
				b.gres = make([][]gresDelta, len(a.Nodes))
			}
			b.gres[len(b.idx)-1] = resolveGres(p.nodes[i].Node.Gres, a.Gres[k])
		}
	}
	if b.share >= 0 && (b.row < 0 || b.row >= len(p.share[b.share].use)) {
		b.row = p.fitRow(b.share, b.idx, b.cpus, exclusive)
	}
	return b
}

// resolveGres finds each held count's entry in the node's GRES by name and type; counts of
// GRES the node does not have are left out (nothing to count against).
func resolveGres(node []scheduler.Gres, held []scheduler.Gres) []gresDelta {
	var out []gresDelta
	for _, h := range held {
		for e, g := range node {
			if g.Name == h.Name && g.Type == h.Type {
				out = append(out, gresDelta{int32(e), h.Count})
				break
			}
		}
	}
	return out
}

// TakeBooking books b as Take books its allocation.
func (p *Pool) TakeBooking(b Booking) { p.bookIdx(b, 1) }

// ReleaseBooking gives back b.
func (p *Pool) ReleaseBooking(b Booking) { p.bookIdx(b, -1) }

func (p *Pool) bookIdx(b Booking, sign int) {
	whole := b.exclusive || p.Mode.WholeNode
	w := p.watch
	for k, i := range b.idx {
		f := &p.nodes[i]
		if w != nil && w.elig[i] {
			w.remove(int(i), f, p.gresOf(int(i)))
		}
		if b.share >= 0 {
			p.bookShare(b.share, b.row, int(i), b.cpus[k], sign) // share.go
			f.ShareJobs += sign
		} else {
			f.AllocCPUs = uint32(int64(f.AllocCPUs) + int64(sign)*int64(b.cpus[k]))
		}
		if b.part >= 0 {
			use := &p.partUse[b.part][i]
			*use = uint32(int64(*use) + int64(sign)*int64(b.cpus[k]))
		}
		f.AllocMem = uint64(int64(f.AllocMem) + int64(sign)*int64(b.mem))
		f.Jobs += sign
		if b.gres != nil {
			used := p.gresOf(int(i))
			for _, d := range b.gres[k] {
				used[d.entry] = uint64(int64(used[d.entry]) + int64(sign)*int64(d.n))
			}
		}
		if whole && b.share < 0 {
			f.Exclusive += sign
		}
		f.bookUser(b.user, b.userExcl, sign) // user.go
		if w != nil && w.elig[i] {
			w.add(int(i), f, p.gresOf(int(i)))
		}
	}
}

package ctld

import (
	"slices"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// allocation is a set of nodes chosen for a job, with the CPUs it gets on each.
type allocation struct {
	nodes []string
	cpus  []uint32
	mem   uint64       // MiB per node counted against the nodes (memory tracked only)
	gres  [][]gresTake // devices taken on nodes[i] (gres.go), nil without --gres
	// partition is where a job of several partitions starts, when not its Partition.
	partition string
	// magnetic is the magnetic reservation a job naming none starts in (resv_magnetic.go).
	magnetic string
}

// fitsEver says whether the job could run on its partition if every node there were idle
// and up, as far as its CPU count goes (the partition's limits; whole cores are
// placeableEver's).
func (t *tables) fitsEver(j *jobRecord, p *partEntry) bool {
	if uint32(len(p.nodes)) < j.MinNodes {
		return false
	}
	if len(j.Gres) > 0 {
		var fit uint32
		for _, name := range p.nodes {
			if t.nodes[name].gresEver(j) {
				fit++
			}
		}
		if fit < j.MinNodes {
			return false
		}
	}
	return j.NumTasks*j.CPUsPerTask <= p.cpus
}

// selectNodes chooses nodes for j in partition p from the nodes free now, or returns false.
// Like select/cons_tres: CPUs are counted, as whole cores on nodes with several threads per
// core (select_cores.go), and memory too when SelectTypeParameters say so; --nodelist nodes
// are taken first, --exclude nodes never, then others as select/cons_tres chooses them
// (ChooseNodes: lower Weight= first, runs of consecutive nodes); the nodes are in
// configuration order; tasks fill each node before the next (block distribution), every
// node gets at least one task, or each node runs --ntasks-per-node tasks (LayoutTasks);
// --exclusive takes whole idle nodes.
//
// A job that shares CPUs (select_share.go) is tried on idle CPUs, then in each row of its
// partition's, fullest first, as the plugins' selection tries it.
func (t *tables) selectNodes(j *jobRecord, p *partEntry, trackMem bool) (allocation, bool) {
	if !t.sharesCPUs(j, p.conf.Name) {
		return t.selectNodesIn(j, p, trackMem, false, viewIdle)
	}
	for _, v := range append([]int{viewIdle}, t.shareRowsOf(p.conf.Name)...) {
		if a, ok := t.selectNodesIn(j, p, trackMem, true, v); ok {
			return a, true
		}
	}
	return allocation{}, false
}

// selectNodesIn is selectNodes on the CPUs view v leaves on each node: idle ones (viewIdle)
// or, for a job that shares them (shares), those free in one row.
func (t *tables) selectNodesIn(j *jobRecord, p *partEntry, trackMem, shares bool, v int) (allocation, bool) {
	minCPUs := uint32(j.descUint(descMinCPUs)) // --mincpus
	var req, exc []string
	if l := j.descStr(descReqNodes); l != "" {
		req, _ = hostlist.Expand(l)
	}
	if l := j.descStr(descExcNodes); l != "" {
		exc, _ = hostlist.Expand(l)
	}
	cpt := j.CPUsPerTask
	type cand struct {
		name string
		cap  uint32 // tasks the node can take now
	}
	capOf := func(name string) (uint32, bool) {
		n := t.nodes[name]
		if n == nil || !n.usable() || n.exclusive > 0 || !t.servesUser(n, j, p) {
			return 0, false
		}
		if len(j.Gres) > 0 {
			if g, used := n.schedGres(); !selection.GresFits(g, used, j.gresReq()) {
				return 0, false
			}
		}
		cores, ok := j.coresOn(n)
		if !ok {
			return 0, false // more threads per core than the node has
		}
		free, empty, ok := freeIn(n, shares, p.conf.Name, v)
		if !ok {
			return 0, false
		}
		if j.Exclusive {
			if !empty || n.partRoom(p) < n.cpus() {
				return 0, false
			}
			free = n.cpus()
		}
		free = min(free, n.partRoom(p)) // MaxCPUsPerNode
		if cores.Usable(free) < minCPUs {
			return 0, false // --mincpus
		}
		c := cores.Tasks(free)
		if j.TasksPerNod > 0 {
			c = min(c, j.TasksPerNod)
		}
		if trackMem {
			if need := j.memPerNode(cpt); need > 0 {
				avail := n.conf.RealMemory - min(n.allocMem, n.conf.RealMemory)
				if j.MemPerNode > 0 {
					if avail < j.MemPerNode {
						return 0, false
					}
				} else {
					c = min(c, cores.MemTasks(avail, j.MemPerCPU, t.wholeCores, j.threadsPerCore()))
				}
			}
		}
		if c < j.TasksPerNod {
			return 0, false // every node runs --ntasks-per-node tasks (selection.LayoutTasks)
		}
		return c, c > 0
	}
	named := map[string]bool{}
	for _, name := range req {
		if _, ok := capOf(name); !ok || !inList(p.nodes, name) {
			return allocation{}, false
		}
		named[name] = true
	}
	want := selection.WantNodes(j.MinNodes, j.MaxNodes, j.descFlag(descUseMinNodes))
	// As the scheduler plugins' selection: select/cons_tres's choice (ChooseNodes).
	var cands []cand
	var caps []uint32
	var weights []uint64
	var pos []int
	var isNamed []bool
	// A job of a FLEX reservation takes its nodes first (Slurm's IN_FL node set).
	var flex *resvRecord
	if r := t.resvs[j.descStr(descReservation)]; r != nil && r.has(wire.ResvFlex) {
		flex = r
	}
	for _, name := range p.nodes {
		if !named[name] && inList(exc, name) {
			continue
		}
		if c, ok := capOf(name); ok {
			cands = append(cands, cand{name, c})
			caps = append(caps, c)
			pos = append(pos, t.nodes[name].order)
			w := uint64(t.nodes[name].weight())
			if flex != nil && !flex.hasNode(name) {
				w += 1 << 32
			}
			weights = append(weights, w)
			isNamed = append(isNamed, named[name])
		}
	}
	if len(named) == 0 {
		isNamed = nil
	}
	choose := selection.ChooseNodes
	if j.descFlag(descContiguous) {
		choose = selection.ChooseContiguous
	}
	picked, ok := choose(caps, pos, weights, isNamed, j.MinNodes, j.MaxNodes, want, j.NumTasks, j.requestedTasks())
	if !ok {
		return allocation{}, false
	}
	var chosen []cand
	var total uint32
	for _, k := range picked {
		chosen = append(chosen, cands[k])
		total += cands[k].cap
	}
	if uint32(len(chosen)) < j.MinNodes || total < j.NumTasks {
		return allocation{}, false
	}
	if j.MaxNodes != 0 && uint32(len(chosen)) > j.MaxNodes {
		return allocation{}, false
	}
	chosenCaps := make([]uint32, 0, len(chosen))
	for _, c := range chosen {
		chosenCaps = append(chosenCaps, c.cap)
	}
	tasks := selection.LayoutTasks(chosenCaps, j.NumTasks, j.TasksPerNod)
	a := allocation{}
	for i, c := range chosen {
		n := t.nodes[c.name]
		a.nodes = append(a.nodes, c.name)
		cores, _ := j.coresOn(n) // capOf said n can serve j
		cpus := cores.CPUs(t.wholeCores, tasks[i], minCPUs)
		if j.Exclusive {
			cpus = n.cpus()
		}
		a.cpus = append(a.cpus, cpus)
		if len(j.Gres) > 0 {
			tk, _ := n.assignGres(j)
			a.gres = append(a.gres, tk)
		}
		if trackMem {
			a.mem = max(a.mem, j.memPerNode(cores.UsedCPUs(t.wholeCores, cpus, j.threadsPerCore())))
		}
	}
	return a, true
}

// fillGaps is names (nodes of the configuration) with every node configured between the
// first and the last of them added, in configuration order: what --contiguous requires of
// a job naming nodes (Slurm's bit_fill_gaps on the required nodes).
func (t *tables) fillGaps(names []string) []string {
	if len(names) == 0 {
		return names
	}
	lo, hi := len(t.nodeOrder), -1
	for _, n := range names {
		if e := t.nodes[n]; e != nil {
			lo, hi = min(lo, e.order), max(hi, e.order)
		}
	}
	if hi < lo {
		return names
	}
	return slices.Clone(t.nodeOrder[lo : hi+1])
}

package selection

import (
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Alloc is the nodes chosen for a job, the CPUs it gets on each and the MiB of memory it
// counts on each (scheduler.Start's shape).
type Alloc struct {
	Nodes []string
	CPUs  []uint32
	Mem   uint64
	// Gres is the GRES taken on Nodes[i] (scheduler.Job.GresAlloc's shape), nil for none.
	Gres [][]scheduler.Gres
	// Partition is the partition the job runs in: its CPUs count against the partition's
	// MaxCPUsPerNode (Pool.LimitPartitions).
	Partition string
	// UserID is the job's user; UserExclusive marks a job no other user's job may share a
	// node with (--exclusive=user, ExclusiveUser=YES; user.go).
	UserID        uint32
	UserExclusive bool
	// Held is what the allocation takes of Nodes[i] where that is more than CPUs[i]: the
	// whole cores behind a CR_CPU job's CPUs on a node with several threads per core
	// (cores.go). Nil when it is CPUs on every node.
	Held []uint32
	// Share marks an allocation whose CPUs other jobs may hold too, in row Row of its
	// partition's (share.go; Job.ShareRow).
	Share bool
	Row   int
}

// MemPerNode is the memory a job counts on a node where it has cpus CPUs.
func MemPerNode(j *scheduler.Job, cpus uint32) uint64 {
	switch {
	case j.MemPerNode > 0:
		return j.MemPerNode
	case j.MemPerCPU > 0:
		return j.MemPerCPU * uint64(cpus)
	}
	return 0
}

// Capacity answers FitsEver for the jobs of one pass: each partition's CPUs are summed
// once, so a pass over many jobs stays linear in jobs plus nodes.
type Capacity struct {
	nodeCPUs map[string]uint32
	partCPUs map[string]uint32
	nodeGres map[string][]scheduler.Gres // nodes with GRES only
}

// NewCapacity is the capacity of nodes.
func NewCapacity(nodes []scheduler.Node) *Capacity {
	c := &Capacity{nodeCPUs: make(map[string]uint32, len(nodes)), partCPUs: map[string]uint32{}}
	for _, n := range nodes {
		c.nodeCPUs[n.Name] = n.CPUs
		if len(n.Gres) > 0 {
			if c.nodeGres == nil {
				c.nodeGres = map[string][]scheduler.Gres{}
			}
			c.nodeGres[n.Name] = n.Gres
		}
	}
	return c
}

// FitsEver says whether the job could run in its partition were every node there idle and
// up, as the controller judges it (PartitionConfig otherwise): enough nodes (with its
// --gres, when it has one), and enough CPUs in the partition for its tasks.
func (c *Capacity) FitsEver(j *scheduler.Job, part *scheduler.Partition) bool {
	if uint32(len(part.Nodes)) < j.MinNodes {
		return false
	}
	if len(j.Gres) > 0 {
		var n uint32
		for _, name := range part.Nodes {
			if GresEver(c.nodeGres[name], j.Gres) {
				n++
			}
		}
		if n < j.MinNodes || n == 0 {
			return false
		}
	}
	cpus, ok := c.partCPUs[part.Name]
	if !ok {
		seen := make(map[string]bool, len(part.Nodes))
		for _, name := range part.Nodes {
			if !seen[name] {
				seen[name] = true
				cpus += c.nodeCPUs[name]
			}
		}
		c.partCPUs[part.Name] = cpus
	}
	return j.NumTasks*max(j.CPUsPerTask, 1) <= cpus
}

// Select chooses nodes for j in part from what p has free, or returns false. Like
// select/cons_tres: --nodelist nodes are taken first (all of them or nothing), --exclude
// nodes never (nor nodes withheld or barred: Withhold, Bar), then nodes in configuration
// order; tasks fill each node before the next (block distribution) after every node got
// one, or each node runs --ntasks-per-node tasks (LayoutTasks); --exclusive (and
// select/linear) takes whole idle nodes. A bad --constraint never fits.
func (p *Pool) Select(j *scheduler.Job, part *scheduler.Partition) (Alloc, bool) {
	c, err := ParseConstraint(j.Features)
	if err != nil {
		return Alloc{}, false
	}
	si := p.sharing(j, part.Name)
	for _, v := range p.views(si) { // idle CPUs, then each row when the job shares them (share.go)
		if c.Match == nil {
			if a, ok := p.selectWith(j, part, c, "", si, v); ok {
				return a, true
			}
			continue
		}
		for _, alt := range c.Match {
			if a, ok := p.selectWith(j, part, c, alt, si, v); ok {
				return a, true
			}
		}
	}
	return Alloc{}, false
}

type cand struct {
	name string
	cap  uint32 // tasks the node can take now
}

// selectWith is Select on the CPUs view v of each node leaves the job (si: its rows when it
// shares CPUs, else -1).
func (p *Pool) selectWith(j *scheduler.Job, part *scheduler.Partition, c Constraint, alt string, si, v int) (Alloc, bool) {
	cpt := max(j.CPUsPerTask, 1)
	whole := j.Exclusive || p.Mode.WholeNode
	rm := p.roomOf(part.Name)
	capOf := func(name string) (uint32, bool) {
		f := p.Node(name)
		if f == nil || !c.matches(f.Node.Features, alt) || p.held(p.index[name]) {
			return 0, false
		}
		i := p.index[name]
		return capacity(p.Mode, f, p.GresUsed(name), j, cpt, whole, rm.at(i), p.freeIn(i, si, part.Name, v))
	}
	named := map[string]bool{}
	for _, name := range j.ReqNodes {
		if _, ok := capOf(name); !ok || !slices.Contains(part.Nodes, name) {
			return Alloc{}, false
		}
		named[name] = true
	}
	want := WantNodes(j.MinNodes, j.MaxNodes, j.UseMinNodes)
	// As select/cons_tres chooses (ChooseNodes): recorded on Slurm 22.05, beside a -N2 -n64
	// job placed 63+1 on n1 and n2, a -n3 job ran on n2 (the smallest node that holds it), a
	// -n64 job on n3, a -N2 -n128 one on n3 and n4, and a -n65 job, which no single node
	// could hold, on n1, n2 and n3 in order; -N2 -w n4 ran on n[3-4], -N3 -w n2 on n[2-4].
	var cands []cand
	var caps []uint32
	var weights []uint64
	var pos []int
	var req []bool
	for _, i := range p.partIndex(part) {
		f := &p.nodes[i]
		name := f.Node.Name
		if !named[name] && (p.held(i) || slices.Contains(j.ExcNodes, name) || !c.matches(f.Node.Features, alt)) {
			continue
		}
		n, ok := capacity(p.Mode, f, p.gresOf(i), j, cpt, whole, rm.at(i), p.freeIn(i, si, part.Name, v))
		if !ok {
			continue
		}
		cands = append(cands, cand{name, n})
		caps = append(caps, n)
		pos = append(pos, i)
		weights = append(weights, p.weightOf(i))
		req = append(req, named[name])
	}
	if len(named) == 0 {
		req = nil
	}
	choose := ChooseNodes
	if j.Contiguous {
		choose = ChooseContiguous
	}
	picked, ok := choose(caps, pos, weights, req, j.MinNodes, j.MaxNodes, want, j.NumTasks, j.ReqTasks)
	if !ok {
		return Alloc{}, false
	}
	var chosen []cand
	var total uint32
	for _, k := range picked {
		chosen = append(chosen, cands[k])
		total += cands[k].cap
	}
	if uint32(len(chosen)) < j.MinNodes || total < j.NumTasks {
		return Alloc{}, false
	}
	if j.MaxNodes != 0 && uint32(len(chosen)) > j.MaxNodes {
		return Alloc{}, false
	}
	chosenCaps := make([]uint32, 0, len(chosen))
	for _, cd := range chosen {
		chosenCaps = append(chosenCaps, cd.cap)
	}
	tasks := LayoutTasks(chosenCaps, j.NumTasks, j.TasksPerNode)
	a := Alloc{Partition: part.Name, UserID: j.UserID, UserExclusive: j.ExclusiveUser}
	switch {
	case si >= 0 && v == viewIdle:
		a.Share, a.Row = true, p.idleRow(si)
	case si >= 0:
		a.Share, a.Row = true, v
	}
	wc := p.Mode.WholeCores
	for i, cd := range chosen {
		f := p.Node(cd.name)
		a.Nodes = append(a.Nodes, cd.name)
		cores, _ := JobCores(&f.Node, j)            // capacity said the node can serve the job
		cpus := cores.CPUs(wc, tasks[i], j.MinCPUs) // --mincpus: at least that many on each node
		held := cores.Held(wc, cpus)
		if whole {
			cpus, held = f.Node.CPUs, f.Node.CPUs
		}
		a.CPUs = append(a.CPUs, cpus)
		if held != cpus && a.Held == nil {
			a.Held = slices.Clone(a.CPUs[:i])
		}
		if a.Held != nil {
			a.Held = append(a.Held, held)
		}
		if len(j.Gres) > 0 {
			take, _ := TakeGres(f.Node.Gres, p.GresUsed(cd.name), j.Gres)
			a.Gres = append(a.Gres, take)
		}
		if p.Mode.Memory {
			// Memory follows the CPUs the tasks use (an --exclusive job's spare CPUs do not
			// multiply --mem-per-cpu).
			a.Mem = max(a.Mem, MemPerNode(j, cores.UsedCPUs(wc, cores.CPUs(wc, tasks[i], 0), j.ThreadsPerCore)))
		}
	}
	// One memory figure is counted on every node (Start.Mem), so it must fit on each of
	// them, including nodes that got fewer tasks than the busiest one.
	for _, name := range a.Nodes {
		if f := p.Node(name); p.Mode.Memory && f.AllocMem+a.Mem > f.Node.RealMemory {
			return Alloc{}, false
		}
	}
	return a, true
}

// LayoutTasks is the tasks a job of tasks tasks (tasksPerNode: --ntasks-per-node, 0 none)
// runs on each of its chosen nodes, which can take caps[i] each: with --ntasks-per-node,
// that many on every node, so a job given more nodes than its tasks need runs more tasks
// (Slurm's build_node_details sets num_tasks to nodes × ntasks_per_node, and its selection
// gives each node ntasks_per_node tasks' CPUs: -n3 --ntasks-per-node=2 runs 2+2); without
// it one task per node first, then each node filled in order (block distribution).
func LayoutTasks(caps []uint32, tasks, tasksPerNode uint32) []uint32 {
	out := make([]uint32, len(caps))
	if tasksPerNode > 0 {
		for i, c := range caps {
			out[i] = min(c, tasksPerNode)
		}
		return out
	}
	left := tasks
	for i := range caps {
		out[i] = 1
		left -= min(left, 1)
	}
	for i, c := range caps {
		add := min(left, c-out[i])
		out[i] += add
		left -= add
	}
	return out
}

// weightOf is node i's Weight= for the choice of nodes, after every node Prefer marks when
// a mask is set.
func (p *Pool) weightOf(i int) uint64 {
	w := uint64(p.nodes[i].Node.Weight)
	if p.prefer != nil && !p.prefer[i] {
		w += 1 << 32
	}
	return w
}

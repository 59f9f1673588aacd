package selection

import "github.com/orbit-hpc/orbit/plugins/scheduler"

// Free is what is left of one node: its configuration and what jobs hold on it.
type Free struct {
	Node      scheduler.Node
	AllocCPUs uint32
	AllocMem  uint64
	Jobs      int // jobs (or reservations) holding the node
	Exclusive int // of which with --exclusive (or whole-node under select/linear)
}

// Pool is the free resources of every node, in the order nodes were given (configuration
// order). A Pool is a value a scheduler changes as it plans: Take books an allocation.
type Pool struct {
	Mode  Mode
	nodes map[string]*Free
	order []string
}

// NewPool is the nodes with nothing allocated.
func NewPool(mode Mode, nodes []scheduler.Node) *Pool {
	p := &Pool{Mode: mode, nodes: make(map[string]*Free, len(nodes))}
	for _, n := range nodes {
		if _, dup := p.nodes[n.Name]; dup {
			continue
		}
		p.nodes[n.Name] = &Free{Node: n}
		p.order = append(p.order, n.Name)
	}
	return p
}

// Clone is an independent copy of p.
func (p *Pool) Clone() *Pool {
	c := &Pool{Mode: p.Mode, nodes: make(map[string]*Free, len(p.nodes)), order: p.order}
	for k, v := range p.nodes {
		f := *v
		c.nodes[k] = &f
	}
	return c
}

// Node is the free record of a node, or nil.
func (p *Pool) Node(name string) *Free { return p.nodes[name] }

// Names is the nodes in configuration order.
func (p *Pool) Names() []string { return p.order }

// TakeJob books what a running job holds (its Nodes, CPUs and Mem).
func (p *Pool) TakeJob(j *scheduler.Job) {
	p.Take(Alloc{Nodes: j.Nodes, CPUs: j.CPUs, Mem: j.Mem}, j.Exclusive)
}

// Take books an allocation; exclusive marks its nodes as held whole.
func (p *Pool) Take(a Alloc, exclusive bool) {
	for i, name := range a.Nodes {
		f := p.nodes[name]
		if f == nil {
			continue // a node the state no longer has: nothing to count against
		}
		if i < len(a.CPUs) {
			f.AllocCPUs += a.CPUs[i]
		}
		f.AllocMem += a.Mem
		f.Jobs++
		if exclusive || p.Mode.WholeNode {
			f.Exclusive++
		}
	}
}

// Release gives back an allocation Take booked with the same arguments.
func (p *Pool) Release(a Alloc, exclusive bool) {
	for i, name := range a.Nodes {
		f := p.nodes[name]
		if f == nil {
			continue
		}
		if i < len(a.CPUs) {
			f.AllocCPUs -= a.CPUs[i]
		}
		f.AllocMem -= a.Mem
		f.Jobs--
		if exclusive || p.Mode.WholeNode {
			f.Exclusive--
		}
	}
}

// Overbooked names a node whose allocations exceed what it has, or "" if none: the
// invariant "no node is ever allocated beyond its resources".
func (p *Pool) Overbooked() string {
	for _, name := range p.order {
		f := p.nodes[name]
		if p.Mode.CPUs && f.AllocCPUs > f.Node.CPUs {
			return name
		}
		if p.Mode.Memory && f.AllocMem > f.Node.RealMemory {
			return name
		}
		if f.Exclusive > 0 && f.Jobs > 1 {
			return name
		}
	}
	return ""
}

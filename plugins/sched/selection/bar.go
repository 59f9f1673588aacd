package selection

// Bar keeps the nodes mask marks (by p's node order: MaskOf) from every Select and Watch on
// p until Bar(nil): the nodes advance reservations keep from the job being placed. A job's
// --exclude would do the same, but Select searches ExcNodes at every node, and a
// reservation may hold most of a cluster. The mask is the caller's; it must not change while
// set. Unlike Withhold it changes no count (Available): a reservation does not make a node
// unavailable, only unusable by some jobs.
func (p *Pool) Bar(mask []bool) { p.barred = mask }

// Prefer makes Select take the nodes mask marks (by p's node order: MaskOf) before all
// others, as if their Weight= were lower, until Prefer(nil): the nodes of the job's FLEX
// reservation, which Slurm puts in a node set of their own ahead of the rest.
func (p *Pool) Prefer(mask []bool) { p.prefer = mask }

// MaskOf is a mask of the named nodes for Bar; nil when none of them is p's.
func (p *Pool) MaskOf(names map[string]bool) []bool {
	var mask []bool
	for n, on := range names {
		if i, ok := p.index[n]; ok && on {
			if mask == nil {
				mask = make([]bool, len(p.nodes))
			}
			mask[i] = true
		}
	}
	return mask
}

// Empty is p's nodes with nothing booked, withheld or barred, as if every job were gone
// (the partitions' MaxCPUsPerNode still count): whether a job could ever start on them.
func (p *Pool) Empty() *Pool {
	c := &Pool{Mode: p.Mode, nodes: make([]Free, len(p.nodes)), index: p.index, order: p.order, parts: map[string][]int{},
		gresUsed: make([]uint64, len(p.gresUsed)), gresOff: p.gresOff, caps: p.caps}
	for i := range p.nodes {
		c.nodes[i] = Free{Node: p.nodes[i].Node}
	}
	for range p.partUse {
		c.partUse = append(c.partUse, make([]uint32, len(p.nodes)))
	}
	return c
}

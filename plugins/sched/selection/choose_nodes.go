package selection

import "slices"

// ChooseNodes picks a job's nodes as Slurm's select/cons_tres does (choose_nodes and
// _eval_nodes):
//   - nodes the job names (--nodelist, req) are taken first, all of them;
//   - the other candidates form runs of consecutive nodes of one weight; the run taken
//     first is one holding a named node, else one of the lowest weight: the first that can
//     hold the job, or the tightest of those that can, or, when none can, the largest;
//     then the next, until the job has enough;
//   - in a run holding a named node, nodes are taken going up from the first named node,
//     then down from it; elsewhere a job aiming at one node takes the smallest single node
//     that holds it all (best fit), and otherwise nodes are taken in order, except that the
//     last node the job's maximum allows must finish it;
//   - when that fails, nodes with the fewest free tasks are left out (never named ones), a
//     size at a time, and the choice is made again (Slurm's answer to the knapsack
//     problem).
//
// caps are the tasks each candidate can take now (0: it cannot serve the job), in
// configuration order; pos are their positions in the configuration, so that a gap ends a
// run; weights their Weight= (nil: all equal); req marks the named nodes (nil: none), each
// of which must have room. want is the node count the job aims at (its -N maximum, else
// its minimum); maxNodes 0 means no maximum. A job takes no more nodes than the tasks it
// asked for (reqTasks: -n, or --ntasks-per-node per node, as Slurm's commands lower the
// maximum to the tasks); without them (0), a node range is filled up to its maximum ("as
// many nodes as possible within the range"). It returns the indexes into caps of the
// chosen nodes, in order.
func ChooseNodes(caps []uint32, pos []int, weights []uint64, req []bool, minNodes, maxNodes, want, tasks, reqTasks uint32) ([]int, bool) {
	return chooseNodes(caps, pos, weights, req, minNodes, maxNodes, want, tasks, reqTasks, false)
}

// ChooseContiguous is ChooseNodes for a job with --contiguous: its nodes are one run of
// consecutive nodes (weights do not split runs), the first run that can hold it, the one
// with all its named nodes when it names some.
func ChooseContiguous(caps []uint32, pos []int, weights []uint64, req []bool, minNodes, maxNodes, want, tasks, reqTasks uint32) ([]int, bool) {
	return chooseNodes(caps, pos, weights, req, minNodes, maxNodes, want, tasks, reqTasks, true)
}

func chooseNodes(caps []uint32, pos []int, weights []uint64, req []bool, minNodes, maxNodes, want, tasks, reqTasks uint32, contiguous bool) ([]int, bool) {
	switch {
	case maxNodes == 0:
		maxNodes = max(tasks, minNodes)
	case reqTasks > 0 && maxNodes > max(reqTasks, minNodes):
		maxNodes = max(reqTasks, minNodes)
	}
	var total uint64
	var usable, mostRes uint32
	for i, c := range caps {
		if req != nil && req[i] && c == 0 {
			return nil, false // a named node without room
		}
		if c > 0 {
			total += uint64(c)
			usable++
			mostRes = max(mostRes, c)
		}
	}
	// Leaving nodes out never adds room: a job the candidates cannot hold in all is done.
	if total < uint64(tasks) || usable < minNodes {
		return nil, false
	}
	e := evalNodes{caps: caps, pos: pos, weights: weights, req: req, minNodes: minNodes, maxNodes: maxNodes, want: want, tasks: tasks,
		out: make([]bool, len(caps)), contiguous: contiguous}
	if chosen, ok := e.eval(); ok {
		return chosen, true
	}
	if usable <= minNodes {
		return nil, false
	}
	rem := usable
	for count := uint32(1); count < mostRes; count++ {
		changed := false
		for i, c := range caps {
			if c == 0 || e.out[i] || c > count || e.named(i) {
				continue
			}
			e.out[i], changed = true, true
			if rem--; rem <= minNodes {
				break
			}
		}
		if !changed && count != 1 {
			continue
		}
		if chosen, ok := e.eval(); ok {
			return chosen, true
		}
		if rem <= minNodes {
			break
		}
	}
	return nil, false
}

// evalNodes is one job's choice among candidates, some left out (out).
type evalNodes struct {
	caps                            []uint32
	pos                             []int
	weights                         []uint64
	req                             []bool
	out                             []bool
	minNodes, maxNodes, want, tasks uint32
	contiguous                      bool // --contiguous: one run of consecutive nodes
}

// enough is Slurm's _enough_nodes: whether avail nodes make the count still wanted, where
// only the minimum is required.
func (e *evalNodes) enough(avail, remNodes int64) bool {
	need := remNodes
	if e.want > e.minNodes {
		need = remNodes + int64(e.minNodes) - int64(e.want)
	}
	return avail >= need
}

// named says whether candidate i is a node the job names.
func (e *evalNodes) named(i int) bool { return e.req != nil && e.req[i] }

// eval is Slurm's _eval_nodes.
func (e *evalNodes) eval() ([]int, bool) {
	avail := make([]int64, len(e.caps))
	type run struct {
		nodes      []int // the candidates not named, in order
		cpus, size int64
		weight     uint64
		req        int // the first named node within the run, -1 none
		last       int // the position of the run's last node, named or not
	}
	weight := func(i int) uint64 {
		if e.weights == nil || e.contiguous {
			return 0 // a contiguous job does not mind weights (_eval_nodes)
		}
		return e.weights[i]
	}
	remCPUs, remNodes := int64(e.tasks), int64(max(e.minNodes, e.want))
	maxNodes := int64(e.maxNodes)
	var chosen []int
	taken := make([]bool, len(e.caps))
	take := func(i int, cpus int64) {
		taken[i] = true
		chosen = append(chosen, i)
		remCPUs -= cpus
		remNodes--
		maxNodes--
	}
	// The named nodes first, all of them.
	for i := range e.caps {
		if !e.named(i) {
			continue
		}
		if maxNodes == 0 {
			return nil, false
		}
		take(i, int64(e.caps[i]))
	}
	if len(chosen) > 0 && remNodes <= 0 && remCPUs <= 0 {
		return chosen, true
	}
	var runs []run
	for i, c := range e.caps {
		if c == 0 || e.out[i] {
			if e.contiguous && e.named(i) {
				return nil, false
			}
			continue
		}
		if n := len(runs); n == 0 || runs[n-1].last+1 != e.pos[i] || runs[n-1].weight != weight(i) {
			if n > 0 && runs[n-1].size == 0 {
				runs = runs[:n-1] // named nodes only: Slurm reuses the record
			}
			runs = append(runs, run{weight: weight(i), req: -1})
		}
		r := &runs[len(runs)-1]
		r.last = e.pos[i]
		if e.named(i) {
			if r.req < 0 {
				r.req = i
			}
			continue
		}
		avail[i] = int64(c)
		r.nodes = append(r.nodes, i)
		r.cpus += int64(c)
		r.size++
	}
	if n := len(runs); n > 0 && runs[n-1].size == 0 {
		runs = runs[:n-1]
	}
	if e.contiguous && len(chosen) > 0 {
		// Every named node must lie in one run, and only that run serves.
		var keep []run
		for _, r := range runs {
			if r.req >= 0 {
				keep = append(keep, r)
			}
		}
		if len(keep) != 1 && !(len(keep) == 0 && remNodes <= 0 && remCPUs <= 0) {
			return nil, false
		}
		runs = keep
	}
	for maxNodes > 0 {
		best, bestSufficient := -1, false
		for k := range runs {
			r := &runs[k]
			if r.size == 0 {
				continue
			}
			sufficient := r.cpus >= remCPUs && e.enough(r.size, remNodes)
			if best < 0 || (runs[best].req < 0 && r.req >= 0) || r.weight < runs[best].weight || r.weight == runs[best].weight &&
				((sufficient && !bestSufficient) || (sufficient && r.cpus < runs[best].cpus) || (!sufficient && r.cpus > runs[best].cpus)) ||
				(e.contiguous && sufficient && !bestSufficient) {
				best, bestSufficient = k, sufficient
			}
		}
		if best < 0 {
			break
		}
		if e.contiguous && !bestSufficient {
			return nil, false // no run holds it
		}
		r := &runs[best]
		// In a run holding a named node: up from the first one, then down from it.
		// Elsewhere: in order, the last node the maximum allows finishing the job, after
		// best fit for a job aiming at one node.
		order, lastRule := r.nodes, r.req < 0
		if r.req >= 0 {
			order = make([]int, 0, len(r.nodes))
			for _, i := range r.nodes {
				if i > r.req {
					order = append(order, i)
				}
			}
			for k := len(r.nodes) - 1; k >= 0; k-- {
				if r.nodes[k] < r.req {
					order = append(order, r.nodes[k])
				}
			}
		} else if remNodes <= 1 {
			// Best fit: the smallest node that holds what is left, first among equals.
			fit := -1
			for _, i := range r.nodes {
				if avail[i] >= remCPUs && (fit < 0 || avail[i] < avail[fit]) {
					if fit = i; avail[i] == remCPUs {
						break
					}
				}
			}
			if fit >= 0 {
				for _, i := range r.nodes {
					if i != fit {
						avail[i] = 0
					}
				}
			}
		}
		for _, i := range order {
			if maxNodes == 0 || (remNodes <= 0 && remCPUs <= 0) {
				break
			}
			if taken[i] || avail[i] <= 0 || (lastRule && maxNodes == 1 && avail[i] < remCPUs) {
				continue
			}
			take(i, avail[i])
		}
		if remNodes <= 0 && remCPUs <= 0 {
			slices.Sort(chosen)
			return chosen, true
		}
		r.cpus, r.size = 0, 0
	}
	if remCPUs <= 0 && e.enough(0, remNodes) {
		slices.Sort(chosen)
		return chosen, true
	}
	return nil, false
}

// WantNodes is the node count Slurm's select plugin aims at for a job of minNodes to
// maxNodes nodes (0: no maximum): the maximum, else the minimum (one node for a plain -n
// job), and the minimum with --use-min-nodes.
func WantNodes(minNodes, maxNodes uint32, useMin bool) uint32 {
	if maxNodes == 0 || useMin {
		return max(minNodes, 1)
	}
	return maxNodes
}

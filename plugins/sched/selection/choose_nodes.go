package selection

import "slices"

// ChooseNodes picks the nodes of a job that names none (--nodelist) as Slurm's
// select/cons_tres does (choose_nodes and _eval_nodes):
//   - the candidates form runs of consecutive nodes of one weight; the run taken first is
//     one of the lowest weight: the first that can hold the job, or the tightest of those
//     that can, or, when none can, the largest; then the next, until the job has enough;
//   - a job aiming at one node takes the smallest single node that holds it all (best
//     fit); otherwise nodes are taken in order, except that the last node the job's
//     maximum allows must finish it;
//   - when that fails, nodes with the fewest free tasks are left out, a size at a time,
//     and the choice is made again (Slurm's answer to the knapsack problem).
//
// caps are the tasks each candidate can take now (0: it cannot serve the job), in
// configuration order; pos are their positions in the configuration, so that a gap ends a
// run; weights their Weight= (nil: all equal). want is the node count the job aims at (its
// -N maximum, else its minimum); maxNodes 0 means no maximum. It returns the indexes into
// caps of the chosen nodes, in order.
func ChooseNodes(caps []uint32, pos []int, weights []uint32, minNodes, maxNodes, want, tasks uint32) ([]int, bool) {
	if maxNodes == 0 || maxNodes > max(tasks, minNodes) {
		maxNodes = max(tasks, minNodes)
	}
	var total uint64
	var usable, mostRes uint32
	for _, c := range caps {
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
	e := evalNodes{caps: caps, pos: pos, weights: weights, minNodes: minNodes, maxNodes: maxNodes, want: want, tasks: tasks,
		out: make([]bool, len(caps))}
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
			if c == 0 || e.out[i] || c > count {
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
	weights                         []uint32
	out                             []bool
	minNodes, maxNodes, want, tasks uint32
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

// eval is Slurm's _eval_nodes for a job without required nodes.
func (e *evalNodes) eval() ([]int, bool) {
	avail := make([]int64, len(e.caps))
	type run struct {
		nodes      []int
		cpus, size int64
		weight     uint32
	}
	weight := func(i int) uint32 {
		if e.weights == nil {
			return 0
		}
		return e.weights[i]
	}
	var runs []run
	for i, c := range e.caps {
		if c == 0 || e.out[i] {
			continue
		}
		avail[i] = int64(c)
		if n := len(runs); n == 0 || e.pos[runs[n-1].nodes[len(runs[n-1].nodes)-1]]+1 != e.pos[i] || runs[n-1].weight != weight(i) {
			runs = append(runs, run{weight: weight(i)})
		}
		r := &runs[len(runs)-1]
		r.nodes = append(r.nodes, i)
		r.cpus += int64(c)
		r.size++
	}
	remCPUs, remNodes := int64(e.tasks), int64(max(e.minNodes, e.want))
	maxNodes := int64(e.maxNodes)
	var chosen []int
	taken := make([]bool, len(e.caps))
	for maxNodes > 0 {
		best, bestSufficient := -1, false
		for k := range runs {
			r := &runs[k]
			if r.size == 0 {
				continue
			}
			sufficient := r.cpus >= remCPUs && e.enough(r.size, remNodes)
			if best < 0 || r.weight < runs[best].weight || r.weight == runs[best].weight &&
				((sufficient && !bestSufficient) || (sufficient && r.cpus < runs[best].cpus) || (!sufficient && r.cpus > runs[best].cpus)) {
				best, bestSufficient = k, sufficient
			}
		}
		if best < 0 {
			break
		}
		r := &runs[best]
		if remNodes <= 1 {
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
		for _, i := range r.nodes {
			if maxNodes == 0 || (remNodes <= 0 && remCPUs <= 0) {
				break
			}
			if taken[i] || avail[i] <= 0 || (maxNodes == 1 && avail[i] < remCPUs) {
				continue
			}
			taken[i] = true
			chosen = append(chosen, i)
			remCPUs -= avail[i]
			remNodes--
			maxNodes--
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

package selection

import (
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Tally keeps, for one job, how many nodes of its partition could take a task of it and how
// many tasks they could take together, as the Pool it watches changes. It is a necessary
// condition for Select: when MayFit is false Select would fail, so a backfill pass that
// moves through time booking and releasing holds pays a node selection only at the times
// the job may fit, and each hold costs its own nodes, not the partition's.
type Tally struct {
	j     *scheduler.Job
	c     Constraint
	cpt   uint32
	whole bool
	mode  Mode
	room  room // the watched partition's MaxCPUsPerNode and use
	p     *Pool
	share int // the job's rows when it shares CPUs (share.go), else -1
	part  string
	elig  []bool // by pool index: in the partition, not excluded or barred, features match
	nodes uint32 // eligible nodes with room for a task
	tasks uint64 // tasks they could take
}

// Watch starts a Tally of j in part on p; p keeps it current through Take and Release until
// Unwatch. Nodes barred when it starts (Bar) are left out for its life. A job whose
// --constraint does not parse gets a Tally that never fits.
func (p *Pool) Watch(j *scheduler.Job, part *scheduler.Partition) *Tally {
	t := &Tally{j: j, cpt: max(j.CPUsPerTask, 1), whole: j.Exclusive || p.Mode.WholeNode, mode: p.Mode,
		room: p.roomOf(part.Name), elig: make([]bool, len(p.nodes)), p: p, share: p.sharing(j, part.Name), part: part.Name}
	c, err := ParseConstraint(j.Features)
	if err != nil {
		return t
	}
	t.c = c
	for _, i := range p.partIndex(part) {
		f := &p.nodes[i]
		// Every alternative of a matching-OR list counts: the Tally over-counts rather
		// than miss a fit.
		if (p.barred != nil && p.barred[i]) || slices.Contains(j.ExcNodes, f.Node.Name) || !c.matches(f.Node.Features, "") {
			continue
		}
		t.elig[i] = true
		t.add(i, f, p.gresOf(i))
	}
	p.watch = t
	return t
}

// Unwatch detaches the Pool's Tally.
func (p *Pool) Unwatch() { p.watch = nil }

// MayFit is false when the job cannot fit on the watched pool now.
func (t *Tally) MayFit() bool {
	return t.nodes >= t.j.MinNodes && t.tasks >= uint64(t.j.NumTasks)
}

// view is the most node i can give the job in any row: the Tally over-counts rather than
// miss a fit.
func (t *Tally) view(i int) nodeView {
	if t.share >= 0 {
		return t.p.freeIn(i, t.share, t.part, viewAny)
	}
	return t.p.freeIn(i, -1, t.part, viewIdle)
}

func (t *Tally) add(i int, f *Free, gres []uint64) {
	if n, ok := capacity(t.mode, f, gres, t.j, t.cpt, t.whole, t.room.at(i), t.view(i)); ok {
		t.nodes++
		t.tasks += uint64(n)
	}
}

func (t *Tally) remove(i int, f *Free, gres []uint64) {
	if n, ok := capacity(t.mode, f, gres, t.j, t.cpt, t.whole, t.room.at(i), t.view(i)); ok {
		t.nodes--
		t.tasks -= uint64(n)
	}
}

// capacity is the tasks of j (cpt CPUs each; whole: it takes whole nodes) node f, with
// gres of its GRES in use and in its CPUs free to the job, can take now, before features:
// what Select counts a node for.
// A node without the job's --gres free takes none; room is the CPUs the job's partition
// may still take there (MaxCPUsPerNode; noCap for none): a whole-node job needs the node's
// every CPU within it.
func capacity(mode Mode, f *Free, gres []uint64, j *scheduler.Job, cpt uint32, whole bool, room uint32, in nodeView) (uint32, bool) {
	if !f.Node.Usable || f.Exclusive > 0 || !in.ok {
		return 0, false
	}
	if whole && room < f.Node.CPUs {
		return 0, false
	}
	if len(j.Gres) > 0 && !GresFits(f.Node.Gres, gres, j.Gres) {
		return 0, false
	}
	if whole && !in.empty {
		return 0, false
	}
	if !f.servesUser(j) { // user.go
		return 0, false
	}
	cores, ok := JobCores(&f.Node, j)
	if !ok {
		return 0, false // more threads per core than the node has
	}
	free := f.Node.CPUs
	if mode.CPUs && !whole {
		free = in.free
	}
	free = min(free, room)
	if cores.Usable(free) < j.MinCPUs {
		return 0, false // --mincpus, of the threads the job uses
	}
	n := cores.Tasks(free)
	if j.TasksPerNode > 0 {
		n = min(n, j.TasksPerNode)
	}
	if mode.Memory && MemPerNode(j, cpt) > 0 {
		avail := f.Node.RealMemory - min(f.AllocMem, f.Node.RealMemory)
		if j.MemPerNode > 0 {
			if avail < j.MemPerNode {
				return 0, false
			}
		} else {
			n = min(n, cores.MemTasks(avail, j.MemPerCPU, mode.WholeCores, j.ThreadsPerCore))
		}
	}
	if n < j.TasksPerNode {
		return 0, false // every node of the job runs --ntasks-per-node tasks (layoutTasks)
	}
	return n, n > 0
}

package selection

import (
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestSelect_MinCPUs: --mincpus skips nodes with fewer free CPUs and gives the job at least
// that many on each node it takes, as select/cons_tres does with pn_min_cpus.
func TestSelect_MinCPUs(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 2), gresNode("n2", 8)}
	p := NewPool(Mode{CPUs: true}, nodes)
	j := &scheduler.Job{ID: 1, Partition: "p", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, MinCPUs: 4}
	a, ok := p.Select(j, part(nodes))
	if !ok || len(a.Nodes) != 1 || a.Nodes[0] != "n2" || a.CPUs[0] != 4 {
		t.Fatalf("--mincpus=4 job got %v with CPUs %v (ok %v), want n2 with 4", a.Nodes, a.CPUs, ok)
	}
	p.Take(a, false)
	a2, ok := p.Select(j, part(nodes))
	if !ok || a2.Nodes[0] != "n2" || a2.CPUs[0] != 4 {
		t.Fatalf("second --mincpus=4 job got %v %v (ok %v), want n2's other 4 CPUs", a2.Nodes, a2.CPUs, ok)
	}
	p.Take(a2, false)
	if _, ok := p.Select(j, part(nodes)); ok {
		t.Fatal("a third --mincpus=4 job fits where no node has 4 free CPUs")
	}
}

// TestSelect_MaxCPUsPerNode: a partition's jobs together hold no more than its
// MaxCPUsPerNode of any node (select/cons_tres's part_cpu_limit); other partitions' jobs on
// the same node do not count against it, and a whole-node job cannot use a node larger
// than the limit. A Tally agrees with Select as the pool changes.
func TestSelect_MaxCPUsPerNode(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8)}
	capped := part(nodes)
	capped.Name, capped.MaxCPUsPerNode = "capped", 3
	other := part(nodes)
	other.Name = "other"
	p := NewPool(Mode{CPUs: true}, nodes)
	p.LimitPartitions([]scheduler.Partition{*capped, *other})
	p.TakeJob(&scheduler.Job{ID: 1, Partition: "other", Nodes: []string{"n1"}, CPUs: []uint32{4}})

	j := &scheduler.Job{ID: 2, Partition: "capped", MinNodes: 1, NumTasks: 2, CPUsPerTask: 1}
	tally := p.Watch(j, capped)
	a, ok := p.Select(j, capped)
	if !ok || a.CPUs[0] != 2 || a.Partition != "capped" || !tally.MayFit() {
		t.Fatalf("2 tasks in a partition limited to 3 CPUs of n1: %+v ok %v (tally %v)", a, ok, tally.MayFit())
	}
	p.Take(a, false)
	if tally.MayFit() {
		t.Error("tally says a second 2-task job fits with 1 of the partition's 3 CPUs left")
	}
	if _, ok := p.Select(j, capped); ok {
		t.Fatal("a second 2-task job fits: the partition would hold 4 CPUs of n1, over MaxCPUsPerNode=3")
	}
	p.Unwatch()
	one := &scheduler.Job{ID: 3, Partition: "capped", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1}
	if a, ok := p.Select(one, capped); !ok || a.CPUs[0] != 1 {
		t.Errorf("a 1-task job should take the partition's last CPU of n1: %+v ok %v", a, ok)
	}
	if a, ok := p.Select(&scheduler.Job{ID: 4, Partition: "other", MinNodes: 1, NumTasks: 2, CPUsPerTask: 1}, other); !ok || a.CPUs[0] != 2 {
		t.Errorf("another partition's job still gets n1's free CPUs: %+v ok %v", a, ok)
	}
	idle := NewPool(Mode{CPUs: true}, nodes)
	idle.LimitPartitions([]scheduler.Partition{*capped})
	excl := &scheduler.Job{ID: 5, Partition: "capped", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, Exclusive: true}
	if _, ok := idle.Select(excl, capped); ok {
		t.Error("an exclusive job took all 8 CPUs of idle n1 in a partition limited to 3")
	}
	if _, ok := idle.Select(excl, other); !ok {
		t.Error("an exclusive job of an unlimited partition cannot have idle n1")
	}
}

// TestSelect_NodeCountLimit: Slurm aims at a job's -N maximum, else its minimum (beside a
// -N2 -n64 job placed 63+1 on n1 and n2): a one-node job takes the smallest node that holds
// it; a job whose maximum the nodes in order would overshoot leaves out the nodes with
// least room, a size at a time; otherwise nodes fill in order. Every case is what the
// reference did (Slurm 22.05, the same jobs, 64-CPU nodes).
func TestSelect_NodeCountLimit(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 64), gresNode("n2", 64), gresNode("n3", 64), gresNode("n4", 64)}
	p := NewPool(Mode{CPUs: true}, nodes)
	p.TakeJob(&scheduler.Job{ID: 1, Partition: "p", Nodes: []string{"n1", "n2"}, CPUs: []uint32{63, 1}})
	for _, k := range []struct {
		min, max, tasks uint32
		want            []string
		cpus            []uint32
	}{
		{1, 1, 64, []string{"n3"}, []uint32{64}},
		{1, 0, 3, []string{"n2"}, []uint32{3}},
		{1, 0, 1, []string{"n1"}, []uint32{1}},
		{1, 0, 64, []string{"n3"}, []uint32{64}},
		{2, 2, 128, []string{"n3", "n4"}, []uint32{64, 64}},
		{1, 2, 64, []string{"n1", "n2"}, []uint32{1, 63}},
		{1, 0, 65, []string{"n1", "n2", "n3"}, []uint32{1, 63, 1}},
		{1, 3, 100, []string{"n1", "n2", "n3"}, []uint32{1, 63, 36}},
		{1, 1, 65, nil, nil},
	} {
		j := &scheduler.Job{ID: 2, Partition: "p", MinNodes: k.min, MaxNodes: k.max, NumTasks: k.tasks, CPUsPerTask: 1}
		a, ok := p.Select(j, part(nodes))
		if ok != (k.want != nil) || ok && (!slices.Equal(a.Nodes, k.want) || !slices.Equal(a.CPUs, k.cpus)) {
			t.Errorf("-N%d-%d -n%d: %v %v (ok %v), want %v %v", k.min, k.max, k.tasks, a.Nodes, a.CPUs, ok, k.want, k.cpus)
		}
	}
}

// TestLayoutTasks: with --ntasks-per-node every chosen node runs that many tasks, so a job
// given more nodes than its tasks need runs more (recorded on Slurm 22.05: -n3
// --ntasks-per-node=2 ran 2(x2), -n5 -c2 --ntasks-per-node=2 2(x3), -N2-4
// --ntasks-per-node=3 3(x4)); without it one task per node, then block.
func TestLayoutTasks(t *testing.T) {
	for _, c := range []struct {
		caps               []uint32
		tasks, tasksPerNod uint32
		want               []uint32
	}{
		{[]uint32{2, 2}, 3, 2, []uint32{2, 2}},
		{[]uint32{2, 2, 2}, 5, 2, []uint32{2, 2, 2}},
		{[]uint32{3, 3, 3, 3}, 6, 3, []uint32{3, 3, 3, 3}},
		{[]uint32{64, 64}, 3, 0, []uint32{2, 1}},
		{[]uint32{1, 64, 64}, 65, 0, []uint32{1, 63, 1}},
		{[]uint32{4, 4}, 2, 0, []uint32{1, 1}},
	} {
		if got := LayoutTasks(c.caps, c.tasks, c.tasksPerNod); !slices.Equal(got, c.want) {
			t.Errorf("LayoutTasks(%v, %d, %d) = %v, want %v", c.caps, c.tasks, c.tasksPerNod, got, c.want)
		}
	}
}

// TestSelect_TasksPerNode: a node without room for --ntasks-per-node tasks is passed over
// (cons_tres's can_job_run_on_node), and each node taken gets that many tasks' CPUs.
func TestSelect_TasksPerNode(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8), gresNode("n2", 8), gresNode("n3", 8)}
	p := NewPool(Mode{CPUs: true}, nodes)
	p.Take(Alloc{Nodes: []string{"n1"}, CPUs: []uint32{6}}, false) // n1: room for one task of 2 CPUs
	j := &scheduler.Job{ID: 1, Partition: "p", MinNodes: 1, NumTasks: 3, CPUsPerTask: 2, TasksPerNode: 2}
	a, ok := p.Select(j, part(nodes))
	if !ok || !slices.Equal(a.Nodes, []string{"n2", "n3"}) || !slices.Equal(a.CPUs, []uint32{4, 4}) {
		t.Fatalf("-n3 -c2 --ntasks-per-node=2 got %v CPUs %v (ok %v), want n[2-3] with 4 each", a.Nodes, a.CPUs, ok)
	}
	j.ReqNodes = []string{"n1"}
	if a, ok := p.Select(j, part(nodes)); ok {
		t.Fatalf("-w n1 with room for one task there got %v %v", a.Nodes, a.CPUs)
	}
}

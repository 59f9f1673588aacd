package selection

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func gresNode(name string, cpus uint32, gres ...scheduler.Gres) scheduler.Node {
	return scheduler.Node{Name: name, CPUs: cpus, RealMemory: 1000, Usable: true, Gres: gres}
}

func gresJob(id uint32, gres ...scheduler.Gres) *scheduler.Job {
	return &scheduler.Job{ID: id, Partition: "p", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, Gres: gres}
}

func gpu(typ string, n uint64) scheduler.Gres {
	return scheduler.Gres{Name: "gpu", Type: typ, Count: n}
}

func part(nodes []scheduler.Node) *scheduler.Partition {
	p := &scheduler.Partition{Name: "p", Up: true}
	for _, n := range nodes {
		p.Nodes = append(p.Nodes, n.Name)
	}
	return p
}

// A job needing gpu:2 never lands on a node with gpu:1, even when that node comes first.
func TestSelect_GresSkipsSmallNode(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8, gpu("", 1)), gresNode("n2", 8), gresNode("n3", 8, gpu("", 2))}
	p := NewPool(Mode{CPUs: true}, nodes)
	a, ok := p.Select(gresJob(1, gpu("", 2)), part(nodes))
	if !ok || len(a.Nodes) != 1 || a.Nodes[0] != "n3" {
		t.Fatalf("gpu:2 job placed on %v (ok %v), want n3", a.Nodes, ok)
	}
	if len(a.Gres) != 1 || len(a.Gres[0]) != 1 || a.Gres[0][0] != gpu("", 2) {
		t.Fatalf("GRES taken %v, want [[gpu:2]]", a.Gres)
	}
}

// Two gpu:2 jobs run together on a gpu:4 node; a third does not fit until one ends.
func TestSelect_GresCountsWhileRunning(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8, gpu("", 4))}
	p := NewPool(Mode{CPUs: true}, nodes)
	var allocs []Alloc
	for id := uint32(1); id <= 2; id++ {
		a, ok := p.Select(gresJob(id, gpu("", 2)), part(nodes))
		if !ok {
			t.Fatalf("job %d does not fit", id)
		}
		p.Take(a, false)
		allocs = append(allocs, a)
	}
	if _, ok := p.Select(gresJob(3, gpu("", 2)), part(nodes)); ok {
		t.Fatal("third gpu:2 job fits a gpu:4 node holding two")
	}
	if n := p.Overbooked(); n != "" {
		t.Fatalf("%s overbooked", n)
	}
	p.Release(allocs[0], false)
	if _, ok := p.Select(gresJob(3, gpu("", 2)), part(nodes)); !ok {
		t.Fatal("third job does not fit after one ended")
	}
}

// Typed requests take only their type; untyped ones any type; an untyped node entry never
// serves a typed request.
func TestSelect_GresTypes(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8, gpu("", 2)), gresNode("n2", 8, gpu("v100", 1), gpu("a100", 2))}
	p := NewPool(Mode{CPUs: true}, nodes)
	a, ok := p.Select(gresJob(1, gpu("a100", 2)), part(nodes))
	if !ok || a.Nodes[0] != "n2" || a.Gres[0][0] != gpu("a100", 2) {
		t.Fatalf("gpu:a100:2 got %v %v %v", a.Nodes, a.Gres, ok)
	}
	p.Take(a, false)
	// n1 has 2 untyped, n2 1 v100 left: gpu:3 fits nowhere, gpu:v100:1 only on n2.
	if _, ok := p.Select(gresJob(2, gpu("", 3)), part(nodes)); ok {
		t.Fatal("gpu:3 fits")
	}
	j := gresJob(3, gpu("v100", 1))
	j.ExcNodes = nil
	if a, ok := p.Select(j, part(nodes)); !ok || a.Nodes[0] != "n2" {
		t.Fatalf("gpu:v100 got %v %v", a.Nodes, ok)
	}
	// Untyped over two types of one node: gpu:1,gpu:a100:... mixed requests add up.
	q := NewPool(Mode{CPUs: true}, nodes[1:])
	if a, ok := q.Select(gresJob(4, gpu("", 3)), part(nodes[1:])); !ok || len(a.Gres[0]) != 2 {
		t.Fatalf("gpu:3 over v100+a100: %v %v", a.Gres, ok)
	}
	if _, ok := q.Select(gresJob(5, gpu("a100", 2), gpu("", 2)), part(nodes[1:])); ok {
		t.Fatal("gpu:a100:2,gpu:2 fits a node with 3 GPUs")
	}
}

func TestFitsEver_Gres(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8, gpu("", 2)), gresNode("n2", 8, gpu("", 4))}
	c := NewCapacity(nodes)
	if !c.FitsEver(gresJob(1, gpu("", 4)), part(nodes)) {
		t.Error("gpu:4 never fits, but n2 has 4")
	}
	if c.FitsEver(gresJob(2, gpu("", 5)), part(nodes)) {
		t.Error("gpu:5 fits some day")
	}
	j := gresJob(3, gpu("", 3))
	j.MinNodes, j.NumTasks = 2, 2
	if c.FitsEver(j, part(nodes)) {
		t.Error("gpu:3 on 2 nodes fits some day with one node of 4")
	}
	if c.FitsEver(gresJob(4, scheduler.Gres{Name: "mps", Count: 1}), part(nodes)) {
		t.Error("mps fits nodes without it")
	}
}

// TestPool_Property_GresNeverOverbooked: jobs with random --gres placed and ended in random
// order never leave a node's GRES allocated beyond what it has, a Watch stays consistent
// with Select, and every allocation serves its request.
func TestPool_Property_GresNeverOverbooked(t *testing.T) {
	for seed := int64(1); seed <= 200; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			types := []string{"", "a100", "v100"}
			var nodes []scheduler.Node
			for i := 0; i < 1+r.Intn(5); i++ {
				var g []scheduler.Gres
				for k := 0; k < r.Intn(3); k++ {
					g = append(g, gpu(types[1+k], uint64(1+r.Intn(4))))
				}
				if len(g) == 0 && r.Intn(2) == 0 {
					g = append(g, gpu("", uint64(1+r.Intn(4))))
				}
				nodes = append(nodes, gresNode(fmt.Sprintf("n%d", i), 16, g...))
			}
			pt := part(nodes)
			p := NewPool(Mode{CPUs: true}, nodes)
			type held struct {
				a Alloc
				j *scheduler.Job
			}
			var run []held
			for step := 0; step < 100; step++ {
				if len(run) > 0 && r.Intn(3) == 0 {
					k := r.Intn(len(run))
					p.Release(run[k].a, false)
					run = append(run[:k], run[k+1:]...)
					continue
				}
				j := gresJob(uint32(step), gpu(types[r.Intn(3)], uint64(1+r.Intn(3))))
				if r.Intn(4) == 0 {
					j.Gres = append(j.Gres, gpu("", 1))
				}
				j.MinNodes = uint32(1 + r.Intn(2))
				j.NumTasks = j.MinNodes
				tally := p.Watch(j, pt)
				may := tally.MayFit()
				p.Unwatch()
				a, ok := p.Select(j, pt)
				if ok && !may {
					t.Fatalf("step %d: Select fits where the Tally says it cannot", step)
				}
				if !ok {
					continue
				}
				for i := range a.Nodes {
					for _, req := range j.Gres {
						var got uint64
						for _, g := range a.Gres[i] {
							if g.Name == req.Name && (req.Type == "" || g.Type == req.Type) {
								got += g.Count
							}
						}
						if got < req.Count {
							t.Fatalf("step %d: %s got %v for %v", step, a.Nodes[i], a.Gres[i], j.Gres)
						}
					}
				}
				p.Take(a, false)
				run = append(run, held{a, j})
				if n := p.Overbooked(); n != "" {
					t.Fatalf("step %d: node %s allocated beyond its GRES: %v", step, n, p.GresUsed(n))
				}
			}
		})
	}
}

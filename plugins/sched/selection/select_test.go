package selection

import (
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

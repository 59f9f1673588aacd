package selection

import (
	"slices"
	"testing"
)

// TestChooseNodes: select/cons_tres's choice on free task counts. The cases on four 64-CPU
// nodes, and the short run passed over (n2 taken whole), are what Slurm 22.05 did; the
// others follow its code (_eval_nodes).
func TestChooseNodes(t *testing.T) {
	for _, c := range []struct {
		what                  string
		caps                  []uint32
		min, max, want, tasks uint32
		chosen                []int // nil: no choice
	}{
		{"one node: the smallest that holds the job", []uint32{1, 63, 64, 64}, 1, 0, 1, 3, []int{1}},
		{"one node: exact fit first", []uint32{1, 63, 64, 64}, 1, 0, 1, 64, []int{2}},
		{"no single node: in order", []uint32{1, 63, 64, 64}, 1, 0, 1, 65, []int{0, 1, 2}},
		{"-N2: nodes with least room left out", []uint32{1, 63, 64, 64}, 2, 2, 2, 128, []int{2, 3}},
		{"-N1-2: in order within the maximum", []uint32{1, 63, 64, 64}, 1, 2, 2, 64, []int{0, 1}},
		{"-N1-3", []uint32{1, 63, 64, 64}, 1, 3, 3, 100, []int{0, 1, 2}},
		{"the last node allowed must finish the job", []uint32{10, 20, 64}, 1, 2, 2, 70, []int{0, 2}},
		{"a run too short for -N2 is passed over", []uint32{64, 0, 64, 64}, 2, 2, 2, 8, []int{2, 3}},
		{"the tightest run that holds the job", []uint32{8, 8, 0, 64, 64}, 2, 2, 2, 8, []int{0, 1}},
		{"too few tasks in all", []uint32{1, 2, 3}, 1, 0, 1, 7, nil},
		{"too few nodes", []uint32{64, 0, 0}, 2, 0, 2, 2, nil},
		{"-N1 beyond any node", []uint32{1, 63, 64, 64}, 1, 1, 1, 65, nil},
	} {
		pos := make([]int, len(c.caps))
		for i := range pos {
			pos[i] = i
		}
		// The nodes that cannot serve the job are not candidates, as the callers build them.
		var caps []uint32
		var at []int
		for i, n := range c.caps {
			if n > 0 {
				caps, at = append(caps, n), append(at, pos[i])
			}
		}
		got, ok := ChooseNodes(caps, at, nil, nil, c.min, c.max, c.want, c.tasks, c.tasks)
		var nodes []int
		for _, k := range got {
			nodes = append(nodes, at[k])
		}
		if ok != (c.chosen != nil) || !slices.Equal(nodes, c.chosen) {
			t.Errorf("%s: %v (ok %v), want %v", c.what, nodes, ok, c.chosen)
		}
	}
}

// TestChooseNodes_Weights: nodes of lower Weight= are taken first, and a run of consecutive
// nodes ends where the weight changes; recorded on Slurm 22.05 with n2 and n3 of weight 1
// and n1 and n4 of weight 10.
func TestChooseNodes_Weights(t *testing.T) {
	caps, pos, weights := []uint32{64, 64, 64, 64}, []int{0, 1, 2, 3}, []uint64{10, 1, 1, 10}
	for _, c := range []struct {
		min, max, want, tasks uint32
		chosen                []int
	}{
		{1, 0, 1, 1, []int{1}},
		{1, 0, 1, 100, []int{1, 2}},
		{3, 3, 3, 3, []int{0, 1, 2}},
		{1, 0, 1, 200, []int{0, 1, 2, 3}},
	} {
		got, ok := ChooseNodes(caps, pos, weights, nil, c.min, c.max, c.want, c.tasks, c.tasks)
		if !ok || !slices.Equal(got, c.chosen) {
			t.Errorf("-N%d-%d -n%d: %v (ok %v), want %v", c.min, c.max, c.tasks, got, ok, c.chosen)
		}
	}
	// n2 taken whole: the remaining weight-1 node first, then the others in order.
	got, ok := ChooseNodes([]uint32{64, 25, 64}, []int{0, 2, 3}, []uint64{10, 1, 10}, nil, 3, 3, 3, 3, 3)
	if !ok || !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("-N3 -n3 beside a full n2: %v (ok %v), want n1, n3, n4", got, ok)
	}
}

// TestChooseNodes_Named: with --nodelist naming fewer nodes than the job needs, the named
// nodes come first, then the run holding the first named node, going up from it and then
// down; recorded on Slurm 22.05 on four idle 64-CPU nodes of equal weight.
func TestChooseNodes_Named(t *testing.T) {
	for _, c := range []struct {
		what                  string
		caps                  []uint32
		named                 []int
		min, max, want, tasks uint32
		chosen                []int // nil: no choice
	}{
		{"-N2 -w n3", []uint32{64, 64, 64, 64}, []int{2}, 2, 2, 2, 2, []int{2, 3}},
		{"-N3 -w n2", []uint32{64, 64, 64, 64}, []int{1}, 3, 3, 3, 3, []int{1, 2, 3}},
		{"-N2 -w n4: down when nothing is above", []uint32{64, 64, 64, 64}, []int{3}, 2, 2, 2, 2, []int{2, 3}},
		{"-N3 -w n1,n4", []uint32{64, 64, 64, 64}, []int{0, 3}, 3, 3, 3, 3, []int{0, 1, 3}},
		{"-N2 -w n1 -n65", []uint32{64, 64, 64, 64}, []int{0}, 2, 2, 2, 65, []int{0, 1}},
		{"-n70 -w n3", []uint32{64, 64, 64, 64}, []int{2}, 1, 0, 1, 70, []int{2, 3}},
		{"-N2 -w n2 -n3", []uint32{64, 64, 64, 64}, []int{1}, 2, 2, 2, 3, []int{1, 2}},
		{"the named nodes suffice", []uint32{64, 64, 64, 64}, []int{1, 3}, 1, 0, 1, 2, []int{1, 3}},
		{"a named node without room", []uint32{64, 0, 64, 64}, []int{1}, 1, 0, 1, 1, nil},
		{"more named nodes than -N allows", []uint32{64, 64, 64, 64}, []int{0, 1}, 1, 1, 1, 1, nil},
		{"the named node's run is passed over for a gap", []uint32{64, 64, 0, 64}, []int{0}, 3, 3, 3, 3, []int{0, 1, 3}},
	} {
		var caps []uint32
		var at []int
		var req []bool
		for i, n := range c.caps {
			if n > 0 || slices.Contains(c.named, i) {
				caps, at, req = append(caps, n), append(at, i), append(req, slices.Contains(c.named, i))
			}
		}
		got, ok := ChooseNodes(caps, at, nil, req, c.min, c.max, c.want, c.tasks, c.tasks)
		var nodes []int
		for _, k := range got {
			nodes = append(nodes, at[k])
		}
		if ok != (c.chosen != nil) || !slices.Equal(nodes, c.chosen) {
			t.Errorf("%s: %v (ok %v), want %v", c.what, nodes, ok, c.chosen)
		}
	}
}

// TestWantNodes: the node count the selection aims at, as Slurm's select plugin: -N's
// maximum, else its minimum (one node for a plain -n job), and with --use-min-nodes the
// minimum.
func TestWantNodes(t *testing.T) {
	for _, c := range []struct {
		min, max uint32
		useMin   bool
		want     uint32
	}{
		{0, 0, false, 1}, {1, 0, false, 1}, {2, 0, false, 2}, {1, 3, false, 3}, {1, 3, true, 1}, {2, 3, true, 2}, {0, 3, true, 1},
	} {
		if got := WantNodes(c.min, c.max, c.useMin); got != c.want {
			t.Errorf("WantNodes(%d, %d, %v) = %d, want %d", c.min, c.max, c.useMin, got, c.want)
		}
	}
}

// TestChooseContiguous: --contiguous takes one run of consecutive nodes, the first that
// holds the job (weights do not split runs), nothing when no run does, and with named
// nodes only their run. (Reference, four 64-CPU nodes: -N2 with n2 busy in part ran on
// n[1-2]; -N2 -w n3 on n[3-4].)
func TestChooseContiguous(t *testing.T) {
	for _, c := range []struct {
		what                  string
		caps                  []uint32 // 0: not a candidate (a gap)
		weights               []uint64
		req                   []bool
		min, max, want, tasks uint32
		chosen                []int
	}{
		{"-N2 on free nodes", []uint32{64, 63, 64, 64}, nil, nil, 2, 2, 2, 2, []int{0, 1}},
		{"-N2 past a gap: the first run that holds it", []uint32{64, 0, 64, 64}, nil, nil, 2, 2, 2, 2, []int{2, 3}},
		{"-N3 where no run has three", []uint32{64, 0, 64, 64}, nil, nil, 3, 3, 3, 3, nil},
		{"weights do not split the run", []uint32{64, 64, 64}, []uint64{1, 5, 1}, nil, 3, 3, 3, 3, []int{0, 1, 2}},
		{"-N2 -w n3: the named node's run", []uint32{64, 64, 64, 64}, nil, []bool{false, false, true, false}, 2, 2, 2, 2, []int{2, 3}},
	} {
		var caps []uint32
		var pos []int
		var weights []uint64
		var req []bool
		for i, n := range c.caps {
			if n == 0 {
				continue
			}
			caps, pos = append(caps, n), append(pos, i)
			if c.weights != nil {
				weights = append(weights, c.weights[i])
			}
			if c.req != nil {
				req = append(req, c.req[i])
			}
		}
		got, ok := ChooseContiguous(caps, pos, weights, req, c.min, c.max, c.want, c.tasks, c.tasks)
		var nodes []int
		for _, k := range got {
			nodes = append(nodes, pos[k])
		}
		if ok != (c.chosen != nil) || !slices.Equal(nodes, c.chosen) {
			t.Errorf("%s: chose %v (ok %v), want %v", c.what, nodes, ok, c.chosen)
		}
	}
}

// TestChooseNodes_RangeWithoutTasks: a -N1-3 job that gave no task count is filled up to its
// maximum (sbatch -N1-3 ran on three idle nodes of the reference); with its tasks given it
// takes no more nodes than tasks.
func TestChooseNodes_RangeWithoutTasks(t *testing.T) {
	caps, pos := []uint32{64, 64, 64, 64}, []int{0, 1, 2, 3}
	if got, ok := ChooseNodes(caps, pos, nil, nil, 1, 3, 3, 1, 0); !ok || len(got) != 3 {
		t.Errorf("-N1-3 without tasks: %v %v; want three nodes", got, ok)
	}
	if got, ok := ChooseNodes(caps, pos, nil, nil, 1, 3, 3, 1, 1); !ok || len(got) != 1 {
		t.Errorf("-N1-3 -n1: %v %v; want one node", got, ok)
	}
	// Only two nodes have room: the range takes them, its minimum being met.
	if got, ok := ChooseNodes([]uint32{64, 0, 64, 0}, pos, nil, nil, 1, 3, 3, 1, 0); !ok || len(got) != 2 {
		t.Errorf("-N1-3 without tasks on two free nodes: %v %v; want two", got, ok)
	}
}

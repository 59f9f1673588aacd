package ctld

import (
	"slices"
	"testing"
)

func TestStepLayout(t *testing.T) {
	cases := []struct {
		name                   string
		cpus                   []uint32
		tasks, nodes, tpn, cpt uint32
		want                   []uint32
		wantErr                error
	}{
		{"default: one task per node", []uint32{4, 4}, 0, 0, 0, 1, []uint32{1, 1}, nil},
		{"-n4 over two nodes", []uint32{4, 4}, 4, 0, 0, 1, []uint32{2, 2}, nil},
		{"-n3 over two nodes", []uint32{4, 4}, 3, 0, 0, 1, []uint32{2, 1}, nil},
		{"-n1 uses one node", []uint32{4, 4}, 1, 0, 0, 1, []uint32{1}, nil},
		{"-N1 -n4", []uint32{4, 4}, 4, 1, 0, 1, []uint32{4}, nil},
		{"uneven CPUs fill the bigger node", []uint32{1, 4}, 4, 0, 0, 1, []uint32{1, 3}, nil},
		{"-c2", []uint32{4, 4}, 4, 0, 0, 2, []uint32{2, 2}, nil},
		{"--ntasks-per-node=1", []uint32{4, 4}, 0, 2, 1, 1, []uint32{1, 1}, nil},
		{"too many tasks", []uint32{2}, 10, 0, 0, 1, nil, errStepCPUs},
		{"too many nodes", []uint32{2}, 0, 2, 0, 1, nil, errStepNodes},
		{"fewer tasks than nodes", []uint32{2, 2}, 1, 2, 0, 1, nil, errStepTasks},
	}
	for _, c := range cases {
		got, err := stepLayout(c.cpus, c.tasks, c.nodes, c.tpn, c.cpt, false, 0)
		if err != c.wantErr || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, got, err, c.want, c.wantErr)
		}
	}
}

// TestStepLayout_Plane: --distribution=plane's task counts, each case as the reference
// (Slurm 22.05) laid it out inside an allocation of those CPUs per node.
func TestStepLayout_Plane(t *testing.T) {
	greedy := []uint32{13, 1, 1, 1} // salloc -N4 -n16
	cases := []struct {
		name                     string
		cpus                     []uint32
		tasks, nodes, cpt, plane uint32
		want                     []uint32
	}{
		{"-n4 plane=2", greedy, 4, 0, 1, 2, []uint32{1, 1, 1, 1}},
		{"-n6 plane=4", greedy, 6, 0, 1, 4, []uint32{3, 1, 1, 1}},
		{"-N2 -n6 plane=4", greedy, 6, 2, 1, 4, []uint32{5, 1}},
		{"-N3 -n7 plane=2", greedy, 7, 3, 1, 2, []uint32{5, 1, 1}},
		{"-n16 plane=5", greedy, 16, 0, 1, 5, []uint32{13, 1, 1, 1}},
		{"-n8 plane=2 on 7+1", []uint32{7, 1}, 8, 0, 1, 2, []uint32{7, 1}},
		{"-n8 plane=3 on 64+64", []uint32{64, 64}, 8, 0, 1, 3, []uint32{5, 3}},
		{"-n7 plane=2 -c4 on 64+64", []uint32{64, 64}, 7, 0, 4, 2, []uint32{4, 3}},
	}
	for _, c := range cases {
		got, err := stepLayout(c.cpus, c.tasks, c.nodes, 0, c.cpt, false, c.plane)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	if _, err := stepLayout(greedy, 20, 0, 0, 1, false, 3); err != errStepCPUs {
		t.Errorf("-n20 plane=3 on 16 CPUs: %v, want %v", err, errStepCPUs)
	}
}

func FuzzStepLayout(f *testing.F) {
	f.Add(uint32(4), uint32(4), uint32(3), uint32(0), uint32(0), uint32(1))
	f.Add(uint32(1), uint32(64), uint32(65), uint32(2), uint32(1), uint32(2))
	f.Fuzz(func(t *testing.T, c0, c1, tasks, nodes, tpn, cpt uint32) {
		cpus := []uint32{c0 % 1024, c1 % 1024}
		over := c0&1<<31 != 0    // -O, from a bit the CPU counts do not use
		plane := (tpn >> 16) % 5 // 0 (block) or a plane size, from bits tpn%64 does not use
		got, err := stepLayout(cpus, tasks%4096, nodes%4, tpn%64, cpt%16, over, plane)
		if err != nil {
			return
		}
		var sum uint32
		for i, n := range got {
			if n == 0 {
				t.Fatalf("node %d got no task: %v", i, got)
			}
			sum += n
		}
		if tasks%4096 != 0 && sum != tasks%4096 {
			t.Fatalf("placed %d tasks, want %d", sum, tasks%4096)
		}
	})
}

// TestPlaceStep: where a step goes, and which CPUs it holds, given the CPUs the job's other
// steps hold (Slurm 22.05's step allocation: whole by default, --exact, --overlap).
func TestPlaceStep(t *testing.T) {
	nodes, cpus := []string{"n1", "n2"}, []uint32{4, 4}
	cases := []struct {
		name      string
		used      map[string]uint32
		r         stepRequest
		wantNodes []string
		wantCPUs  []uint32
		wantErr   error
	}{
		{"idle job, default step holds the whole node", nil, stepRequest{numTasks: 1, cpt: 1}, []string{"n1"}, []uint32{4}, nil},
		{"--exact holds its tasks' CPUs", nil, stepRequest{numTasks: 3, cpt: 1, exact: true}, []string{"n1", "n2"}, []uint32{2, 1}, nil},
		{"-c2 --exact", nil, stepRequest{numTasks: 1, cpt: 2, exact: true}, []string{"n1"}, []uint32{2}, nil},
		{"n1 busy: the step moves to n2", map[string]uint32{"n1": 4}, stepRequest{numTasks: 1, cpt: 1}, []string{"n2"}, []uint32{4}, nil},
		{"default step takes what is left", map[string]uint32{"n1": 1}, stepRequest{numTasks: 1, cpt: 1}, []string{"n1"}, []uint32{3}, nil},
		{"every node busy", map[string]uint32{"n1": 4, "n2": 4}, stepRequest{numTasks: 1, cpt: 1}, nil, nil, errStepBusy},
		{"room, but not on enough nodes", map[string]uint32{"n1": 4}, stepRequest{minNodes: 2, cpt: 1}, nil, nil, errStepBusy},
		{"--overlap ignores what others hold", map[string]uint32{"n1": 4, "n2": 4}, stepRequest{numTasks: 1, cpt: 1, overlap: true}, []string{"n1"}, []uint32{4}, nil},
		{"more than the job has is refused, busy or not", map[string]uint32{"n1": 4}, stepRequest{numTasks: 9, cpt: 1}, nil, nil, errStepCPUs},
		// -O: tasks share CPUs; the step spreads over the nodes (tasks 5 and 4) and holds them whole.
		{"-O: more tasks than CPUs", nil, stepRequest{numTasks: 9, cpt: 1, overcommit: true}, []string{"n1", "n2"}, []uint32{4, 4}, nil},
		{"-O on a single node", nil, stepRequest{numTasks: 9, minNodes: 1, cpt: 1, overcommit: true}, []string{"n1"}, []uint32{4}, nil},
		{"-O -c more than a node has", map[string]uint32{"n1": 3}, stepRequest{numTasks: 3, minNodes: 2, cpt: 8, overcommit: true}, []string{"n1", "n2"}, []uint32{1, 4}, nil},
		{"-O with --exact is not overcommitted", nil, stepRequest{numTasks: 9, cpt: 1, overcommit: true, exact: true}, nil, nil, errStepCPUs},
		{"-O still waits for busy CPUs", map[string]uint32{"n1": 4, "n2": 4}, stepRequest{numTasks: 9, cpt: 1, overcommit: true}, nil, nil, errStepBusy},
	}
	for _, c := range cases {
		a, err := placeStep(nodes, cpus, c.used, c.r)
		if err != c.wantErr || !slices.Equal(a.nodes, c.wantNodes) || !slices.Equal(a.cpus, c.wantCPUs) {
			t.Errorf("%s: nodes %v cpus %v err %v; want %v %v %v", c.name, a.nodes, a.cpus, err, c.wantNodes, c.wantCPUs, c.wantErr)
		}
		if err == nil && a.overlap != c.r.overlap {
			t.Errorf("%s: overlap %v", c.name, a.overlap)
		}
	}
}

// TestPlaceArbitrary: an arbitrary step runs each node's count of tasks whatever that
// node's CPUs, refused only on totals (the reference's answers for the same requests).
func TestPlaceArbitrary(t *testing.T) {
	nodes, cpus := []string{"n1", "n2", "n3"}, []uint32{10, 1, 1}
	a, err := placeArbitrary(nodes, cpus, nil, map[string]uint32{"n1": 1, "n2": 2, "n3": 1}, 12, stepRequest{cpt: 1})
	if err != nil || !slices.Equal(a.tasks, []uint32{1, 2, 1}) || !slices.Equal(a.cpus, cpus) {
		t.Errorf("1,2,1 on 10,1,1: %+v, %v", a, err)
	}
	if _, err := placeArbitrary(nodes[2:], cpus[2:], nil, map[string]uint32{"n3": 3}, 12, stepRequest{cpt: 1}); err == nil || err.Error() != errnoTexts[errnoNodeConfigUnavail] {
		t.Errorf("3 tasks on n3's one CPU: %v, want errno %d", err, errnoNodeConfigUnavail)
	}
	if _, err := placeArbitrary(nodes, cpus, nil, map[string]uint32{"n1": 2, "n2": 1, "n3": 1}, 3, stepRequest{cpt: 1}); err != errStepCPUs {
		t.Errorf("4 tasks in a 3-CPU job: %v, want %v", err, errStepCPUs)
	}
	used := map[string]uint32{"n1": 10}
	if _, err := placeArbitrary(nodes, cpus, used, map[string]uint32{"n1": 1, "n2": 1, "n3": 1}, 12, stepRequest{cpt: 1}); err != errStepBusy {
		t.Errorf("with n1 held by another step: %v, want %v", err, errStepBusy)
	}
	a, err = placeArbitrary(nodes[:1], cpus[:1], nil, map[string]uint32{"n1": 2}, 12, stepRequest{cpt: 2, exact: true})
	if err != nil || a.cpus[0] != 4 {
		t.Errorf("--exact -c2, 2 tasks: %+v, %v; want 4 CPUs held", a, err)
	}
}

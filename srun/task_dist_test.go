package main

import (
	"fmt"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

func TestTaskRanks(t *testing.T) {
	for _, tc := range []struct {
		tasks []uint32
		dist  string
		want  string
	}{
		{[]uint32{2, 2}, "", "[[0 1] [2 3]]"},
		{[]uint32{2, 2}, "block:cyclic", "[[0 1] [2 3]]"},
		{[]uint32{2, 2}, "*:block", "[[0 1] [2 3]]"},
		{[]uint32{2, 2}, "cyclic", "[[0 2] [1 3]]"},
		{[]uint32{3, 2}, "cyclic:block", "[[0 2 4] [1 3]]"},
		{[]uint32{1, 3, 2}, "cyclic,pack", "[[0] [1 3 5] [2 4]]"},
		{[]uint32{4}, "cyclic", "[[0 1 2 3]]"},
	} {
		if got := fmt.Sprint(taskRanks(tc.tasks, tc.dist, 0)); got != tc.want {
			t.Errorf("taskRanks(%v, %q) = %s, want %s", tc.tasks, tc.dist, got, tc.want)
		}
	}
	// plane=N: blocks of N ranks node by node (the reference's layouts of TestStepLayout_Plane).
	for _, tc := range []struct {
		tasks []uint32
		plane uint32
		want  string
	}{
		{[]uint32{7, 1}, 2, "[[0 1 3 4 5 6 7] [2]]"},
		{[]uint32{5, 1, 1}, 2, "[[0 1 4 5 6] [2] [3]]"},
		{[]uint32{13, 1, 1, 1}, 5, "[[0 1 2 3 4 8 9 10 11 12 13 14 15] [5] [6] [7]]"},
		{[]uint32{5, 3}, 3, "[[0 1 2 6 7] [3 4 5]]"},
		{[]uint32{4, 3}, 2, "[[0 1 4 5] [2 3 6]]"},
	} {
		if got := fmt.Sprint(taskRanks(tc.tasks, "plane", tc.plane)); got != tc.want {
			t.Errorf("taskRanks(%v, plane=%d) = %s, want %s", tc.tasks, tc.plane, got, tc.want)
		}
	}
	for dist, want := range map[string]string{"": "block", "*": "block", "block:block": "block", "cyclic:fcyclic": "cyclic",
		"plane=4": "plane", "arbitrary": "arbitrary", "cyclic,nopack": "cyclic", "pack": "block"} {
		if got := nodeDistribution(dist); got != want {
			t.Errorf("nodeDistribution(%q) = %q, want %q", dist, got, want)
		}
	}
}

// TestTrimNodeList: fewer tasks than listed nodes keeps the first nodes in sorted order,
// each once, as the reference did with `SLURM_HOSTFILE` naming n1,n2,n3 and -n2; an
// arbitrary layout's tasks then go one to each.
func TestTrimNodeList(t *testing.T) {
	js := &jobspec.JobSpec{NodeList: "n3,n1,n2,n1", TaskNodes: []string{"n3", "n1", "n2", "n1"}}
	o := &options{ntasks: 2}
	trimNodeList(o, js)
	if js.NodeList != "n[1-2]" || o.nodelist != "n[1-2]" || fmt.Sprint(js.TaskNodes) != "[n1 n2]" {
		t.Errorf("trimmed to %q %q %v", js.NodeList, o.nodelist, js.TaskNodes)
	}
	js = &jobspec.JobSpec{NodeList: "n[1-2]"}
	o = &options{ntasks: 2, nodelist: "n[1-2]"}
	if trimNodeList(o, js); js.NodeList != "n[1-2]" || js.TaskNodes != nil {
		t.Errorf("a list no longer than the tasks changed: %q %v", js.NodeList, js.TaskNodes)
	}
}

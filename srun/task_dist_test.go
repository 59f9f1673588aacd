package main

import (
	"fmt"
	"testing"
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
		if got := fmt.Sprint(taskRanks(tc.tasks, tc.dist)); got != tc.want {
			t.Errorf("taskRanks(%v, %q) = %s, want %s", tc.tasks, tc.dist, got, tc.want)
		}
	}
	for dist, want := range map[string]string{"": "block", "*": "block", "block:block": "block", "cyclic:fcyclic": "cyclic",
		"plane=4": "plane", "arbitrary": "arbitrary", "cyclic,nopack": "cyclic", "pack": "block"} {
		if got := nodeDistribution(dist); got != want {
			t.Errorf("nodeDistribution(%q) = %q, want %q", dist, got, want)
		}
	}
}

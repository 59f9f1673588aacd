package main

import (
	"slices"
	"testing"
)

func TestTasksPerNode(t *testing.T) {
	for _, tc := range []struct {
		cpus        []uint32
		cpt, ntasks uint32
		want        []uint32
	}{
		{[]uint32{4, 4}, 1, 0, []uint32{4, 4}},
		{[]uint32{4, 4}, 2, 0, []uint32{2, 2}},
		{[]uint32{4, 4}, 1, 3, []uint32{2, 1}},
		{[]uint32{4, 4}, 1, 5, []uint32{4, 1}},
		{[]uint32{1, 1}, 1, 3, []uint32{2, 1}}, // overcommitted
	} {
		if got := tasksPerNode(tc.cpus, tc.cpt, tc.ntasks); !slices.Equal(got, tc.want) {
			t.Errorf("tasksPerNode(%v, %d, %d) = %v, want %v", tc.cpus, tc.cpt, tc.ntasks, got, tc.want)
		}
	}
}

func TestLookCommand(t *testing.T) {
	if _, err := lookCommand("/nonexistent/cmd", "/"); err == nil {
		t.Error("a missing command was found")
	}
	if p, err := lookCommand("sh", "/"); err != nil || p == "" {
		t.Errorf("sh: %q %v", p, err)
	}
}

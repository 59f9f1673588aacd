package ctld

import (
	"slices"
	"testing"
)

// TestShrinkJob: a shrink keeps the batch host and then the allocation's first nodes, with
// their CPUs, and records when; growing is not supported and no node is no count.
func TestShrinkJob(t *testing.T) {
	job := func() *jobRecord {
		j := pendingJob(1)
		j.Nodes, j.CPUsPerNode, j.BatchNode = []string{"n1", "n2", "n3"}, []uint32{1, 2, 3}, "n3"
		return j
	}
	for _, tc := range []struct {
		nodes uint32
		want  []string
		cpus  []uint32
		errno int32
	}{
		{1, []string{"n3"}, []uint32{3}, 0},
		{2, []string{"n1", "n3"}, []uint32{1, 3}, 0},
		{3, []string{"n1", "n2", "n3"}, []uint32{1, 2, 3}, 0},
		{4, nil, nil, errnoNotSupported},
		{0, nil, nil, errnoInvalidNodeCount},
	} {
		j := job()
		errno := shrinkJob(j, tc.nodes, 77)
		if errno != tc.errno || errno == 0 && (!slices.Equal(j.Nodes, tc.want) || !slices.Equal(j.CPUsPerNode, tc.cpus)) {
			t.Errorf("shrink to %d: errno %d, nodes %v cpus %v; want %d, %v %v", tc.nodes, errno, j.Nodes, j.CPUsPerNode, tc.errno, tc.want, tc.cpus)
		}
		if errno == 0 && int(tc.nodes) < 3 && (j.ResizeTime != 77 || j.MinNodes != tc.nodes || j.MaxNodes != tc.nodes) {
			t.Errorf("shrink to %d: ResizeTime %d, nodes %d-%d", tc.nodes, j.ResizeTime, j.MinNodes, j.MaxNodes)
		}
	}
}

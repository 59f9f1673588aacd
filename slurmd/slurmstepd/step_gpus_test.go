package main

import (
	"slices"
	"testing"
)

// TestTaskGPUs: with --gpus-per-task each local task sees its own run of the node's GPUs, as
// the reference bound them (task 0 "0", task 1 "1" of "0,1"); without it nothing changes.
func TestTaskGPUs(t *testing.T) {
	env := []string{"PATH=/bin", "CUDA_VISIBLE_DEVICES=0,1,2,3", "SLURM_STEP_GPUS=0,1,2,3", "GPU_DEVICE_ORDINAL=0,1,2,3"}
	for _, tc := range []struct {
		perTask uint32
		task    int
		want    []string
	}{
		{0, 1, nil},
		{1, 1, []string{"CUDA_VISIBLE_DEVICES=1", "GPU_DEVICE_ORDINAL=1", "SLURM_STEP_GPUS=1"}},
		{2, 1, []string{"CUDA_VISIBLE_DEVICES=2,3", "GPU_DEVICE_ORDINAL=2,3", "SLURM_STEP_GPUS=2,3"}},
		{2, 2, nil}, // more tasks than GPUs: left as the node's
	} {
		if got := taskGPUs(env, tc.perTask, tc.task); !slices.Equal(got, tc.want) {
			t.Errorf("%d per task, task %d: %q, want %q", tc.perTask, tc.task, got, tc.want)
		}
	}
}

package main

import (
	"bytes"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	compatopts "github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestVerbose_Report: with -v each group of task ends is preceded by Slurm's exit
// notification, clean ends say Completed and a signal after srun gave the step up is a
// verbose line, not an error (lines as the reference's srun -v prints them); without -v only
// the errors are printed.
func TestVerbose_Report(t *testing.T) {
	step := &wire.StepCreateReply{JobID: 7, StepID: 0}
	ends := []taskEnd{
		{rank: 0, node: "n1", status: 0},
		{rank: 1, node: "n1", status: 0},
		{rank: 2, node: "n2", status: 1 << 8},
		{rank: 3, node: "n2", status: 9}, // SIGKILL
	}
	for _, tc := range []struct {
		verbose   int
		cancelled bool
		want      string
	}{
		{0, false, "srun: error: n2: task 2: Exited with exit code 1\nsrun: error: n2: task 3: Killed\n"},
		{0, true, "srun: error: n2: task 2: Exited with exit code 1\n"},
		{1, false, "srun: launch/slurm: _task_finish: Received task exit notification for 2 tasks of StepId=7.0 (status=0x0000).\n" +
			"srun: launch/slurm: _task_finish: n1: tasks 0-1: Completed\n" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 1 task of StepId=7.0 (status=0x0100).\n" +
			"srun: error: n2: task 2: Exited with exit code 1\n" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 1 task of StepId=7.0 (status=0x0009).\n" +
			"srun: error: n2: task 3: Killed\n"},
		{1, true, "srun: launch/slurm: _task_finish: Received task exit notification for 2 tasks of StepId=7.0 (status=0x0000).\n" +
			"srun: launch/slurm: _task_finish: n1: tasks 0-1: Completed\n" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 1 task of StepId=7.0 (status=0x0100).\n" +
			"srun: error: n2: task 2: Exited with exit code 1\n" +
			"srun: launch/slurm: _task_finish: Received task exit notification for 1 task of StepId=7.0 (status=0x0009).\n" +
			"srun: launch/slurm: _task_finish: n2: task 3: Killed\n"},
	} {
		var errOut bytes.Buffer
		s := &session{stderr: &errOut, opts: &options{spec: &jobspec.JobSpec{Verbose: tc.verbose}}}
		code, _ := s.report(step, ends, map[uint32]bool{}, tc.cancelled)
		if errOut.String() != tc.want || code != 137 {
			t.Errorf("-v %d, cancelled %v: exit %d, stderr\n%s\nwant\n%s", tc.verbose, tc.cancelled, code, errOut.String(), tc.want)
		}
	}
}

// TestVerbose_Forms: the allocation's CPU counts, a node's task list and the binding type
// in the forms of the reference's srun -v.
func TestVerbose_Forms(t *testing.T) {
	if got := cpuCounts([]uint32{64, 64, 32, 64}); got != "64(x2),32(x1),64(x1)" {
		t.Errorf("cpuCounts = %q", got)
	}
	for _, tc := range []struct {
		ranks []uint32
		want  string
	}{{[]uint32{0}, "0"}, {[]uint32{0, 1, 2}, "[0-2]"}, {[]uint32{0, 2, 3}, "[0,2-3]"}} {
		if got := taskList(tc.ranks); got != tc.want {
			t.Errorf("taskList(%v) = %q, want %q", tc.ranks, got, tc.want)
		}
	}
	for _, tc := range []struct {
		b    *compatopts.CPUBind
		want string
	}{
		{nil, "(null type)"},
		{&compatopts.CPUBind{}, "(null type)"},
		{&compatopts.CPUBind{To: "cores"}, "cores"},
		{&compatopts.CPUBind{Verbose: true, Type: "map_cpu:", List: "0,1"}, "verbose,map_cpu"},
		{&compatopts.CPUBind{To: "threads", Type: "map_ldom:", List: "0"}, "threads,map_ldom"},
	} {
		if got := cpuBindTypeText(tc.b); got != tc.want {
			t.Errorf("cpuBindTypeText(%+v) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

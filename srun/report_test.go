package main

import (
	"bytes"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestReport_OutOfMemory: tasks a node reports with Slurm's SIG_OOM status are printed once
// as "Out Of Memory" (launch/slurm's oom_printed), srun exits 1 whatever else failed, and
// the step's status for the controller is SIG_OOM.
func TestReport_OutOfMemory(t *testing.T) {
	var errOut bytes.Buffer
	s := &session{stderr: &errOut}
	ends := []taskEnd{
		{rank: 0, node: "n1", status: sigOOM},
		{rank: 1, node: "n1", status: sigOOM},
		{rank: 2, node: "n2", status: sigOOM},
		{rank: 3, node: "n2", status: 3 << 8},
	}
	code, signalled := s.report(&wire.StepCreateReply{}, ends, map[uint32]bool{}, false)
	want := "srun: error: n1: tasks 0-1: Out Of Memory\nsrun: error: n2: task 3: Exited with exit code 3\n"
	if errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
	if code != 1 || signalled {
		t.Errorf("report = %d, %v; want 1, false", code, signalled)
	}
	if st := stepStatus(ends, code); st != sigOOM {
		t.Errorf("stepStatus = %d, want %d", st, sigOOM)
	}
	if st := stepStatus(ends[3:], 3); st != 3<<8 {
		t.Errorf("stepStatus without OOM = %#x, want %#x", st, 3<<8)
	}
	if got := endText(ends[0]); got != "Out Of Memory" {
		t.Errorf("endText = %q", got)
	}
}

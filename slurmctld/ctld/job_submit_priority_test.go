package ctld_test

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestSubmit_OperatorPriority: sbatch --priority=N sets an operator's job's priority to N, as
// in Slurm 22.05; a non-operator's --priority is ignored without a word, a held job stays at
// 0, and the priority an operator set does not lower the next jobs' priority/basic value
// (Slurm's lowest_prio skips directly set priorities).
func TestSubmit_OperatorPriority(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 1})
	later := func(prio uint32, hold bool) *wire.JobDesc {
		d := script("true")
		d.BeginTime, d.Priority, d.Hold = time.Now().Add(time.Hour).Unix(), prio, hold
		return d
	}
	first := f.mustSubmit(later(wire.NoVal, false))
	base := f.job(first).Priority
	set := f.mustSubmit(later(5, false))
	if p := f.job(set).Priority; p != 5 {
		t.Errorf("root's --priority=5: Priority=%d, want 5", p)
	}
	user, err := f.submit(1000, later(5, false))
	if err != nil {
		t.Fatalf("a user's --priority=5 submit: %v", err)
	}
	if p := f.job(user).Priority; p != base-1 {
		t.Errorf("a user's --priority=5: Priority=%d, want the next computed value %d", p, base-1)
	}
	held := f.mustSubmit(later(5, true))
	if p := f.job(held).Priority; p != 0 {
		t.Errorf("-H --priority=5: Priority=%d, want 0 (held)", p)
	}
	if next := f.mustSubmit(later(wire.NoVal, false)); f.job(next).Priority != base-2 {
		t.Errorf("the job after: Priority=%d, want %d", f.job(next).Priority, base-2)
	}
}

package backfill

import (
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// reasonOf is the pending reason the plan gives job id ("" when none).
func reasonOf(p scheduler.Plan, id uint32) string {
	for _, r := range p.Reasons {
		if r.JobID == id {
			return states.Reason(r.Reason).String()
		}
	}
	return ""
}

// TestBackfill_ReferenceScenario replays, one plan at a time, the scenario recorded on Slurm
// 22.05 in testsuite/schedcompare (1 node, 64 CPUs): A (48 CPUs, 5 min) runs; B (56, 10 min)
// waits for Resources; C (8, 2 min) fits beside A and ends before B could start, so backfill
// starts it; D (16, 30 min) fits too but would hold B up, so it waits with reason Priority —
// also after C has ended — and gets Resources only once B runs. (testsuite/schedcompare
// checks the same end to end against the recording.)
func TestBackfill_ReferenceScenario(t *testing.T) {
	s := cluster(1, 64)
	a := running(1, []string{"n1"}, 48, t0-10, 5)
	b, c, d := job(2, 30, 1, 56, 10), job(3, 20, 1, 8, 2), job(4, 10, 1, 16, 30)
	s.Jobs = []scheduler.Job{a, b, c, d}
	p := schedule(t, s)
	if got := started(p, 3); got == nil || !got.Backfilled || len(p.Starts) != 1 {
		t.Fatalf("first plan should backfill C only: %+v", p.Starts)
	}
	if reasonOf(p, 2) != "Resources" || reasonOf(p, 4) != "Priority" {
		t.Errorf("reasons B %q D %q, want Resources, Priority", reasonOf(p, 2), reasonOf(p, 4))
	}
	// C has ended: D alone fits now for 30 minutes, which would delay B.
	s.Jobs = []scheduler.Job{a, b, d}
	p = schedule(t, s)
	if len(p.Starts) != 0 || reasonOf(p, 2) != "Resources" || reasonOf(p, 4) != "Priority" {
		t.Errorf("after C: starts %+v, reasons B %q D %q; want none, Resources, Priority", p.Starts, reasonOf(p, 2), reasonOf(p, 4))
	}
	// A has ended: B starts; D, first in line now, waits for Resources.
	s.Jobs = []scheduler.Job{b, d}
	p = schedule(t, s)
	if !slices.ContainsFunc(p.Starts, func(st scheduler.Start) bool { return st.JobID == 2 }) || len(p.Starts) != 1 || reasonOf(p, 4) != "Resources" {
		t.Errorf("after A: starts %+v, D %q; want B started, D Resources", p.Starts, reasonOf(p, 4))
	}
}

package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestSchedEval_MainAndBackfillStamps: a backfill pass marks the jobs it looked at until an
// event-driven (or sched_interval) main pass stamps every runnable pending job again; timer
// cycles in between change nothing; held jobs keep their submit time.
func TestSchedEval_MainAndBackfillStamps(t *testing.T) {
	var e schedEval
	pend := &jobRecord{}
	pend.JobID, pend.SubmitTime, pend.Reason = 7, 100, uint32(states.WaitResources)
	held := &jobRecord{}
	held.JobID, held.SubmitTime, held.Reason = 8, 100, uint32(states.WaitHeldUser)
	bf := scheduler.Plan{Stats: scheduler.CycleStats{Backfill: true}, BackfillEvaluated: []uint32{7, 8}}
	type want struct {
		at int64
		bf bool
	}
	for _, step := range []struct {
		what          string
		plan          scheduler.Plan
		now           int64
		woken         bool
		pend, heldJob want
	}{
		{"the submit's main pass", scheduler.Plan{}, 100, true, want{100, false}, want{100, false}},
		{"a backfill pass", bf, 130, false, want{130, true}, want{100, false}},
		{"a timer cycle", scheduler.Plan{}, 135, false, want{130, true}, want{100, false}},
		{"an event's main pass", scheduler.Plan{}, 140, true, want{140, false}, want{100, false}},
		{"sched_interval later", scheduler.Plan{}, 200, false, want{200, false}, want{100, false}},
	} {
		e.note(step.plan, step.now, step.woken, 60)
		if at, b := e.pending(pend); (want{at, b}) != step.pend {
			t.Errorf("%s: pending job (%d, %v), want %+v", step.what, at, b, step.pend)
		}
		if at, b := e.pending(held); (want{at, b}) != step.heldJob {
			t.Errorf("%s: held job (%d, %v), want %+v", step.what, at, b, step.heldJob)
		}
	}
}

package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// RequeueExit requeues a batch job ending with one of its codes (even one submitted with
// --no-requeue), to wait out the requeue delay; RequeueExitHold requeues it held, in state
// SPECIAL_EXIT, until released; any other code ends the job. As on Slurm 22.05.
func TestRequeueExit(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Extra: "RequeueExit=42,50-52\nRequeueExitHold=43\n"})
	f.startNodes("n1", "n2")
	requeued := f.mustSubmit(script("exit 42"))
	noRequeue := script("exit 51")
	noRequeue.Requeue = 0
	ranged := f.mustSubmit(noRequeue)
	held := f.mustSubmit(script("exit 43"))
	failed := f.mustSubmit(script("exit 44"))

	f.waitState(failed, states.JobFailed)
	for _, id := range []uint32{requeued, ranged} {
		f.waitFor("requeue", func() bool { return f.job(id).Restarts == 1 })
		j := f.job(id)
		if s := states.JobState(j.State); s != states.JobPending || states.Reason(j.Reason) != states.WaitTime ||
			j.ExitCode>>8 == 0 || j.EligibleTime < j.SubmitTime+120 || j.NodeList != "" {
			t.Errorf("job %d after its RequeueExit code: %s %s exit %d eligible +%d nodes %q", id, s, states.Reason(j.Reason),
				j.ExitCode>>8, j.EligibleTime-j.SubmitTime, j.NodeList)
		}
	}
	f.waitFor("requeue held", func() bool { return f.job(held).Restarts == 1 })
	j := f.job(held)
	if s := states.JobState(j.State); s != states.JobPending|states.JobSpecialExit || s.String() != "SPECIAL_EXIT" ||
		states.Reason(j.Reason) != states.WaitHeldUser || j.Priority != 0 || j.ExitCode>>8 != 43 {
		t.Errorf("job after its RequeueExitHold code: %s %s priority %d exit %d", s, states.Reason(j.Reason), j.Priority, j.ExitCode>>8)
	}
	if rep := f.update(0, held, wire.NoVal, wire.JobActionRelease); rep.Errno != 0 {
		t.Fatalf("release: %s", rep.Text)
	}
	if s := states.JobState(f.job(held).State); s != states.JobPending {
		t.Errorf("released SPECIAL_EXIT job: %s, want PENDING", s)
	}
}

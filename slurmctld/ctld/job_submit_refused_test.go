package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestSubmit_TooMuchMemoryRecordedFailed: a batch job or an allocation asking more memory
// than any node has is refused with Slurm's error (an allocation's in its reply, with the
// job's id), and yet recorded as Slurm 22.05 records
// it: a job of its own id, FAILED with reason BadConstraints and ExitCode 0:1, started and
// ended at submit. The next job gets the next id.
func TestSubmit_TooMuchMemoryRecordedFailed(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4, RealMemory: 1000})
	first := f.mustSubmit(script("true"))
	big := script("true")
	big.MemPerNode = 2000
	if _, err := f.submit(0, big); err == nil {
		t.Fatal("a batch job over every node's memory was accepted")
	}
	alloc := *script("true")
	alloc.MemPerNode = 2000
	var rep wire.AllocateJobReply
	// The allocation's refusal names the job it recorded (salloc says it was revoked).
	err := f.call(0, wire.MsgAllocateJob, &wire.AllocateJobDesc{Job: alloc}, &rep)
	if err != nil || rep.Refused.UserMsg != "Memory specification can not be satisfied" || rep.JobID != first+2 {
		t.Fatalf("allocation over every node's memory: %v, reply %+v; want Slurm's refusal naming job %d", err, rep, first+2)
	}
	next := f.mustSubmit(script("true"))
	if next != first+3 {
		t.Errorf("job ids %d then %d: the two refusals should have used up %d and %d", first, next, first+1, first+2)
	}
	for _, id := range []uint32{first + 1, first + 2} {
		j := f.job(id)
		if states.JobState(j.State) != states.JobFailed || states.Reason(j.Reason) != states.FailBadConstraints ||
			j.ExitCode != 1 || j.StartTime == 0 || j.StartTime != j.EndTime || j.NodeList != "" || j.AccrueTime != 0 {
			t.Errorf("job %d: state %s reason %s exit %d start %d end %d nodes %q; want FAILED BadConstraints, 0:1, started and ended at submit on no node, AccrueTime Unknown",
				id, states.JobState(j.State), states.Reason(j.Reason), j.ExitCode, j.StartTime, j.EndTime, j.NodeList)
		}
	}
}

// TestSubmit_HeldUnrunnableParkedOnRelease: Slurm tests memory, --tmp and CPUs per node
// against the nodes while placing a job, which it does not try for a held one: a held job
// asking what no node has is accepted, and once released its scheduler parks it, pending
// with reason BadConstraints, priority 0 and its start time set.
func TestSubmit_HeldUnrunnableParkedOnRelease(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4, RealMemory: 1000})
	mem, tmp, cpus := script("true"), script("true"), script("true")
	mem.MemPerNode, tmp.TmpDiskMB, cpus.MinCPUs = 2000, 10, 8
	for name, d := range map[string]*wire.JobDesc{"--mem": mem, "--tmp": tmp, "--mincpus": cpus} {
		if _, err := f.submit(0, d); err == nil {
			t.Errorf("%s no node has: accepted, want refused", name)
		}
		d.Hold = true
		id, err := f.submit(0, d)
		if err != nil {
			t.Fatalf("held job with %s no node has: %v, want accepted", name, err)
		}
		if j := f.job(id); states.JobState(j.State) != states.JobPending || states.Reason(j.Reason) != states.WaitHeldUser {
			t.Errorf("held job %d with %s: %s %s, want PENDING JobHeldUser", id, name, states.JobState(j.State), states.Reason(j.Reason))
		}
		f.update(0, id, wire.NoVal, wire.JobActionRelease)
		j := f.waitReason(id, states.FailBadConstraints)
		if states.JobState(j.State) != states.JobPending || j.Priority != 0 || j.StartTime == 0 {
			t.Errorf("released job %d with %s: %s priority %d start %d, want PENDING, priority 0, a start time",
				id, name, states.JobState(j.State), j.Priority, j.StartTime)
		}
		// An operator's hold shows as the hold, not as the parking.
		f.update(0, id, wire.NoVal, wire.JobActionHold)
		f.waitReason(id, states.WaitHeld)
		// Released, it is judged again, and parked again.
		if rep := f.update(0, id, wire.NoVal, wire.JobActionRelease); rep.Errno != 0 {
			t.Errorf("second release of job %d: %d %s, want done", id, rep.Errno, rep.Text)
		}
		f.waitFor("parked again", func() bool {
			j := f.job(id)
			return states.Reason(j.Reason) == states.FailBadConstraints && j.Priority == 0
		})
	}
}

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

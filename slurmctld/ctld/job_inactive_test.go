package ctld_test

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// InactiveLimit ends an interactive allocation whose srun or salloc the controller has not
// heard from for that long, TIMEOUT with reason InactiveLimit; one whose client keeps asking
// about it runs on, and a batch job is never affected.
func TestInactiveLimit(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 3, CPUs: 4, Now: clk.now, Extra: "InactiveLimit=60\n"})
	f.startNodes("n1", "n2", "n3")
	const uid = 1234
	allocate := func() uint32 {
		t.Helper()
		var rep wire.AllocateJobReply
		if err := f.call(uid, wire.MsgAllocateJob, allocDesc(), &rep); err != nil {
			t.Fatal(err)
		}
		f.waitState(rep.JobID, states.JobRunning)
		return rep.JobID
	}
	silent, talking := allocate(), allocate()
	batch := f.mustSubmit(script("sleep 1000"))
	f.waitState(batch, states.JobRunning)
	time.Sleep(1500 * time.Millisecond) // a limits tick sees both allocations running
	for range 4 {
		clk.advance(20 * time.Second)
		f.allocInfo(uid, talking)
		time.Sleep(1100 * time.Millisecond) // a limits tick at each step

	}
	j := f.waitState(silent, states.JobTimeout)
	if states.Reason(j.Reason) != states.FailInactiveLimit {
		t.Errorf("silent allocation ended with reason %s, want InactiveLimit", states.Reason(j.Reason))
	}
	if s := states.JobState(f.job(talking).State); !s.IsRunning() {
		t.Errorf("allocation whose srun kept asking: %s, want RUNNING", s)
	}
	if s := states.JobState(f.job(batch).State); !s.IsRunning() {
		t.Errorf("batch job: %s, want RUNNING", s)
	}
}

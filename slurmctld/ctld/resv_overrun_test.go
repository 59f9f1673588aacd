package ctld_test

import (
	"slices"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestResv_JobOutlivesWindow: a job running in a reservation when its window ends is timed
// out ResvOverRun minutes later (TIMEOUT, TimeLimit, status 0:15 as on the reference), and
// the reservation stays listed until it ends; a job in a FLEX reservation runs on.
func TestResv_JobOutlivesWindow(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 2, Now: clk.now, Extra: "ResvOverRun=1\n"})
	node := f.startNodes("n1", "n2")
	now := clk.now().Unix()
	for _, r := range []struct {
		name, node string
		flags      uint64
	}{{"short", "n1", wire.NoVal64}, {"flex", "n2", wire.ResvFlex}} {
		d := resvDesc(r.name)
		d.StartTime, d.Duration, d.NodeList, d.Users, d.Flags = now, 1, r.node, "root", r.flags
		if _, err := f.createResv(d); err != nil {
			t.Fatalf("create %s: %v", r.name, err)
		}
	}
	var ids []uint32
	for _, name := range []string{"short", "flex"} {
		d := script("sleep 1000")
		d.Reservation = name
		id := f.mustSubmit(d)
		f.waitState(id, states.JobRunning)
		ids = append(ids, id)
	}
	clk.advance(61 * time.Second) // the windows are over; ResvOverRun has not passed
	time.Sleep(1500 * time.Millisecond)
	if got := f.job(ids[0]); !states.JobState(got.State).IsRunning() {
		t.Fatalf("job ended within ResvOverRun: %s", states.JobState(got.State))
	}
	if n := len(f.resvs()); n != 2 {
		t.Errorf("%d reservations listed while their jobs run, want 2", n)
	}
	clk.advance(60 * time.Second)
	j := f.waitState(ids[0], states.JobTimeout)
	if states.Reason(j.Reason) != states.FailTimeout || j.ExitCode != 15 {
		t.Errorf("job past its reservation: reason %s exit %#x, want TimeLimit 0:15", states.Reason(j.Reason), j.ExitCode)
	}
	// The terminate says why, for the batch script's error file ("*** REASON: ... ***").
	node.mu.Lock()
	details := slices.Clone(node.details)
	node.mu.Unlock()
	if want := "Reservation short, which this job was running under, has ended"; !slices.Contains(details, want) {
		t.Errorf("terminate details %q, want %q", details, want)
	}
	f.waitFor("the ended reservation to go", func() bool {
		for _, r := range f.resvs() {
			if r.Name == "short" {
				return false
			}
		}
		return true
	})
	if got := f.job(ids[1]); !states.JobState(got.State).IsRunning() {
		t.Errorf("the job of the FLEX reservation: %s, want RUNNING", states.JobState(got.State))
	}
}

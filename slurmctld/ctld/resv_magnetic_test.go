package ctld_test

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestResv_Magnetic: a magnetic reservation draws the jobs it admits that name no
// reservation, ahead of free nodes outside it, and they run in it (Reservation= shows it);
// a job it does not admit, or one it has no room for, runs outside; a reservation without
// the flag draws nothing. Matched on the reference: a -N1 job ran on the reservation's n2
// although n1 was free.
func TestResv_Magnetic(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 2})
	f.startNodes("n1", "n2", "n3", "n4")
	d := resvDesc("mag")
	d.StartTime, d.Duration, d.NodeList, d.Users, d.Flags = time.Now().Unix(), 60, "n3", "root", wire.ResvMagnetic
	if _, err := f.createResv(d); err != nil {
		t.Fatal(err)
	}
	if r := f.resvs(); len(r) != 1 || r[0].Flags&wire.ResvMagnetic == 0 {
		t.Fatalf("reservation flags %+v, want MAGNETIC", r)
	}
	two := script("sleep 1000")
	two.NumTasks = 2 // all of a node
	drawn := f.waitState(f.mustSubmit(two), states.JobRunning)
	if drawn.NodeList != "n3" || drawn.Reservation != "mag" {
		t.Errorf("root's job runs on %s in reservation %q, want n3 in mag", drawn.NodeList, drawn.Reservation)
	}
	full := f.waitState(f.mustSubmit(two), states.JobRunning)
	if full.NodeList != "n4" || full.Reservation != "" { // the tightest run that holds it
		t.Errorf("with mag full, root's job runs on %s in reservation %q, want n4 in none", full.NodeList, full.Reservation)
	}
	id, err := f.submit(nobodyUID, script("sleep 1000"))
	if err != nil {
		t.Fatal(err)
	}
	if other := f.waitState(id, states.JobRunning); other.NodeList != "n1" || other.Reservation != "" {
		t.Errorf("a job mag does not admit runs on %s in reservation %q, want n1 in none", other.NodeList, other.Reservation)
	}

	plain := resvDesc("plain")
	plain.StartTime, plain.Duration, plain.NodeList, plain.Users = time.Now().Unix(), 60, "n2", "root"
	if _, err := f.createResv(plain); err != nil {
		t.Fatal(err)
	}
	late := f.mustSubmit(two) // only n2, reserved, has two free CPUs
	time.Sleep(300 * time.Millisecond)
	if got := f.job(late); !states.JobState(got.State).IsPending() {
		t.Errorf("a reservation without MAGNETIC drew a job: it runs on %s in %q", got.NodeList, got.Reservation)
	}
}

// TestResv_MagneticRequeue: a job drawn into a magnetic reservation names no reservation
// again once requeued (Slurm clears JOB_MAGNETIC with the reservation it was given), so it
// may start outside; one that named the reservation keeps it.
func TestResv_MagneticRequeue(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 2})
	f.startNodes("n1", "n2")
	d := resvDesc("mag")
	d.StartTime, d.Duration, d.NodeList, d.Users, d.Flags = time.Now().Unix(), 60, "n2", "root", wire.ResvMagnetic
	if _, err := f.createResv(d); err != nil {
		t.Fatal(err)
	}
	drawn := f.mustSubmit(script("sleep 1000"))
	named := script("sleep 1000")
	named.Reservation = "mag"
	own := f.mustSubmit(named)
	for _, id := range []uint32{drawn, own} {
		if j := f.waitState(id, states.JobRunning); j.Reservation != "mag" {
			t.Fatalf("job %d runs in %q, want mag", id, j.Reservation)
		}
		if rep := f.update(0, id, wire.NoVal, wire.JobActionRequeue); rep.Errno != 0 {
			t.Fatalf("requeue %d: %+v", id, rep)
		}
	}
	f.waitFor("both requeued", func() bool {
		return states.JobState(f.job(drawn).State).IsPending() && states.JobState(f.job(own).State).IsPending()
	})
	if got := f.job(drawn).Reservation; got != "" {
		t.Errorf("the drawn job after its requeue names %q, want none", got)
	}
	if got := f.job(own).Reservation; got != "mag" {
		t.Errorf("the job that named mag names %q after its requeue", got)
	}
}

package ctld_test

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestResv_Flex: a job in a FLEX reservation is bound neither to its nodes nor to its
// window, and takes its nodes first: on the reference, with fx holding n2 from now and fut
// holding n3 from ten minutes on, a -N2 job in fx ran on n[1-2], a -N1 job in fut ran on
// n3 at once, a -n1 job in fx on n2 although n1 was free. A job outside still keeps off
// reserved nodes.
func TestResv_Flex(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 2})
	f.startNodes("n1", "n2", "n3", "n4")
	now := time.Now().Unix()
	for _, r := range []struct {
		name, node string
		start      int64
	}{{"fx", "n2", now}, {"fut", "n3", now + 600}} {
		d := resvDesc(r.name)
		d.StartTime, d.Duration, d.NodeList, d.Users, d.Flags = r.start, 10, r.node, "root", wire.ResvFlex
		if _, err := f.createResv(d); err != nil {
			t.Fatalf("create %s: %v", r.name, err)
		}
	}
	job := func(resv string, nodes, tasks uint32) uint32 {
		d := script("sleep 1000")
		d.Reservation, d.MinNodes, d.NumTasks = resv, nodes, tasks
		return f.mustSubmit(d)
	}
	for _, c := range []struct {
		what, resv   string
		nodes, tasks uint32
		want         string
	}{
		{"-n1 in fx: its node first", "fx", 1, 1, "n2"},
		{"-N2 in fx: outside too", "fx", 2, 2, "n[1-2]"},
		{"-N1 in fut before its window", "fut", 1, 1, "n3"},
	} {
		if got := f.waitState(job(c.resv, c.nodes, c.tasks), states.JobRunning); got.NodeList != c.want || got.Reservation != c.resv {
			t.Errorf("%s: runs on %s in %q, want %s", c.what, got.NodeList, got.Reservation, c.want)
		}
	}
	// n4 is the only node left with two free CPUs; a -n2 job outside takes it, the next
	// waits: n2 and n3 are reserved.
	if got := f.waitState(job("", 1, 2), states.JobRunning); got.NodeList != "n4" {
		t.Errorf("a job outside runs on %s, want n4", got.NodeList)
	}
	late := job("", 1, 2)
	time.Sleep(300 * time.Millisecond)
	if got := f.job(late); !states.JobState(got.State).IsPending() {
		t.Errorf("a job outside the reservations started on %s", got.NodeList)
	}
}

package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestContiguous: --contiguous fills the gaps between the nodes a job names (the reference:
// -w n1,n3 --contiguous ran on n[1-3]; with -N2 it was refused "Node count specification
// invalid"), and a job naming none gets one run of consecutive nodes, the first that holds
// it: with n2 down, -N2 runs on n[3-4], and -N3 waits.
func TestContiguous(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 2})
	f.startNodes("n1", "n3", "n4") // n2 never registers
	d := script("sleep 1000")
	d.ReqNodes, d.Contiguous, d.MinNodes, d.MaxNodes = "n1,n3", true, 2, 2
	if _, err := f.submit(0, d); errnoOf(err) != 2006 {
		t.Errorf("-N2 -w n1,n3 --contiguous: %v, want 2006", err)
	}
	d.MinNodes, d.MaxNodes = 3, 0
	if id, err := f.submit(0, d); err != nil {
		t.Errorf("-w n1,n3 --contiguous: %v", err)
	} else {
		if got := f.job(id); got.NumNodes != 3 {
			t.Errorf("-w n1,n3 --contiguous needs %d nodes, want 3 (n[1-3])", got.NumNodes)
		}
		f.kill(0, id, 9) // it waits for n2, keeping n[1-3] from later jobs
		f.waitState(id, states.JobCancelled)
	}
	two := script("sleep 1000")
	two.MinNodes, two.MaxNodes, two.Contiguous = 2, 2, true
	if got := f.waitState(f.mustSubmit(two), states.JobRunning); got.NodeList != "n[3-4]" {
		t.Errorf("-N2 --contiguous runs on %s, want n[3-4]", got.NodeList)
	}
}

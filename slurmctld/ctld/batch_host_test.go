package ctld_test

import (
	"errors"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestBatchFeatures: sbatch --batch is checked as Slurm 22.05 checks it (each case as the
// reference answered it, n2 having feature gpu and n3 big): its features must be among the
// --constraint's, the first one that is not ends the check, and each must be some node's
// (one is enough with "|"); the batch script runs on the first node of the allocation with
// them (-N2 -C "gpu|big" --batch=big ran on n[2-3] with BatchHost=n3).
func TestBatchFeatures(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 4})
	f.startNodes("n1", "n2", "n3", "n4")
	for nodes, feat := range map[string]string{"n2": "gpu", "n3": "big"} {
		if err := f.call(0, wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: nodes, Features: &feat}, new(wire.OK)); err != nil {
			t.Fatalf("update %s AvailableFeatures=%s: %v", nodes, feat, err)
		}
	}
	const bad = "Job --batch option is invalid or not a subset of --constraints"
	for _, c := range []struct {
		constraint, batch, err string
	}{
		{"gpu", "big", bad},
		{"", "gpu", bad},
		{"gpu&big", "big", ""},
		{"gpu", "gpu|nosuch", ""},
		{"gpu", "nosuch|gpu", bad},
		{"gpu|nosuch", "nosuch", bad},
		{"gpu|nosuch", "gpu", "Invalid feature specification"},
		{"gpu|big", "gpu&big", ""},
	} {
		d := script("sleep 100")
		d.Constraint, d.BatchFeatures, d.Hold = c.constraint, c.batch, true
		_, err := f.submit(0, d)
		var we *wire.Error
		switch {
		case c.err == "" && err != nil:
			t.Errorf("-C %q --batch=%q: %v; want accepted", c.constraint, c.batch, err)
		case c.err != "" && (!errors.As(err, &we) || we.Text != c.err):
			t.Errorf("-C %q --batch=%q: %v; want %q", c.constraint, c.batch, err, c.err)
		}
	}
	d := script("sleep 100")
	d.MinNodes, d.Constraint, d.BatchFeatures = 2, "gpu|big", "big"
	j := f.waitState(f.mustSubmit(d), states.JobRunning)
	if j.NodeList != "n[2-3]" || j.BatchHost != "n3" || j.BatchFeatures != "big" {
		t.Errorf("-N2 -C gpu|big --batch=big: nodes %s, BatchHost=%s BatchFeatures=%s; want n[2-3], n3, big", j.NodeList, j.BatchHost, j.BatchFeatures)
	}
}

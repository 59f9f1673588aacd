package e2e_test

import (
	"regexp"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestNodeLoad_Reported: a registered node shows its machine's load and free memory, as
// Slurm's slurmd reports them (scontrol show node's CPULoad and FreeMem, sinfo's %O and
// %e), and the time it was last busy (its registration, before any job).
func TestNodeLoad_Reported(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	out, errOut, code := c.Run(t, "scontrol", "show", "node", "n1")
	if code != 0 {
		t.Fatalf("scontrol show node: exit %d: %s", code, errOut)
	}
	for _, re := range []string{`CPULoad=\d+\.\d\d\b`, `FreeMem=[1-9]\d*\b`, `LastBusyTime=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\b`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("scontrol show node n1 lacks %s:\n%s", re, out)
		}
	}
	out, _, _ = c.Run(t, "sinfo", "-h", "-N", "-o", "%O %e")
	if !regexp.MustCompile(`^\d+\.\d\d [1-9]\d*\n$`).MatchString(out) {
		t.Errorf("sinfo -o '%%O %%e' = %q, want the load and free MiB", out)
	}
}

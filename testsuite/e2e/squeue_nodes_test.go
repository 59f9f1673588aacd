package e2e_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSqueueNodeFilter: squeue -w names must be nodes of the cluster (or their hosts):
// the first that is not ends squeue with Slurm's "Invalid node name" and exit 1 (Slurm's
// test5.6, the reference's lines).
func TestSqueueNodeFilter(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, InProcess: true})
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"-h", "-w", "n1"}, 0, ""},
		{[]string{"-h", "-w", "n[1-2]"}, 0, ""},
		{[]string{"-h", "-w", "n1,bogus"}, 1, "squeue: error: Invalid node name bogus\n"},
		{[]string{"--format=%u", "--noheader", "--user=0", "--nodelist=dummy_name"}, 1, "squeue: error: Invalid node name dummy_name\n"},
	} {
		out, errOut, code := c.Run(t, "squeue", tc.args...)
		if code != tc.code || errOut != tc.stderr || out != "" {
			t.Errorf("squeue %q: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out, errOut, tc.code, tc.stderr)
		}
	}
}

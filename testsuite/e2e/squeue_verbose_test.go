package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSqueueVerbose: squeue -v prints its options block, the date and the controller's
// "last_update_time=... records=N" line on stdout before the table, and logs the node
// selection plugins on stderr; with -w (names mapped before -v takes effect) it logs none
// (Slurm's test5.7, the reference's layout).
func TestSqueueVerbose(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, InProcess: true})
	for i := 0; i < 2; i++ {
		if _, errOut, code := c.Run(t, "sbatch", "--hold", "--wrap", "true"); code != 0 {
			t.Fatalf("sbatch: exit %d: %s", code, errOut)
		}
	}
	out, errOut, code := c.Run(t, "squeue", "-v", "-o", "%T", "-t", "PD")
	if code != 0 {
		t.Fatalf("squeue -v: exit %d: %s", code, errOut)
	}
	want := regexp.MustCompile(`(?s)^-{29}\nall         = false\n.*\nformat      = %T\niterate     = 0\n.*` +
		`\nstates      = PD\n.*\nverbose     = 1\n-{29}\n\n\n` +
		`[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d \d{4}\n` +
		`last_update_time=\d+ records=2\nSTATE\nPENDING\nPENDING\n$`)
	if !want.MatchString(out) {
		t.Errorf("squeue -v stdout:\n%s", out)
	}
	if !strings.HasPrefix(errOut, "squeue: select/cons_tres: common_init: select/cons_tres loaded\n") {
		t.Errorf("squeue -v stderr: %q", errOut)
	}
	out, errOut, code = c.Run(t, "squeue", "-v", "-h", "-w", "n1")
	if code != 0 || errOut != "" || !strings.Contains(out, "nodes       = n1\n") || !strings.Contains(out, "records=2\n") {
		t.Errorf("squeue -v -w n1: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
}

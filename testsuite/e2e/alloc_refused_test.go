package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestAllocRefusedForMemory asks salloc and srun for more memory than any node has. As in
// Slurm 22.05 the controller records each request as a FAILED job (BadConstraints) and
// refuses it: salloc says that allocation was revoked, naming the recorded job, before
// Slurm's two error lines; srun prints only the two lines; both exit 1.
func TestAllocRefusedForMemory(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	const (
		memLine  = "error: Memory specification can not be satisfied\n"
		nodeConf = "Requested node configuration is not available\n"
	)

	out, errOut, code := c.Run(t, "salloc", "-J", "memrefused", "--mem=300G", "true")
	m := regexp.MustCompile(`^salloc: Job allocation (\d+) has been revoked\.\n`).FindStringSubmatch(errOut)
	if code != 1 || out != "" || m == nil {
		t.Fatalf("salloc: exit %d, stdout %q, stderr %q; want exit 1 and the revoked line first", code, out, errOut)
	}
	if want := m[0] + "salloc: " + memLine + "salloc: error: Job submit/allocate failed: " + nodeConf; errOut != want {
		t.Errorf("salloc stderr %q, want %q", errOut, want)
	}
	// The job the line names is the recorded one: FAILED, BadConstraints.
	show, _, _ := c.Run(t, "scontrol", "show", "job", m[1])
	if !strings.Contains(show, "JobName=memrefused") || !strings.Contains(show, "JobState=FAILED Reason=BadConstraints") {
		t.Errorf("scontrol show job %s:\n%s", m[1], show)
	}

	out, errOut, code = c.Run(t, "srun", "-J", "memrefused2", "--mem=300G", "true")
	if want := "srun: " + memLine + "srun: error: Unable to allocate resources: " + nodeConf; code != 1 || out != "" || errOut != want {
		t.Errorf("srun: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errOut, want)
	}
	q, _, _ := c.Run(t, "squeue", "-h", "-t", "all", "-n", "memrefused2", "-o", "%T %r")
	if q != "FAILED BadConstraints\n" {
		t.Errorf("srun's refused job in squeue -t all: %q", q)
	}
}

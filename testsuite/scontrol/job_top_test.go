package scontrol_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_Top runs scontrol top as the reference answered it (Slurm's test2.26): the
// listed jobs come first in the order given, a list naming an unknown job is refused whole
// and named whole, a held job alone is refused, and the arguments are counted.
func TestScontrol_Top(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, InProcess: true})
	var ids []string
	for i := 0; i < 3; i++ {
		out, errOut, code := c.Run(t, "sbatch", "--parsable", "--begin=now+1hour", "--wrap", "true")
		if code != 0 {
			t.Fatalf("sbatch: exit %d: %s", code, errOut)
		}
		ids = append(ids, strings.TrimSpace(out))
	}
	order := func() string {
		out, _, _ := c.Run(t, "squeue", "-h", "-o", "%i", "--sort=-p")
		return strings.Join(strings.Fields(out), ",")
	}
	held, _, _ := c.Run(t, "sbatch", "--parsable", "-H", "--wrap", "true")
	held = strings.TrimSpace(held)
	for _, k := range []struct {
		args, err string
		rc        int
		order     string
	}{
		{ids[2] + "," + ids[1], "", 0, ids[2] + "," + ids[1] + "," + ids[0]},
		{"jobid=" + ids[0], "", 0, ids[0] + "," + ids[2] + "," + ids[1]},
		{ids[1] + ",99999", fmt.Sprintf("Invalid job id specified for job %s,99999\n", ids[1]), 1, ids[0] + "," + ids[2] + "," + ids[1]},
		{held, fmt.Sprintf("Job is in held state, pending scheduler release for job %s\n", held), 1, ids[0] + "," + ids[2] + "," + ids[1]},
		{held + "," + ids[1], "", 0, ids[1] + "," + ids[0] + "," + ids[2]},
		{"", "too few arguments for keyword:top\n", 1, ""},
		{"1 2", "too many arguments for keyword:top\n", 1, ""},
	} {
		_, errOut, code := c.Run(t, "scontrol", append([]string{"top"}, strings.Fields(k.args)...)...)
		if code != k.rc || errOut != k.err {
			t.Errorf("scontrol top %s: exit %d, stderr %q; want %d, %q", k.args, code, errOut, k.rc, k.err)
		}
		if got := order(); k.order != "" && !strings.HasPrefix(got, k.order) {
			t.Errorf("after scontrol top %s: jobs by priority %s, want %s", k.args, got, k.order)
		}
	}
}

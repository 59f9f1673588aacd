package scontrol_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_WaitJob runs scontrol wait_job on a running, a held and an ended job, an
// unknown id and bad arguments, with the reference's answers (Slurm says "no longer running"
// of a pending job too: it is not running).
func TestScontrol_WaitJob(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	sub := func(args ...string) uint32 {
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...)
		var id uint32
		if _, err := fmt.Sscan(out, &id); code != 0 || err != nil {
			t.Fatalf("sbatch %q: exit %d, %q, %q", args, code, out, errOut)
		}
		return id
	}
	run := sub("--wrap", "sleep 300")
	held := sub("-H", "--wrap", "true")
	done := sub("--wrap", "true")
	c.WaitJob(t, run, states.JobRunning)
	c.WaitJob(t, done, states.JobComplete)
	for _, k := range []struct {
		args, err string
		rc        int
	}{
		{fmt.Sprint(run), fmt.Sprintf("scontrol: Nodes are ready for job %d\n", run), 0},
		{fmt.Sprintf("%d.1", run), fmt.Sprintf("scontrol: Nodes are ready for job %d\n", run), 0},
		{fmt.Sprint(held), fmt.Sprintf("scontrol: Job %d no longer running\n", held), 1},
		{fmt.Sprint(done), fmt.Sprintf("scontrol: Job %d no longer running\n", done), 1},
		{"99999", "scontrol: Problem running job 99999\n", 1},
		{"x", "Invalid job_id x", 1},
		{"0", "Invalid job_id 0", 1},
		{"", "too few arguments for keyword:wait_job\n", 1},
		{"1 2", "too many arguments for keyword:wait_job\n", 1},
	} {
		out, errOut, code := c.Run(t, "scontrol", append([]string{"wait_job"}, strings.Fields(k.args)...)...)
		if out != "" || errOut != k.err || code != k.rc {
			t.Errorf("scontrol wait_job %s: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", k.args, code, out, errOut, k.rc, k.err)
		}
	}
	c.Run(t, "scancel", fmt.Sprint(run), fmt.Sprint(held))
}

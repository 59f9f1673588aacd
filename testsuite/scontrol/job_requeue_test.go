package scontrol_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_RequeueFlags: requeuehold State=SpecialExit puts an ended job back held in
// the SPECIAL_EXIT state with the reference's reason text, release frees it, and requeue's
// Incomplete option leaves alone (without an error) a job that does not run (Slurm's
// test2.23; the reference's answers to the same commands).
func TestScontrol_RequeueFlags(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300, InProcess: true})
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-o", "/dev/null", "--wrap", "true")
	var id uint32
	if _, err := fmt.Sscan(out, &id); code != 0 || err != nil {
		t.Fatalf("sbatch: exit %d, %q, %q", code, out, errOut)
	}
	c.WaitJob(t, id, states.JobComplete)
	job := fmt.Sprint(id)
	if _, errOut, code := c.Run(t, "scontrol", "requeuehold", "State=SpecialExit", job); code != 0 {
		t.Fatalf("requeuehold State=SpecialExit: exit %d: %s", code, errOut)
	}
	show, _, _ := c.Run(t, "scontrol", "show", "job", job)
	if !strings.Contains(show, " Priority=0 ") || !strings.Contains(show, "JobState=SPECIAL_EXIT Reason=job_requeued_in_held_state ") ||
		!strings.Contains(show, " Restarts=1 ") {
		t.Errorf("after requeuehold State=SpecialExit:\n%s", show)
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-j", job, "-o", "%T|%r|%t"); out != "SPECIAL_EXIT|job requeued in held state|SE\n" {
		t.Errorf("squeue of the special-exit job: %q", out)
	}
	for _, k := range []struct {
		args []string
		err  string
		rc   int
	}{
		{[]string{"requeue", "incomplete", job}, "", 0}, // held pending: left alone
		{[]string{"requeue", "i"}, "", 0},               // options alone: nothing to do
		{[]string{"requeue", job}, "Job is pending execution for job " + job + "\n", 1},
		{[]string{"requeuehold", "State=bogus", job}, "Invalid job id specified for job State=bogus\nJob is pending execution for job " + job + "\n", 1},
	} {
		if _, errOut, code := c.Run(t, "scontrol", k.args...); code != k.rc || errOut != k.err {
			t.Errorf("scontrol %q: exit %d, stderr %q; want %d, %q", k.args, code, errOut, k.rc, k.err)
		}
	}
	if _, errOut, code := c.Run(t, "scontrol", "release", job); code != 0 {
		t.Fatalf("release: exit %d: %s", code, errOut)
	}
	show, _, _ = c.Run(t, "scontrol", "show", "job", job)
	if regexp.MustCompile(` Priority=0 |SPECIAL_EXIT|requeued`).MatchString(show) {
		t.Errorf("after release:\n%s", show)
	}
}

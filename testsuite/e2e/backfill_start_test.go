package e2e_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestBackfillStart_SchedulerAndYearLimit: a job the backfill pass starts shows
// Scheduler=Backfill, and without a time limit from its request or its partition (MaxTime
// INFINITE, no DefaultTime) runs with the year Slurm's backfill plans with (365-00:00:00);
// a job the main pass starts keeps UNLIMITED and Scheduler=Main. (On the reference, the same
// three jobs: the third is backfilled about one bf_interval after its submission.)
func TestBackfillStart_SchedulerAndYearLimit(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300,
		ExtraConf: "SchedulerParameters=bf_interval=1"})
	first := submit(t, c, "-J", "first", "-n3", "--wrap", "sleep 300")
	c.WaitJob(t, first, states.JobRunning)
	// Never fits while the first runs (which has no end): no reservation in the window.
	blocked := submit(t, c, "-J", "blocked", "-n4", "--wrap", "true")
	small := submit(t, c, "-J", "small", "-n1", "--wrap", "sleep 300")
	c.WaitJob(t, small, states.JobRunning)
	show := func(id uint32) string {
		out, errOut, code := c.Run(t, "scontrol", "show", "job", strconv.Itoa(int(id)))
		if code != 0 {
			t.Fatalf("scontrol show job %d: exit %d, %s", id, code, errOut)
		}
		return out
	}
	if out := show(first); !strings.Contains(out, " TimeLimit=UNLIMITED ") || !strings.Contains(out, " Scheduler=Main\n") {
		t.Errorf("main-pass start:\n%s", out)
	}
	if out := show(small); !strings.Contains(out, " TimeLimit=365-00:00:00 ") || !strings.Contains(out, " Scheduler=Backfill\n") {
		t.Errorf("backfill start:\n%s", out)
	}
	if j := c.Job(t, blocked); j == nil || !states.JobState(j.State).IsPending() {
		t.Errorf("the blocked job is not pending: %+v", j)
	}
}

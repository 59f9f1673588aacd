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
	show := func(id uint32) string { return showJob(t, c, id) }
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

// TestBackfillReservation_SchedNodesAndMark: what a user sees of a backfill reservation, as
// on the reference (same three jobs on one 4-CPU node): the top pending job shows its
// planned nodes (scontrol's SchedNodeList=, squeue --start's SCHEDNODES) and
// Scheduler=Backfill:* with the pass's LastSchedEval; a smaller job that would fit beside
// the running one now, but not beside the reservation (it holds the node whole), waits and
// is expected at the reservation's end rounded down to bf_resolution (60 s).
func TestBackfillReservation_SchedNodesAndMark(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300,
		ExtraConf: "SchedulerParameters=bf_interval=1"})
	running := submit(t, c, "-J", "running", "-n3", "-t", "5", "--wrap", "sleep 300")
	c.WaitJob(t, running, states.JobRunning)
	top := submit(t, c, "-J", "top", "-n4", "-t", "10", "--wrap", "true")
	small := submit(t, c, "-J", "small", "-n1", "-t", "30", "--wrap", "true")
	show := func(id uint32) string { return showJob(t, c, id) }
	waitFor(t, "a backfill pass to plan both pending jobs", func() bool {
		return strings.Contains(show(top), " SchedNodeList=n1\n") && strings.Contains(show(small), " SchedNodeList=n1\n")
	})
	for _, id := range []uint32{top, small} {
		if out := show(id); !strings.Contains(out, " Scheduler=Backfill:*\n") || !strings.Contains(out, "\n   NodeList= SchedNodeList=n1\n") {
			t.Errorf("job %d after a backfill pass:\n%s", id, out)
		}
	}
	r, tj, sj := c.Job(t, running), c.Job(t, top), c.Job(t, small)
	if sj == nil || !states.JobState(sj.State).IsPending() || states.Reason(sj.Reason) != states.WaitPriority {
		t.Fatalf("the small job should wait (Priority) behind the reservation: %+v", sj)
	}
	if want := r.StartTime + 300; tj.StartTime != want {
		t.Errorf("top job expected at %d, want the running job's end %d", tj.StartTime, want)
	}
	if want := (tj.StartTime + 600) / 60 * 60; sj.StartTime != want {
		t.Errorf("small job expected at %d, want the reservation's end rounded down, %d", sj.StartTime, want)
	}
	out, errOut, code := c.Run(t, "squeue", "--start", "-h", "-o", "%i %Y")
	if code != 0 {
		t.Fatalf("squeue --start: exit %d, %s", code, errOut)
	}
	want := strconv.Itoa(int(top)) + " n1\n" + strconv.Itoa(int(small)) + " n1\n"
	if out != want {
		t.Errorf("squeue --start -o '%%i %%Y' = %q, want %q", out, want)
	}
}

// showJob is `scontrol show job ID`'s output; the command must succeed.
func showJob(t *testing.T, c *cluster.Cluster, id uint32) string {
	t.Helper()
	out, errOut, code := c.Run(t, "scontrol", "show", "job", strconv.Itoa(int(id)))
	if code != 0 {
		t.Fatalf("scontrol show job %d: exit %d, %s", id, code, errOut)
	}
	return out
}

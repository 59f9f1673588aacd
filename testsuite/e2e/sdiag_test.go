package e2e_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// sdiagCounter is the number on sdiag's line "\t<label>: N", or fails the test.
func sdiagCounter(t *testing.T, report, label string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\t` + regexp.QuoteMeta(label) + `: +(\d+)$`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("sdiag has no %q line:\n%s", label, report)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestSdiagBackfill: a job started by backfill ahead of a blocked higher-priority job moves
// sdiag's backfill counters; `sdiag -r` clears them.
func TestSdiagBackfill(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300,
		ExtraConf: "SchedulerParameters=bf_interval=1"})
	// One CPU busy for a long time; the next job wants both CPUs and waits for it; a short
	// one-CPU job fits in the hole before that and is backfilled.
	long := submit(t, c, "-J", "long", "-t", "10", "-n1", "--wrap", "sleep 300")
	c.WaitJob(t, long, states.JobRunning)
	wide := submit(t, c, "-J", "wide", "-t", "10", "-n2", "--wrap", "true")
	short := submit(t, c, "-J", "short", "-t", "1", "-n1", "--wrap", "true")
	c.WaitJob(t, short, states.JobComplete)
	if j := c.Job(t, wide); j == nil || !states.JobState(j.State).IsPending() {
		t.Fatalf("the wide job is not pending: %+v", j)
	}

	out, errOut, code := c.Run(t, "sdiag")
	if code != 0 {
		t.Fatalf("sdiag: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "\nBackfilling stats\n") {
		t.Fatalf("no backfill section:\n%s", out)
	}
	for _, l := range []string{"Total backfilled jobs (since last slurm start)", "Total backfilled jobs (since last stats cycle start)",
		"Total cycles", "Last depth cycle", "Last queue length", "Max cycle"} {
		if n := sdiagCounter(t, out, l); n < 1 {
			t.Errorf("%s: %d after a backfilled job, want at least 1", l, n)
		}
	}
	if !regexp.MustCompile(`(?m)^\tLast cycle when: [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \d{4} \(\d+\)$`).MatchString(out) {
		t.Errorf("no date of the last backfill cycle:\n%s", out)
	}
	// The wide job's reservation (from the long job's end for ten minutes) splits the map's
	// one record twice, as on Slurm 22.05 for the same jobs (Last table size: 3); whichever
	// cycle was last (with or without the short job in its queue), every job it looked at
	// reached a node test.
	if n := sdiagCounter(t, out, "Last table size"); n != 3 {
		t.Errorf("Last table size: %d, want 3", n)
	}
	if d, try := sdiagCounter(t, out, "Last depth cycle"), sdiagCounter(t, out, "Last depth cycle (try sched)"); d != try {
		t.Errorf("Last depth cycle %d, (try sched) %d: want equal here", d, try)
	}
	if !strings.Contains(out, "\tMean cycle: ") || !strings.Contains(out, "\tDepth Mean: ") {
		t.Errorf("the means Slurm prints once a cycle ran are missing:\n%s", out)
	}

	if _, errOut, code := c.Run(t, "sdiag", "-r"); code != 0 {
		t.Fatalf("sdiag -r: exit %d, %s", code, errOut)
	}
	c.Run(t, "scancel", strconv.Itoa(int(long)), strconv.Itoa(int(wide)))
	out, _, _ = c.Run(t, "sdiag")
	// sdiag -r clears both backfilled-job totals, as Slurm's reset_stats(1) does.
	for _, l := range []string{"Total backfilled jobs (since last slurm start)", "Total backfilled jobs (since last stats cycle start)"} {
		if n := sdiagCounter(t, out, l); n != 0 {
			t.Errorf("%s after sdiag -r: %d, want 0", l, n)
		}
	}
	c.WaitJob(t, long, states.JobCancelled)
	c.WaitJob(t, wide, states.JobCancelled)
}

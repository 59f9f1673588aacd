package sinfo

import (
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSinfo_PlannedNodes: an idle node the backfill plan holds for a pending job shows as
// "plnd" (scontrol: IDLE+PLANNED), and a node running a job does not, as on the reference
// (Slurm 22.05, four 64-CPU nodes): a -N2 -n64 job placed 63+1 on n1 and n2, a -N1 -n64 job
// on n3, and a pending -N4 job planned on every node left n4 "plnd" and n1-n2 "mix".
func TestSinfo_PlannedNodes(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 64,
		ExtraConf: "SchedulerType=sched/backfill\nSchedulerParameters=bf_interval=1\n"})
	for _, args := range [][]string{
		{"-N2", "-n64", "-t10"}, {"-N1", "-n64", "-t20"}, {"-N4", "-t30"},
	} {
		if _, e, rc := c.Run(t, "sbatch", append(args, "--wrap", "sleep 300")...); rc != 0 {
			t.Fatalf("sbatch %v: %s", args, e)
		}
	}
	c.WaitJob(t, 2, states.JobRunning)
	want := "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n" +
		"debug*       up   infinite      1   plnd n4\n" +
		"debug*       up   infinite      2    mix n[1-2]\n" +
		"debug*       up   infinite      1  alloc n3\n"
	var out string
	for range 100 {
		if out, _, _ = c.Run(t, "sinfo"); out == want {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out != want {
		t.Errorf("sinfo:\n%s\nwant\n%s", out, want)
	}
	if o, _, _ := c.Run(t, "scontrol", "show", "node", "n4"); !strings.Contains(o, "   State=IDLE+PLANNED ") {
		t.Errorf("scontrol show node n4:\n%s", o)
	}
	c.Run(t, "scancel", "3")
	for range 100 {
		if out, _, _ = c.Run(t, "sinfo", "-h", "-n", "n4", "-o", "%t"); out == "idle\n" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out != "idle\n" {
		t.Errorf("n4 once nothing is planned on it: %q, want idle", out)
	}
}

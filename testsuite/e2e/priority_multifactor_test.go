package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// Issue 6: priority/multifactor and sprio. The reference runs priority/basic, so these
// values are derived from Slurm 22.05's documented formula (man slurm.conf, "Multifactor
// Priority"), worked out in the comments. The cluster has 2 nodes of 4 CPUs (8 CPUs);
// weights: job size 1000, partition 2000, age 0 (so nothing depends on the clock).

// TestMultifactor_SprioShowsFactors checks priorities as squeue and sprio show them.
func TestMultifactor_SprioShowsFactors(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, ExtraConf: "PriorityType=priority/multifactor\n" +
		"PriorityWeightJobSize=1000\nPriorityWeightPartition=2000\nPriorityWeightAge=0\n"})
	c.WaitNodesIdle(t)
	fill := submit(t, c, "-n", "8", "--wrap", "sleep 300") // keeps the others pending
	c.WaitJob(t, fill, states.JobRunning)
	// Job size favours large jobs: (min nodes/2 + CPUs/8)/2 × 1000. The one partition has
	// the largest PriorityJobFactor, so its factor is 1 × 2000.
	p1 := submit(t, c, "-n", "2", "--wrap", "true")                // (1/2 + 2/8)/2 = 0.375 → 375; 2375
	p2 := submit(t, c, "-n", "4", "--nice=100", "--wrap", "true")  // (1/2 + 4/8)/2 = 0.5 → 500; 2500 − 100 = 2400
	p3 := submit(t, c, "-N", "2", "-n", "2", "--wrap", "true")     // (2/2 + 2/8)/2 = 0.625 → 625; 2625
	submit(t, c, "-H", "--wrap", "true")                           // held: not listed
	submit(t, c, "--begin=now+1hour", "-n", "2", "--wrap", "true") // not eligible yet: not listed
	want := map[uint32][3]int{p1: {2375, 375, 0}, p2: {2400, 500, 100}, p3: {2625, 625, 0}}

	out, errOut, code := c.Run(t, "squeue", "-h", "-t", "PD", "-o", "%i %Q")
	if code != 0 {
		t.Fatalf("squeue: exit %d: %s", code, errOut)
	}
	for id, w := range want {
		if !strings.Contains(out, fmt.Sprintf("%d %d\n", id, w[0])) {
			t.Errorf("squeue: job %d should have priority %d:\n%s", id, w[0], out)
		}
	}

	// Default format: "%.15i %9r %.10Y %.10S" and one column per non-zero weight.
	head := fmt.Sprintf("%15s %-9s %10s %10s %10s %10s\n", "JOBID", "PARTITION", "PRIORITY", "SITE", "JOBSIZE", "PARTITION")
	row := func(id uint32) string {
		return fmt.Sprintf("%15d %-9s %10d %10d %10d %10d\n", id, "debug", want[id][0], 0, want[id][1], 2000)
	}
	check := func(args []string, wantOut string) {
		t.Helper()
		out, errOut, code := c.Run(t, "sprio", args...)
		if code != 0 || out != wantOut {
			t.Errorf("sprio %q: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", args, code, errOut, out, wantOut)
		}
	}
	check(nil, head+row(p1)+row(p2)+row(p3))
	check([]string{"--sort=-Y"}, head+row(p3)+row(p2)+row(p1))
	check([]string{"-h", "-j", fmt.Sprint(p2)}, row(p2))
	check([]string{"-j", "99999"}, "Unable to find jobs matching user/id(s) specified\n")
	check([]string{"-w"}, head+fmt.Sprintf("%15s %-9s %10s %10d %10d %10d\n", "Weights", "", "", 1, 1000, 2000))
	// -n: normalised factors "%.7f"; the priority over 2^32−1 as "%16.14f", cut to 10.
	check([]string{"-n", "-h", "-j", fmt.Sprint(p1)},
		fmt.Sprintf("%15d %-9s %-10s %-10s %-10s\n", p1, "debug", fmt.Sprintf("%16.14f", 2375.0/4294967295)[:10], "0.3750000", "1.0000000"))
	check([]string{"-h", "-o", "%i|%N|%Y", "-j", fmt.Sprint(p2)}, fmt.Sprintf("%d|%d|%d\n", p2, want[p2][2], want[p2][0]))
	check([]string{"-h", "-p", "nosuch"}, "")

	// An administrator's priority replaces the factors (Slurm's direct_prio): shown as is,
	// with site and nice 0.
	if _, errOut, code := c.Run(t, "scontrol", "update", fmt.Sprintf("JobId=%d", p1), "Priority=5000"); code != 0 {
		t.Fatalf("scontrol update Priority: exit %d: %s", code, errOut)
	}
	check([]string{"-h", "-o", "%i %Y %S %N %J", "-j", fmt.Sprint(p1)}, fmt.Sprintf("%d 5000 0 0 0\n", p1))
}

// TestMultifactor_OrdersTheQueue checks that multifactor priorities decide the start order:
// with one CPU free, the job of the higher priority partition starts first although it was
// submitted last.
func TestMultifactor_OrdersTheQueue(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "PriorityType=priority/multifactor\n" +
		"PriorityWeightJobSize=1000\nPriorityWeightAge=0\nSchedulerType=sched/builtin\n"})
	c.WaitNodesIdle(t)
	fill := submit(t, c, "-n", "2", "--wrap", "sleep 300")
	c.WaitJob(t, fill, states.JobRunning)
	// Job size (favour large) on 1 node of 2 CPUs: -n 1 → (1/1 + 1/2)/2 = 0.75 → 750;
	// -n 2 → (1 + 1)/2 = 1 → 1000. The bigger job, submitted second, is first in line.
	small := submit(t, c, "-n", "1", "--wrap", "sleep 300")
	big := submit(t, c, "-n", "2", "--wrap", "true")
	if _, errOut, code := c.Run(t, "scancel", fmt.Sprint(fill)); code != 0 {
		t.Fatalf("scancel: %s", errOut)
	}
	c.WaitJob(t, big, states.JobComplete)
	if j := c.Job(t, small); j == nil {
		t.Fatalf("job %d gone", small)
	}
	out, _, _ := c.Run(t, "squeue", "-h", "-o", "%i %Q", "-j", fmt.Sprint(small))
	if !strings.HasSuffix(out, " 750\n") {
		t.Errorf("small job's priority: %q, want 750", out)
	}
}

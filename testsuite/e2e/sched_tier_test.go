package e2e_test

import (
	"strconv"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSchedPriorityTier: two partitions over the same node, "high" with PriorityTier=2.
// When the node frees, the job of the higher tier starts first although the other job has
// the higher priority (Slurm's sort_job_queue2 orders by the partition's PriorityTier
// before priority); the other waits for Resources.
func TestSchedPriorityTier(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300,
		ExtraConf: "PartitionName=high Nodes=ALL PriorityTier=2 MaxTime=INFINITE State=UP"})
	blocker := submit(t, c, "-J", "blocker", "-p", "debug", "-n2", "-t", "10", "--wrap", "sleep 300")
	c.WaitJob(t, blocker, states.JobRunning)
	low := submit(t, c, "-J", "lowtier", "-p", "debug", "-n2", "-t", "10", "--wrap", "sleep 300")
	high := submit(t, c, "-J", "hightier", "-p", "high", "-n2", "-t", "10", "--nice=1000", "--wrap", "sleep 300")
	defer func() {
		c.Run(t, "scancel", strconv.Itoa(int(low)), strconv.Itoa(int(high)))
		c.WaitJob(t, low, states.JobCancelled, states.JobComplete)
		c.WaitJob(t, high, states.JobCancelled, states.JobComplete)
	}()
	jl, jh := c.Job(t, low), c.Job(t, high)
	if jl == nil || jh == nil || jl.Priority <= jh.Priority {
		t.Fatalf("the test needs the tier-1 job to have the higher priority: %+v %+v", jl, jh)
	}
	if _, errOut, code := c.Run(t, "scancel", strconv.Itoa(int(blocker))); code != 0 {
		t.Fatalf("scancel: exit %d, %s", code, errOut)
	}
	c.WaitJob(t, high, states.JobRunning)
	if j := c.Job(t, low); j == nil || !states.JobState(j.State).IsPending() || states.Reason(j.Reason) != states.WaitResources {
		t.Fatalf("the tier-1 job should wait for Resources behind the tier-2 job: %+v", j)
	}
}

package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// preemptCluster is a one-node cluster with PreemptType=preempt/partition_prio: partition
// low (PriorityTier=1, PreemptMode=mode) and high (PriorityTier=2, PreemptMode=OFF) share
// the node, as in Slurm's test_preemption_by_partition.
func preemptCluster(t *testing.T, mode string) *cluster.Cluster {
	return cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf: "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL,GANG\n",
		Partitions: "PartitionName=low Nodes=n1 PriorityTier=1 PreemptMode=" + mode + "\n" +
			"PartitionName=high Nodes=n1 PriorityTier=2 PreemptMode=off\n"})
}

// startLow starts an exclusive job in partition low whose batch shell writes its pid to
// low.pid, and waits until it runs.
func startLow(t *testing.T, c *cluster.Cluster) (id uint32, pid int) {
	t.Helper()
	id = submit(t, c, "-p", "low", "--exclusive", "-t", "5", "-o", "low.out",
		"--wrap", "echo $$ > low.pid; echo started; while :; do sleep 0.2; done")
	c.WaitJob(t, id, states.JobRunning)
	pidFile := filepath.Join(c.WorkDir, "low.pid")
	waitFor(t, "the low job's pid file", func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	return id, pid
}

// waitPreemptedLine waits for slurmstepd's "CANCELLED ... DUE TO PREEMPTION" line in the low
// job's output.
func waitPreemptedLine(t *testing.T, c *cluster.Cluster, id uint32) {
	t.Helper()
	waitFor(t, "the CANCELLED line", func() bool {
		b, _ := os.ReadFile(filepath.Join(c.WorkDir, "low.out"))
		return cancelledLine(id, " DUE TO PREEMPTION").Match(b)
	})
}

// procState is the state letter /proc shows for pid ("" once it is gone).
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return ""
}

var preemptEligible = regexp.MustCompile(`(?m)^   PreemptEligibleTime=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d PreemptTime=None$`)

// TestPreempt_Cancel: a job of the higher tier takes the node; the low one ends PREEMPTED
// (ExitCode 0:15), its output says so, and scontrol shows when it became preemptable.
func TestPreempt_Cancel(t *testing.T) {
	c := preemptCluster(t, "cancel")
	low, _ := startLow(t, c)
	high := submit(t, c, "-p", "high", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
	c.WaitJob(t, high, states.JobRunning)
	j := c.WaitJob(t, low, states.JobPreempted)
	if j.ExitCode != 15 {
		t.Errorf("preempted job's exit status = %#x, want signal 15 (0:15)", j.ExitCode)
	}
	waitPreemptedLine(t, c, low)
	if out := showJob(t, c, low); !strings.Contains(out, "JobState=PREEMPTED") || !preemptEligible.MatchString(out) {
		t.Errorf("scontrol show job of the preempted job:\n%s", out)
	}
	// The preemptor's partition is PreemptMode=OFF: it is not preemptable.
	if out := showJob(t, c, high); strings.Contains(out, "PreemptEligibleTime") {
		t.Errorf("a job of a PreemptMode=OFF partition shows a PreemptEligibleTime:\n%s", out)
	}
	if o, _, _ := c.Run(t, "squeue", "-h", "-t", "all", "-j", fmt.Sprint(low), "-o", "%t"); o != "PR\n" {
		t.Errorf("squeue shows the preempted job as %q, want PR", o)
	}
}

// TestPreempt_Requeue: the low job goes back to PENDING (BeginTime, Restarts=1) and its
// output says the run was cancelled due to preemption.
func TestPreempt_Requeue(t *testing.T) {
	c := preemptCluster(t, "requeue")
	low, _ := startLow(t, c)
	high := submit(t, c, "-p", "high", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
	c.WaitJob(t, high, states.JobRunning)
	j := c.WaitJob(t, low, states.JobPending)
	if j.Restarts != 1 || states.Reason(j.Reason) != states.WaitTime {
		t.Errorf("requeued job: Restarts=%d reason %s, want 1 and BeginTime", j.Restarts, states.Reason(j.Reason))
	}
	waitPreemptedLine(t, c, low)
}

// TestPreempt_Suspend: the low job is suspended (its processes stopped) while the high one
// runs, and resumed once the node is free again, its end moved by the time it was stopped.
func TestPreempt_Suspend(t *testing.T) {
	c := preemptCluster(t, "suspend")
	low, pid := startLow(t, c)
	before := c.WaitJob(t, low, states.JobRunning)
	high := submit(t, c, "-p", "high", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 2")
	c.WaitJob(t, low, states.JobSuspended)
	waitFor(t, "the low job's shell to be stopped", func() bool { return procState(pid) == "T" })
	if out := showJob(t, c, low); !preemptEligible.MatchString(out) {
		t.Errorf("scontrol show job of the suspended job:\n%s", out)
	}
	c.WaitJob(t, high, states.JobComplete)
	after := c.WaitJob(t, low, states.JobRunning)
	waitFor(t, "the low job's shell to run again", func() bool { s := procState(pid); return s == "S" || s == "R" })
	if after.EndTime <= before.EndTime {
		t.Errorf("EndTime after the resume = %d, want later than %d", after.EndTime, before.EndTime)
	}
}

// TestPreempt_NotDownward: a job of the lower tier never preempts one of a higher tier; it
// waits for the node.
func TestPreempt_NotDownward(t *testing.T) {
	c := preemptCluster(t, "cancel")
	high := submit(t, c, "-p", "high", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
	c.WaitJob(t, high, states.JobRunning)
	low := submit(t, c, "-p", "low", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "true")
	waitFor(t, "the low job's pending reason", func() bool {
		j := c.Job(t, low)
		return j != nil && states.Reason(j.Reason) == states.WaitResources
	})
	if j := c.Job(t, high); j == nil || states.JobState(j.State).Base() != states.JobRunning {
		t.Fatalf("the high-tier job no longer runs: %+v", j)
	}
}

// TestPreempt_FewestJobs: on a node shared by CPU, a job that needs half the node preempts
// one of the two low jobs holding it, not both.
func TestPreempt_FewestJobs(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4,
		ExtraConf: "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL\n",
		Partitions: "PartitionName=low Nodes=n1 PriorityTier=1\n" +
			"PartitionName=high Nodes=n1 PriorityTier=2 PreemptMode=off\n"})
	var lows []uint32
	for range 2 {
		id := submit(t, c, "-p", "low", "-n2", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
		c.WaitJob(t, id, states.JobRunning)
		lows = append(lows, id)
	}
	high := submit(t, c, "-p", "high", "-n2", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
	c.WaitJob(t, high, states.JobRunning)
	var preempted, running int
	for _, id := range lows {
		j := c.WaitJob(t, id, states.JobRunning, states.JobPreempted)
		switch states.JobState(j.State).Base() {
		case states.JobPreempted:
			preempted++
		case states.JobRunning:
			running++
		}
	}
	if preempted != 1 || running != 1 {
		t.Errorf("low jobs: %d preempted, %d running; want one of each", preempted, running)
	}
}

// TestPreempt_CreatedPartitions follows Slurm's test_preemption_by_partition: the two
// partitions are made with scontrol create (priority=1 preemptmode=cancel, priority=2
// preemptmode=off), a job of the second preempts one of the first, the partitions survive a
// controller crash, and scontrol delete removes one once no job names it.
func TestPreempt_CreatedPartitions(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf: "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL,GANG\n"})
	for _, args := range [][]string{
		{"create", "partitionname=partition1", "nodes=n1", "priority=1", "preemptmode=cancel"},
		{"create", "partitionname=partition2", "nodes=n1", "priority=2", "preemptmode=off"},
	} {
		if o, e, code := c.Run(t, "scontrol", args...); code != 0 || o != "" || e != "" {
			t.Fatalf("scontrol %q = %q, %q, exit %d", args, o, e, code)
		}
	}
	if _, e, code := c.Run(t, "scontrol", "create", "partitionname=partition1", "nodes=n1"); code != 1 ||
		e != "Error creating the partition: Invalid partition name specified\n" {
		t.Errorf("creating partition1 again: exit %d, stderr %q", code, e)
	}
	out, _, _ := c.Run(t, "scontrol", "show", "partition", "partition1")
	for _, want := range []string{"PartitionName=partition1\n", "   Nodes=n1\n", "PriorityJobFactor=1 PriorityTier=1 ", "PreemptMode=CANCEL\n", " MinNodes=1 "} {
		if !strings.Contains(out, want) {
			t.Errorf("show partition partition1 lacks %q:\n%s", want, out)
		}
	}
	low := submit(t, c, "-N1", "-t1", "-o", "/dev/null", "--exclusive", "-p", "partition1", "--wrap", "sleep 120")
	c.WaitJob(t, low, states.JobRunning)
	high := submit(t, c, "-N1", "-t1", "-o", "/dev/null", "--exclusive", "-p", "partition2", "--wrap", "sleep 30")
	c.WaitJob(t, high, states.JobRunning)
	c.WaitJob(t, low, states.JobPreempted)

	c.KillController(t)
	c.RestartController(t)
	if o, _, _ := c.Run(t, "sinfo", "-h", "-o", "%P"); o != "debug*\npartition1\npartition2\n" {
		t.Errorf("partitions after a controller crash: %q", o)
	}
	if _, e, code := c.Run(t, "scontrol", "delete", "partitionname=partition2"); code != 1 ||
		e != "delete_partition partitionname=partition2: Partition is in use\n" {
		t.Errorf("deleting a partition a job names: exit %d, stderr %q", code, e)
	}
	if o, e, code := c.Run(t, "scontrol", "delete", "partition=partition1"); code != 0 || o != "" || e != "" {
		t.Errorf("scontrol delete partition=partition1 = %q, %q, exit %d", o, e, code)
	}
	c.KillController(t)
	c.RestartController(t)
	if o, _, _ := c.Run(t, "sinfo", "-h", "-o", "%P"); o != "debug*\npartition2\n" {
		t.Errorf("partitions after the delete and a restart: %q", o)
	}
}

// TestPreempt_GraceTime: outside GANG, a partition's GraceTime=5 first records the
// preemption (PreemptTime) while the job still runs, and the job
// is cancelled once the grace is over, its output saying so.
func TestPreempt_GraceTime(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf: "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL\n",
		Partitions: "PartitionName=low Nodes=n1 PriorityTier=1 GraceTime=5\n" +
			"PartitionName=high Nodes=n1 PriorityTier=2 PreemptMode=off\n"})
	low, _ := startLow(t, c)
	high := submit(t, c, "-p", "high", "--exclusive", "-t", "5", "-o", "/dev/null", "--wrap", "sleep 300")
	graceLine := regexp.MustCompile(`(?m)^   PreemptEligibleTime=\S+ PreemptTime=\d{4}-`)
	var first string // the first view with a PreemptTime: the grace time's start
	waitFor(t, "the grace time to start", func() bool {
		first = showJob(t, c, low)
		return graceLine.MatchString(first)
	})
	if !strings.Contains(first, "JobState=RUNNING ") {
		t.Errorf("the job is not running through its grace time:\n%s", first)
	}
	c.WaitJob(t, low, states.JobPreempted)
	c.WaitJob(t, high, states.JobRunning)
	waitPreemptedLine(t, c, low)
	// squeue's PREEMPT_TIME shows it too.
	if o, _, _ := c.Run(t, "squeue", "-h", "-t", "all", "-j", fmt.Sprint(low), "-O", "preempttime"); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\s*$`).MatchString(o) {
		t.Errorf("squeue -O preempttime = %q, want the preemption's time", o)
	}
}

// TestPreempt_ExemptTime: PreemptExemptTime moves PreemptEligibleTime past the start.
func TestPreempt_ExemptTime(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf:  "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL\nPreemptExemptTime=00:10:00\n",
		Partitions: "PartitionName=low Nodes=n1 PriorityTier=1\n"})
	low, _ := startLow(t, c)
	out := showJob(t, c, low)
	m := regexp.MustCompile(`StartTime=(\S+) `).FindStringSubmatch(out)
	e := regexp.MustCompile(`(?m)^   PreemptEligibleTime=(\S+) PreemptTime=None$`).FindStringSubmatch(out)
	if m == nil || e == nil {
		t.Fatalf("scontrol show job lacks StartTime or PreemptEligibleTime:\n%s", out)
	}
	start, err1 := time.ParseInLocation("2006-01-02T15:04:05", m[1], time.Local)
	elig, err2 := time.ParseInLocation("2006-01-02T15:04:05", e[1], time.Local)
	if err1 != nil || err2 != nil || elig.Sub(start) != 10*time.Minute {
		t.Errorf("PreemptEligibleTime %s, StartTime %s: want 10 minutes apart", e[1], m[1])
	}
}

package e2e_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestExclusiveUser: a --exclusive=user job, or any job of a partition with
// ExclusiveUser=YES, keeps its node to its user while it runs, as the reference Slurm 22.05
// did with root and a second user on one node: the other user's job waits (Resources) until
// it ends, scontrol shows the node's Owner and the job's OverSubscribe=USER, and a
// --exclusive=user job does not go where another user's job runs.
func TestExclusiveUser(t *testing.T) {
	u := newAccount(t)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300,
		Partitions: "PartitionName=euser Nodes=ALL ExclusiveUser=YES State=UP\n"})
	openToUsers(t, c)
	dir := userDir(t, c, u)
	sh := func(name string, args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, name, args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d, stderr %q", name, args, code, errOut)
		}
		return out
	}
	submit := func(args ...string) uint32 {
		t.Helper()
		out := sh("sbatch", append([]string{"--parsable", "-o", "/dev/null"}, args...)...)
		id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if err != nil {
			t.Fatalf("sbatch --parsable printed %q", out)
		}
		return uint32(id)
	}
	owner := func() string {
		t.Helper()
		for _, f := range strings.Fields(sh("scontrol", "show", "node", "n1")) {
			if strings.HasPrefix(f, "Owner=") {
				return f
			}
		}
		return ""
	}
	waitReason := func(id uint32, want string) {
		t.Helper()
		waitFor(t, fmt.Sprintf("job %d pending with %s", id, want), func() bool {
			return sh("squeue", "-h", "-j", fmt.Sprint(id), "-o", "%t %r") == "PD "+want+"\n"
		})
	}

	mine := submit("--exclusive=user", "-n1", "--wrap", "sleep 300")
	c.WaitJob(t, mine, states.JobRunning)
	if got := sh("squeue", "-h", "-j", fmt.Sprint(mine), "-o", "%h"); got != "USER\n" {
		t.Errorf("--exclusive=user job: squeue %%h = %q, want USER", got)
	}
	if got := owner(); got != "Owner=root(0)" {
		t.Errorf("node of a running --exclusive=user job: %s, want Owner=root(0)", got)
	}
	theirs := sbatchAs(t, c, u, dir, "-o", "/dev/null", "-n1", "--wrap", "sleep 300")
	waitReason(theirs, "Resources")

	// Once it ends the node serves everyone again.
	sh("scancel", fmt.Sprint(mine))
	c.WaitJob(t, theirs, states.JobRunning)
	if got := owner(); got != "Owner=N/A" {
		t.Errorf("node after the --exclusive=user job ended: %s, want Owner=N/A", got)
	}
	// A --exclusive=user job does not go where another user's job runs.
	again := submit("--exclusive=user", "-n1", "--wrap", "sleep 300")
	waitReason(again, "Resources")
	sh("scancel", fmt.Sprint(again))
	runAs(t, c, u, dir, "scancel", fmt.Sprint(theirs))
	c.WaitJob(t, theirs, states.JobCancelled)

	// A partition with ExclusiveUser=YES does the same for every job.
	part := submit("-p", "euser", "-n1", "--wrap", "sleep 300")
	c.WaitJob(t, part, states.JobRunning)
	if got := sh("scontrol", "show", "job", fmt.Sprint(part)); !strings.Contains(got, "OverSubscribe=USER") {
		t.Errorf("job of an ExclusiveUser partition: want OverSubscribe=USER in\n%s", got)
	}
	other := sbatchAs(t, c, u, dir, "-o", "/dev/null", "-n1", "--wrap", "sleep 300")
	waitReason(other, "Resources")
	sh("scancel", fmt.Sprint(part))
	c.WaitJob(t, other, states.JobRunning)
	runAs(t, c, u, dir, "scancel", fmt.Sprint(other))
}

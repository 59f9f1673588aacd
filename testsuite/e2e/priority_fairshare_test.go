package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestMultifactor_FairShare (issue 6): with the embedded accounting, what a user has run
// lowers the fair-share factor of their next jobs. Root runs a 4-CPU job, then root and a
// user who has run nothing each queue a job behind a full node. Fair Tree over those two
// users ranks the user without usage first (factor 2/2) and root second (1/2), so sprio
// shows FAIRSHARE 10000 and 5000 and the user's job is first in priority order. The
// reference runs without a database, where Slurm's fair-share factor is always 0; the
// values follow Slurm 22.05's fair_tree.c.
func TestMultifactor_FairShare(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, ExtraConf: "PriorityType=priority/multifactor\n" +
		"AccountingStorageType=accounting_storage/orbit\nPriorityWeightFairshare=10000\nPriorityWeightAge=0\n"})
	u := newAccount(t)
	openToUsers(t, c)
	dir := userDir(t, c, u)
	c.WaitNodesIdle(t)

	used := submit(t, c, "-n", "4", "--wrap", "sleep 1")
	c.WaitJob(t, used, states.JobComplete)
	fill := submit(t, c, "-n", "4", "--wrap", "sleep 300") // keeps the others pending
	c.WaitJob(t, fill, states.JobRunning)
	theirs := sbatchAs(t, c, u, dir, "--wrap", "true")
	mine := submit(t, c, "--wrap", "true")

	out, errOut, code := c.Run(t, "sprio", "-h", "-o", "%i %F %Y")
	if code != 0 {
		t.Fatalf("sprio: exit %d: %s", code, errOut)
	}
	for _, want := range []string{fmt.Sprintf("%d 10000 10000\n", theirs), fmt.Sprintf("%d 5000 5000\n", mine)} {
		if !strings.Contains(out, want) {
			t.Errorf("sprio should show %q:\n%s", want, out)
		}
	}
	out, errOut, code = c.Run(t, "squeue", "-h", "-t", "PD", "-S", "-p", "-o", "%i")
	if code != 0 || out != fmt.Sprintf("%d\n%d\n", theirs, mine) {
		t.Errorf("squeue by priority: exit %d, stderr %q:\n%s\nwant %d then %d", code, errOut, out, theirs, mine)
	}
}

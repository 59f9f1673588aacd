package e2e_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestPartitionUpdateAccess: scontrol update PartitionName= sets a partition's flags, limits
// and access lists as the reference does (its show partition lines after the same updates),
// they survive a controller restart, and they act: a Hidden partition is left out of sinfo
// and scontrol show partition for users (not for root, nor with -a), and its jobs out of
// their squeue (but with -a or -j); a partition whose AllowGroups leave a user out is left
// out for that user too, and AllowGroups keeps the user's jobs out from the moment it is
// set.
func TestPartitionUpdateAccess(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	openToUsers(t, c)
	u := newAccount(t)
	dir := userDir(t, c, u)
	run := func(args ...string) {
		t.Helper()
		if _, errOut, code := c.Run(t, "scontrol", args...); code != 0 {
			t.Fatalf("scontrol %q: exit %d: %s", args, code, errOut)
		}
	}
	run("create", "PartitionName=tp1", "Nodes=n1")
	run("update", "PartitionName=tp1", "Hidden=yes", "LLN=y", "ExclusiveUser=yes", "DisableRootJobs=yes",
		"MaxCPUsPerNode=1", "AllowGroups=root", "AllowAccounts=a,b", "DenyQos=low", "Alternate=debug",
		"DefMemPerCPU=100", "MaxMemPerNode=1000")
	want := []string{
		"AllowGroups=root AllowAccounts=a,b DenyQos=low\n",
		"AllocNodes=ALL Alternate=debug Default=NO QoS=N/A\n",
		"DefaultTime=NONE DisableRootJobs=YES ExclusiveUser=YES GraceTime=0 Hidden=YES\n",
		"LLN=YES MaxCPUsPerNode=1\n",
		"DefMemPerCPU=100 MaxMemPerNode=1000\n",
	}
	check := func(when string) {
		t.Helper()
		out, _, _ := c.Run(t, "scontrol", "show", "partition", "tp1")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: show partition tp1 lacks %q:\n%s", when, w, out)
			}
		}
	}
	check("after the update")
	if _, errOut, code := c.Run(t, "scontrol", "update", "PartitionName=tp1", "Hidden=maybe"); code != 1 ||
		errOut != "scontrol: error: Invalid input: Hidden=maybe\nscontrol: error: Acceptable Hidden values are YES and NO\nslurm_update error: No error\n" {
		t.Errorf("Hidden=maybe: exit %d, stderr %q", code, errOut)
	}
	c.RestartController(t)
	check("after a controller restart")

	if out, _, _ := c.Run(t, "sinfo", "-h", "-o", "%P"); out != "debug*\ntp1\n" {
		t.Errorf("root's sinfo: %q (operators see hidden partitions)", out)
	}
	if out, _, _ := runAs(t, c, u, dir, "sinfo", "-h", "-o", "%P"); out != "debug*\n" {
		t.Errorf("a user's sinfo: %q, want the hidden partition left out", out)
	}
	if out, _, _ := runAs(t, c, u, dir, "sinfo", "-a", "-h", "-o", "%P"); out != "debug*\ntp1\n" {
		t.Errorf("a user's sinfo -a: %q", out)
	}
	if out, _, code := runAs(t, c, u, dir, "scontrol", "show", "partition", "tp1"); code != 1 || out != "Partition tp1 not found\n" {
		t.Errorf("a user's show partition tp1: exit %d, %q", code, out)
	}
	if _, errOut, code := runAs(t, c, u, dir, "sbatch", "-H", "-p", "tp1", "--wrap", "true"); code != 1 ||
		errOut != "sbatch: error: Batch job submission failed: User's group not permitted to use this partition\n" {
		t.Errorf("sbatch by a user outside AllowGroups: exit %d, %q", code, errOut)
	}
	// Not hidden, but AllowGroups leaves the user out: still not listed for the user.
	run("update", "PartitionName=tp1", "Hidden=no")
	if out, _, _ := runAs(t, c, u, dir, "sinfo", "-h", "-o", "%P"); out != "debug*\n" {
		t.Errorf("a user's sinfo with a partition of AllowGroups=root: %q", out)
	}
	run("update", "PartitionName=tp1", "AllowGroups=ALL")
	if out, _, _ := runAs(t, c, u, dir, "sinfo", "-h", "-o", "%P"); out != "debug*\ntp1\n" {
		t.Errorf("a user's sinfo once AllowGroups=ALL: %q", out)
	}
	id := sbatchAs(t, c, u, dir, "-H", "-p", "tp1", "--wrap", "true")
	c.Run(t, "scancel", strconv.Itoa(int(id)))

	// A hidden partition's jobs: left out of a user's squeue, but with -a or -j.
	run("create", "PartitionName=tp2", "Nodes=n2", "Hidden=yes")
	hidden := submit(t, c, "-H", "-p", "tp2", "--wrap", "true")
	job := strconv.Itoa(int(hidden))
	for _, k := range []struct {
		args []string
		want string
	}{
		{[]string{"-h", "-o", "%i"}, ""},
		{[]string{"-a", "-h", "-o", "%i"}, job + "\n"},
		{[]string{"-j", job, "-h", "-o", "%i"}, job + "\n"},
	} {
		if out, _, _ := runAs(t, c, u, dir, "squeue", k.args...); out != k.want {
			t.Errorf("a user's squeue %q with a job in a hidden partition: %q, want %q", k.args, out, k.want)
		}
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-o", "%i"); out != job+"\n" {
		t.Errorf("root's squeue with a job in a hidden partition: %q", out)
	}
	c.Run(t, "scancel", job)
}

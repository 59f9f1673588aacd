package e2e_test

import (
	"fmt"
	"os/user"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestPartAccess_AsUsers: partitions' AllowGroups, RootOnly and DisableRootJobs as users
// meet them through sbatch, srun and scontrol, with Slurm 22.05's messages and exit codes
// (recorded against the reference: a user outside AllowGroups is refused at submit, root
// never; a job moved to a partition its user may not use is moved all the same and the
// update answers "Requested partition configuration not available now").
func TestPartAccess_AsUsers(t *testing.T) {
	a, b := newAccount(t), newAccount(t)
	g, err := user.LookupGroupId(strconv.Itoa(int(a.gid)))
	if err != nil {
		t.Fatalf("%s's primary group: %v", a.name, err)
	}
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300, Partitions: fmt.Sprintf(
		"PartitionName=mine Nodes=ALL AllowGroups=nosuchgroup,%s\n"+
			"PartitionName=rootp Nodes=ALL RootOnly=YES\n"+
			"PartitionName=nroot Nodes=ALL DisableRootJobs=YES\n", g.Name)})
	openToUsers(t, c)
	dirA, dirB := userDir(t, c, a), userDir(t, c, b)

	ran := sbatchAs(t, c, a, dirA, "-p", "mine", "--wrap", "true")
	c.WaitJob(t, ran, states.JobComplete)

	for _, r := range []struct {
		u      *account // nil: root
		dir    string
		cmd    string
		args   []string
		stderr string
		code   int
	}{
		{&b, dirB, "sbatch", []string{"-p", "mine", "--wrap", "true"}, "sbatch: error: Batch job submission failed: User's group not permitted to use this partition\n", 1},
		{&b, dirB, "srun", []string{"-p", "mine", "true"}, "srun: error: Unable to allocate resources: User's group not permitted to use this partition\n", 1},
		{&a, dirA, "sbatch", []string{"-p", "rootp", "--wrap", "true"}, "sbatch: error: Batch job submission failed: Access/permission denied\n", 1},
		{nil, "", "sbatch", []string{"-p", "nroot", "--wrap", "true"}, "sbatch: error: Batch job submission failed: Invalid user id\n", 1},
	} {
		var out, errOut string
		var code int
		if r.u == nil {
			out, errOut, code = c.Run(t, r.cmd, r.args...)
		} else {
			out, errOut, code = runAs(t, c, *r.u, r.dir, r.cmd, r.args...)
		}
		if out != "" || errOut != r.stderr || code != r.code {
			t.Errorf("%s %s: %q, %q, exit %d; want stderr %q, exit %d", r.cmd, strings.Join(r.args, " "), out, errOut, code, r.stderr, r.code)
		}
	}

	// b's held job moved by root into a's partition: moved, and Slurm's answer.
	held := sbatchAs(t, c, b, dirB, "-H", "--wrap", "true")
	_, errOut, code := c.Run(t, "scontrol", "update", fmt.Sprintf("JobId=%d", held), "Partition=mine")
	if want := fmt.Sprintf("Requested partition configuration not available now for job %d\n", held); errOut != want || code != 1 {
		t.Errorf("scontrol update Partition=mine of %s's job: %q, exit %d; want %q, exit 1", b.name, errOut, code, want)
	}
	if out, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(held), "-o", "%P %r"); out != "mine JobHeldUser\n" {
		t.Errorf("squeue after the move = %q, want %q", out, "mine JobHeldUser\n")
	}
}

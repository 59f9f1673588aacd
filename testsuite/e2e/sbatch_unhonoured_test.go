package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSbatchUnhonoured: sbatch refuses an option Orbit does not honour (issue 3) with a
// message naming it and exit 1, from the command line, #SBATCH or the environment, and
// submits nothing; an honoured option next to it is still accepted and the job runs. A
// reservation, which Orbit does not have, gets the controller's answer for an unknown one,
// and more licenses than configured Slurm's refusal (the texts recorded from the reference).
func TestSbatchUnhonoured(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300, ExtraConf: "Licenses=matlab:2\n"})
	script := filepath.Join(c.WorkDir, "resv.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n#SBATCH --reservation=maint\ntrue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const badResv = "sbatch: error: Batch job submission failed: Requested reservation is invalid\n"
	for _, tc := range []struct {
		env  []string
		args []string
		want string // stderr
	}{
		{nil, []string{"-J", "unh_lic", "-L", "matlab:3", "--wrap", "true"}, "sbatch: error: Batch job submission failed: Invalid license specification\n"},
		{[]string{"SBATCH_RESERVATION=maint"}, []string{"-J", "unh_env", "--wrap", "true"}, badResv},
		{nil, []string{"-J", "unh_resv", script}, badResv},
		{nil, []string{"-J", "unh_mcs", "--exclusive=mcs", "--wrap", "true"}, "sbatch: error: --exclusive=mcs is not supported by Orbit's sbatch yet\n"},
	} {
		out, errOut, code := c.RunEnv(t, tc.env, "sbatch", tc.args...)
		want := tc.want
		if code != 1 || out != "" || errOut != want {
			t.Errorf("sbatch %v (env %v): exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, tc.env, code, out, errOut, want)
		}
	}
	if out, errOut, code := c.Run(t, "squeue", "-h", "-o", "%i %j"); code != 0 || out != "" {
		t.Errorf("squeue after refused submissions: exit %d, stdout %q, stderr %q; want no job", code, out, errOut)
	}

	// Honoured (or only shown, as Slurm without accounting shows them): accepted and run.
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-J", "unh_ok", "--comment=kept",
		"--signal=B:USR1@10", "--signal=USR2@5", "-s", "-o", "/dev/null", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch with honoured options: exit %d, stderr %q", code, errOut)
	}
	id64, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	id := uint32(id64)
	c.WaitJob(t, id, states.JobComplete)
	// -s in a partition with OverSubscribe=NO: Slurm ignores it for placement but shows it.
	show, errOut, code := c.Run(t, "squeue", "-h", "-t", "all", "-o", "%i %j %k %h")
	if code != 0 || strings.TrimSpace(show) != strings.TrimSpace(out)+" unh_ok kept YES" {
		t.Errorf("squeue: exit %d, stdout %q, stderr %q; want only job %d named unh_ok with comment kept, oversubscribe YES", code, show, errOut, id)
	}
}

// TestSbatchPriority_Operator: sbatch --priority=N from an operator (root here) sets the
// job's priority to N, shown by squeue %Q and scontrol show job, and kept across a
// controller crash; an ordinary user's --priority is ignored without a word, as in Slurm
// 22.05, and the user's job gets the next priority/basic value after the one before the
// operator's job (a set priority does not move that counter).
func TestSbatchPriority_Operator(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	u := newAccount(t)
	openToUsers(t, c)
	dir := userDir(t, c, u)
	later := []string{"--begin=now+3600", "-o", "/dev/null", "--wrap", "true"}
	plain := submit(t, c, append([]string{"-J", "prio_plain"}, later...)...)
	set := submit(t, c, append([]string{"-J", "prio_set", "--priority=7"}, later...)...)
	out, errOut, code := runAs(t, c, u, dir, "sbatch", append([]string{"-J", "prio_user", "--priority=7"}, later...)...)
	m := submitted.FindStringSubmatch(out)
	if code != 0 || m == nil || errOut != "" {
		t.Fatalf("sbatch --priority=7 as %s: exit %d, stdout %q, stderr %q; want a job and no message", u.name, code, out, errOut)
	}
	check := func(when string) {
		t.Helper()
		base := c.Job(t, plain).Priority
		want := fmt.Sprintf("%d prio_plain %d\n%d prio_set 7\n%s prio_user %d\n", plain, base, set, m[1], base-1)
		got, errOut, code := c.Run(t, "squeue", "-h", "-S", "i", "-o", "%i %j %Q")
		if code != 0 || got != want {
			t.Errorf("%s: squeue %%Q: exit %d, %q %q; want %q", when, code, got, errOut, want)
		}
		show, _, _ := c.Run(t, "scontrol", "show", "job", fmt.Sprint(set))
		if !strings.Contains(show, " Priority=7 ") {
			t.Errorf("%s: scontrol show job %d has no Priority=7:\n%s", when, set, show)
		}
	}
	check("after submit")
	c.KillController(t)
	c.RestartController(t)
	check("after a controller crash")
}

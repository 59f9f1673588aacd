package e2e_test

import (
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
// submits nothing; an honoured option next to it is still accepted and the job runs.
func TestSbatchUnhonoured(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	script := filepath.Join(c.WorkDir, "resv.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n#SBATCH --reservation=maint\ntrue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env    []string
		args   []string
		option string
	}{
		{nil, []string{"-J", "unh_gres", "--gres=gpu:1", "--wrap", "true"}, "--gres"},
		{[]string{"SBATCH_GRES=gpu:1"}, []string{"-J", "unh_env", "--wrap", "true"}, "--gres"},
		{nil, []string{"-J", "unh_resv", script}, "--reservation"},
		{nil, []string{"-J", "unh_sig", "--signal=USR1@30", "--wrap", "true"}, "--signal without B:"},
	} {
		out, errOut, code := c.RunEnv(t, tc.env, "sbatch", tc.args...)
		want := "sbatch: error: " + tc.option + " is not supported by Orbit's sbatch yet\n"
		if code != 1 || out != "" || errOut != want {
			t.Errorf("sbatch %v (env %v): exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.args, tc.env, code, out, errOut, want)
		}
	}
	if out, errOut, code := c.Run(t, "squeue", "-h", "-o", "%i %j"); code != 0 || out != "" {
		t.Errorf("squeue after refused submissions: exit %d, stdout %q, stderr %q; want no job", code, out, errOut)
	}

	// Honoured (or only shown, as Slurm without accounting shows them): accepted and run.
	out, errOut, code := c.Run(t, "sbatch", "--parsable", "-J", "unh_ok", "--comment=kept",
		"--signal=B:USR1@10", "-o", "/dev/null", "--wrap", "true")
	if code != 0 {
		t.Fatalf("sbatch with honoured options: exit %d, stderr %q", code, errOut)
	}
	id64, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	id := uint32(id64)
	c.WaitJob(t, id, states.JobComplete)
	show, errOut, code := c.Run(t, "squeue", "-h", "-t", "all", "-o", "%i %j %k")
	if code != 0 || strings.TrimSpace(show) != strings.TrimSpace(out)+" unh_ok kept" {
		t.Errorf("squeue: exit %d, stdout %q, stderr %q; want only job %d named unh_ok with comment kept", code, show, errOut, id)
	}
}

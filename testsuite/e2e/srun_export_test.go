package e2e_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunExport: srun --export (and SLURM_EXPORT_ENV, which sbatch --export sets for the
// job's steps, and SRUN_EXPORT_ENV over it) chooses what of srun's environment the tasks get,
// as Slurm 22.05's _build_user_env: everything when unset or ALL; otherwise the listed
// variables, named or given a value, and srun's SLURM_* variables; NONE ends the list; with
// ALL listed srun's own values win. Names with dots pass (Slurm's test1.28).
func TestSrunExport(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, InProcess: true})
	base := []string{"ORBIT_X=1", "ORBIT_Y.Z=2", "SLURM_FOO=3"}
	for _, tc := range []struct {
		env  []string
		args []string
		want []string
	}{
		{nil, nil, []string{"ORBIT_X=1", "ORBIT_Y.Z=2", "SLURM_FOO=3"}},
		{nil, []string{"--export=ALL"}, []string{"ORBIT_X=1", "ORBIT_Y.Z=2", "SLURM_FOO=3"}},
		{nil, []string{"--export=NONE"}, []string{"SLURM_FOO=3"}},
		{nil, []string{"--export=ORBIT_X"}, []string{"ORBIT_X=1", "SLURM_FOO=3"}},
		{nil, []string{"--export=ORBIT_W=5,ORBIT_Y.Z"}, []string{"ORBIT_W=5", "ORBIT_Y.Z=2", "SLURM_FOO=3"}},
		{nil, []string{"--export=ORBIT_T.1=7"}, []string{"ORBIT_T.1=7", "SLURM_FOO=3"}},
		{nil, []string{"--export=ALL,ORBIT_X=9,ORBIT_W=5"}, []string{"ORBIT_W=5", "ORBIT_X=1", "ORBIT_Y.Z=2", "SLURM_FOO=3"}},
		{nil, []string{"--export=ORBIT_W=5,NONE,ORBIT_X"}, []string{"ORBIT_W=5", "SLURM_FOO=3"}},
		{nil, []string{"--export='ORBIT_W=a,b'"}, []string{"ORBIT_W=a,b", "SLURM_FOO=3"}},
		{[]string{"SLURM_EXPORT_ENV=NONE"}, nil, []string{"SLURM_EXPORT_ENV=NONE", "SLURM_FOO=3"}},
		{[]string{"SLURM_EXPORT_ENV=NONE"}, []string{"--export=ALL"}, []string{"ORBIT_X=1", "ORBIT_Y.Z=2", "SLURM_EXPORT_ENV=NONE", "SLURM_FOO=3"}},
		{[]string{"SLURM_EXPORT_ENV=NONE", "SRUN_EXPORT_ENV=ORBIT_X"}, nil, []string{"ORBIT_X=1", "SLURM_EXPORT_ENV=NONE", "SLURM_FOO=3"}},
	} {
		args := append(append([]string{"-N1"}, tc.args...), "/usr/bin/env")
		out, errOut, code := c.RunEnv(t, append(slices.Clone(base), tc.env...), "srun", args...)
		if code != 0 {
			t.Errorf("%v srun %q: exit %d, stderr %q", tc.env, tc.args, code, errOut)
			continue
		}
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "ORBIT_") || strings.HasPrefix(l, "SLURM_FOO=") || strings.HasPrefix(l, "SLURM_EXPORT_ENV=") {
				got = append(got, l)
			}
		}
		sort.Strings(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v srun %q: tasks got %q, want %q", tc.env, tc.args, got, tc.want)
		}
	}
	// Without PATH a bare command name is not found on the node (the reference's lines).
	_, errOut, code := c.RunEnv(t, base, "srun", "-N1", "--export=NONE", "env")
	want := "slurmstepd-n1: error: execve(): env: No such file or directory\nsrun: error: n1: task 0: Exited with exit code 2\n"
	if code != 2 || errOut != want {
		t.Errorf("srun --export=NONE env: exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
}

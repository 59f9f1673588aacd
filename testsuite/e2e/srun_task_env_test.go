package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunTaskEnv: what the reference's tasks see of srun's and slurmstepd's settings.
// TMPDIR: the first task of each node gets /tmp when srun has none (the others nothing), a
// given TMPDIR is made (0700) or, when it cannot be, replaced by /tmp with slurmstepd's
// error lines; SRUN_DEBUG is srun's log level (3, one more per -v, 2 with -Q); a
// --cpu-bind=verbose merges into what --threads-per-core or --hint bind, and -v's launch
// line names that binding (the cluster's TaskPlugin is task/none, as the reference's).
func TestSrunTaskEnv(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, InProcess: true})
	run := func(env []string, args ...string) (string, string) {
		t.Helper()
		base := slices.DeleteFunc(os.Environ(), func(kv string) bool {
			return strings.HasPrefix(kv, "TMPDIR=") || strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SRUN_")
		})
		cmd := exec.Command(testbin.Path(t, "srun"), args...)
		cmd.Env = append(append(base, "SLURM_CONF="+c.ConfPath), env...)
		cmd.Dir = c.WorkDir
		out, errOut, code := cluster.RunCommand(t, cmd)
		if code != 0 {
			t.Fatalf("srun %q: exit %d: %s", args, code, errOut)
		}
		return out, errOut
	}
	grepSorted := func(out, what string) string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, what) {
				lines = append(lines, l)
			}
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	if out, _ := run(nil, "-N1", "-n3", "-l", "env"); grepSorted(out, "TMPDIR") != "0: TMPDIR=/tmp" {
		t.Errorf("TMPDIR of 3 tasks on one node: %q", grepSorted(out, "TMPDIR"))
	}
	if out, _ := run(nil, "-N2", "-n2", "-l", "env"); grepSorted(out, "TMPDIR") != "0: TMPDIR=/tmp\n1: TMPDIR=/tmp" {
		t.Errorf("TMPDIR of a task on each of two nodes: %q", grepSorted(out, "TMPDIR"))
	}
	made := filepath.Join(t.TempDir(), "newtmp")
	if out, _ := run([]string{"TMPDIR=" + made}, "-n1", "env"); grepSorted(out, "TMPDIR") != "TMPDIR="+made {
		t.Errorf("a TMPDIR to make: %q", grepSorted(out, "TMPDIR"))
	}
	if fi, err := os.Stat(made); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("TMPDIR %s not made 0700: %v %v", made, fi, err)
	}
	file := filepath.Join(c.WorkDir, "afile")
	os.WriteFile(file, nil, 0o644)
	out, errOut := run([]string{"TMPDIR=" + file}, "-n1", "env")
	if grepSorted(out, "TMPDIR") != "TMPDIR=/tmp" || !strings.Contains(errOut, ": error: TMPDIR ["+file+"] is not a directory\n") ||
		!strings.Contains(errOut, ": error: Setting TMPDIR to /tmp\n") {
		t.Errorf("a TMPDIR that is a file: stdout %q, stderr %q", grepSorted(out, "TMPDIR"), errOut)
	}
	for args, want := range map[string]string{"": "SRUN_DEBUG=3", "-v": "SRUN_DEBUG=4", "-vvv": "SRUN_DEBUG=6", "-Q": "SRUN_DEBUG=2"} {
		a := append(strings.Fields(args), "-n1", "env")
		if out, _ := run(nil, a...); grepSorted(out, "SRUN_DEBUG") != want {
			t.Errorf("srun %s: %q, want %s", args, grepSorted(out, "SRUN_DEBUG"), want)
		}
	}
	for args, want := range map[string][2]string{
		"--threads-per-core=1 --cpu-bind=verbose": {"SLURM_CPU_BIND=verbose,threadsverbose\nSLURM_CPU_BIND_LIST=verbose\nSLURM_CPU_BIND_TYPE=threads\nSLURM_CPU_BIND_VERBOSE=verbose", "CpuBindType=verbose,threads\n"},
		"--hint=nomultithread --cpu-bind=verbose": {"SLURM_CPU_BIND=verbose,threads\nSLURM_CPU_BIND_LIST=\nSLURM_CPU_BIND_TYPE=threads\nSLURM_CPU_BIND_VERBOSE=verbose", "CpuBindType=verbose,threads,one_thread\n"},
		"--hint=compute_bound":                    {"SLURM_CPU_BIND=quiet,cores\nSLURM_CPU_BIND_LIST=\nSLURM_CPU_BIND_TYPE=cores\nSLURM_CPU_BIND_VERBOSE=quiet", "CpuBindType=cores\n"},
	} {
		a := append(append([]string{"-v"}, strings.Fields(args)...), "-n1", "env")
		out, errOut := run(nil, a...)
		if grepSorted(out, "CPU_BIND") != want[0] || !strings.Contains(errOut, "launch_p_step_launch: "+want[1]) {
			t.Errorf("srun %s: %q\n%s", args, grepSorted(out, "CPU_BIND"), errOut)
		}
	}
	// Under task/none the reference says twice that it cannot bind when --threads-per-core
	// adds its binding to a --cpu-bind=verbose (it checks the binding again), else once.
	for args, want := range map[string]int{"--threads-per-core=1 --cpu-bind=verbose": 2, "--cpu-bind=verbose": 1, "--threads-per-core=1": 1} {
		_, errOut := run(nil, append(strings.Fields(args), "-n1", "true")...)
		if n := strings.Count(errOut, "srun: cluster configuration lacks support for cpu binding\n"); n != want {
			t.Errorf("srun %s: %d lines saying it cannot bind, want %d:\n%s", args, n, want, errOut)
		}
	}
}

package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestRlimitPropagation: the submitting shell's soft limits reach the tasks as Slurm
// propagates them, on a cluster whose slurm.conf propagates every limit but NOFILE
// (PropagateResourceLimitsExcept=NOFILE): `ulimit -f N` before srun or sbatch reaches the
// tasks and the batch script (FSIZE stands for any limit a shell may lower, as with
// `ulimit -c 0`, whatever this machine's own limits are), NOFILE stays the node's unless
// --propagate names it, the SLURM_RLIMIT_* variables never reach a task, and a bad
// --propagate list is refused with Slurm's two lines before anything is submitted. What the node's own limits are is
// measured, not assumed: a shell this test starts has them (the cluster's daemons are its
// children too).
func TestRlimitPropagation(t *testing.T) {
	for _, b := range []string{"srun", "sbatch"} {
		testbin.Path(t, b) // built before the cluster runs jobs that call them
	}
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300,
		ExtraConf: "PropagateResourceLimitsExcept=NOFILE\n"})
	env := rlimitEnv(t, c)
	// shell runs script under bash in the cluster's work directory with the commands' env.
	shell := func(script string) (string, string, int) {
		t.Helper()
		cmd := exec.Command("/bin/bash", "-c", script)
		cmd.Env, cmd.Dir = env, c.WorkDir
		return cluster.RunCommand(t, cmd)
	}
	node, _, _ := shell("ulimit -n; ulimit -f")
	nodeLim := strings.Fields(node)
	if len(nodeLim) != 2 {
		t.Fatalf("this machine's limits: %q", node)
	}
	if nodeLim[0] == "517" || nodeLim[1] == "123456" {
		t.Skipf("the node's own limits (NOFILE %s, FSIZE %s) equal the values this test propagates", nodeLim[0], nodeLim[1])
	}

	t.Run("srun", func(t *testing.T) {
		for _, tc := range []struct{ opts, want string }{
			{"", nodeLim[0] + " 123456 0"},                             // FSIZE propagated by slurm.conf, NOFILE excepted
			{"--propagate=NOFILE", "517 " + nodeLim[1] + " 0"},         // the user's list replaces slurm.conf's
			{"--propagate", "517 123456 0"},                            // ALL
			{"--propagate=NONE", nodeLim[0] + " " + nodeLim[1] + " 0"}, // nothing
			{"--propagate=RLIMIT_FSIZE,NOFILE", "517 123456 0"},
		} {
			out, errOut, code := shell(`ulimit -n 517 -f 123456; exec srun -N1 ` + tc.opts +
				` bash -c 'echo $(ulimit -n) $(ulimit -f) $(env | grep -c ^SLURM_RLIMIT_)'`)
			if code != 0 || strings.TrimSpace(out) != tc.want || errOut != "" {
				t.Errorf("srun %s: exit %d, stdout %q, stderr %q; want %q (NOFILE, FSIZE, SLURM_RLIMIT_* count)",
					tc.opts, code, out, errOut, tc.want)
			}
		}
	})

	t.Run("batch script and its steps", func(t *testing.T) {
		// The batch script's FSIZE and NOFILE, the SLURM_RLIMIT_* count, then a step's FSIZE
		// before and after the script lowers its own (as `ulimit -c 0` before srun would).
		// (With --export=NONE the script runs with the login environment, whose PATH does
		// not lead to Orbit's srun here.)
		script := "ulimit -f; ulimit -n; env | grep -c ^SLURM_RLIMIT_"
		steps := "; srun bash -c 'ulimit -f'; ulimit -f 654321; srun bash -c 'ulimit -f'"
		for _, tc := range []struct{ name, opts, script, want string }{
			{"conf", "", script + steps, "123456\n" + nodeLim[0] + "\n0\n123456\n654321\n"},
			{"export_none", "--export=NONE", script, "123456\n" + nodeLim[0] + "\n0\n"},
			{"propagate_nofile", "--propagate=NOFILE", script + steps, nodeLim[1] + "\n517\n0\n" + nodeLim[1] + "\n654321\n"},
		} {
			outFile := filepath.Join(c.WorkDir, "rlimit_"+tc.name+".out")
			scriptFile := filepath.Join(c.WorkDir, "rlimit_"+tc.name+".sh")
			// bash, not --wrap's /bin/sh: shells count ulimit -f in different block sizes.
			if err := os.WriteFile(scriptFile, []byte("#!/bin/bash\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := shell(`ulimit -n 517 -f 123456; exec sbatch --parsable -o ` + outFile + ` ` + tc.opts + ` ` + scriptFile)
			if code != 0 {
				t.Fatalf("%s: sbatch exit %d, stderr %q", tc.name, code, errOut)
			}
			id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
			if err != nil {
				t.Fatalf("%s: sbatch --parsable printed %q", tc.name, out)
			}
			if j := c.WaitJob(t, uint32(id), states.JobComplete, states.JobFailed); j == nil {
				t.Fatalf("%s: job %d did not end", tc.name, id)
			}
			got, err := os.ReadFile(outFile)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("%s: job output %q, want %q (FSIZE, NOFILE, SLURM_RLIMIT_* count, then a step's FSIZE before and after the script lowers its own)",
					tc.name, got, tc.want)
			}
		}
	})

	t.Run("bad --propagate", func(t *testing.T) {
		before := len(c.Jobs(t))
		for _, tc := range []struct{ cmd, arg, want string }{
			{"srun", "--propagate=FOO", "srun: error: Bad rlimit name: FOO\nsrun: error: --propagate=FOO is not valid.\n"},
			{"sbatch", "--propagate=CORE,all", "sbatch: error: Bad rlimit name: all\nsbatch: error: --propagate=CORE,all is not valid.\n"},
			{"sbatch", "--propagate=RLIMIT_XX", "sbatch: error: Bad rlimit name: XX\nsbatch: error: --propagate=RLIMIT_XX is not valid.\n"},
		} {
			args := []string{tc.arg, "true"}
			if tc.cmd == "sbatch" {
				args = []string{tc.arg, "--wrap", "true"}
			}
			out, errOut, code := c.Run(t, tc.cmd, args...)
			if code != 1 || out != "" || errOut != tc.want {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", tc.cmd, tc.arg, code, out, errOut, tc.want)
			}
		}
		// salloc has no --propagate in 22.05.
		if _, errOut, code := c.Run(t, "salloc", "--propagate=CORE", "true"); code == 0 || !strings.Contains(errOut, "unrecognized option '--propagate=CORE'") {
			t.Errorf("salloc --propagate: exit %d, stderr %q; want refused as unrecognized", code, errOut)
		}
		if after := len(c.Jobs(t)); after != before {
			t.Errorf("refused submissions created %d jobs", after-before)
		}
	})

	t.Run("bad slurm.conf value", func(t *testing.T) {
		data, err := os.ReadFile(c.ConfPath)
		if err != nil {
			t.Fatal(err)
		}
		// With both keys Slurm reads only PropagateResourceLimitsExcept, so the cluster's is
		// taken out for the bad PropagateResourceLimits to be read.
		bad := filepath.Join(t.TempDir(), "slurm.conf")
		text := strings.ReplaceAll(string(data), "PropagateResourceLimitsExcept=NOFILE\n", "") + "PropagateResourceLimits=CORE,BOGUS\n"
		if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := c.RunEnv(t, []string{"SLURM_CONF=" + bad}, "sbatch", "--wrap", "true")
		want := "sbatch: error: Bad rlimit name: BOGUS\nsbatch: error: Bad PropagateResourceLimits: CORE,BOGUS\n" +
			"sbatch: fatal: Unable to process configuration file\n"
		if code != 1 || out != "" || errOut != want {
			t.Errorf("sbatch with a bad PropagateResourceLimits: exit %d, stdout %q, stderr %q; want exit 1, stderr %q", code, out, errOut, want)
		}
	})
}

// rlimitEnv is the environment the cluster's commands run with (Orbit's first on PATH,
// SLURM_CONF), for commands started through a shell that sets limits first.
func rlimitEnv(t *testing.T, c *cluster.Cluster) []string {
	bin := filepath.Dir(testbin.Path(t, "sbatch"))
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SBATCH_") || strings.HasPrefix(kv, "PATH=")
	})
	return append(env, "PATH="+bin+":"+os.Getenv("PATH"), "SLURM_CONF="+c.ConfPath)
}

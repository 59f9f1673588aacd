package e2e_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrun runs srun on the real binaries: inside a batch job, from outside an allocation,
// exit codes and the step environment.
func TestSrun(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4})
	srun := testbin.Path(t, "srun")

	t.Run("outside allocation, labelled", func(t *testing.T) {
		out, errOut, code := c.Run(t, "srun", "-N2", "-l", "echo", "hi")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		sort.Strings(lines)
		if want := []string{"0: hi", "1: hi"}; !slices.Equal(lines, want) {
			t.Errorf("output %q, want lines %q", out, want)
		}
		for _, j := range c.Jobs(t) {
			if j.Name == "echo" && !states.JobState(j.State).IsFinished() {
				t.Errorf("allocation %d still %s after srun ended", j.JobID, states.JobState(j.State))
			}
		}
	})

	t.Run("exit codes", func(t *testing.T) {
		cases := []struct {
			args     []string
			code     int
			errLines []string
		}{
			{[]string{"sh", "-c", "exit 3"}, 3, []string{"srun: error: n1: task 0: Exited with exit code 3"}},
			{[]string{"sh", "-c", "kill -9 $$"}, 137, []string{"srun: error: n1: task 0: Killed", "srun: Force Terminated StepId="}},
			{[]string{"-n2", "sh", "-c", "exit $SLURM_PROCID"}, 1, []string{"srun: error: n1: task 1: Exited with exit code 1"}},
			{[]string{"true"}, 0, nil},
		}
		for _, tc := range cases {
			_, errOut, code := c.Run(t, "srun", tc.args...)
			if code != tc.code {
				t.Errorf("srun %q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, errOut)
			}
			got := strings.Split(strings.TrimSpace(errOut), "\n")
			if len(tc.errLines) == 0 && strings.TrimSpace(errOut) != "" {
				t.Errorf("srun %q: stderr %q, want none", tc.args, errOut)
			}
			for i, w := range tc.errLines {
				if i >= len(got) || !strings.HasPrefix(got[i], w) {
					t.Errorf("srun %q: stderr %q, want line %d to start %q", tc.args, errOut, i, w)
				}
			}
		}
	})

	t.Run("stdin goes to task 0", func(t *testing.T) {
		out, errOut, code := runStdin(t, c, "hello from stdin\n", "srun", "cat")
		if code != 0 || out != "hello from stdin\n" {
			t.Errorf("srun cat = %q, %q, exit %d", out, errOut, code)
		}
	})

	t.Run("scancel kills the steps", func(t *testing.T) {
		script := writeScript(t, c, "cancel.sh", "#!/bin/sh\n"+srun+" -N2 sh -c 'echo started; exec sleep 299.5'\n")
		id := submit(t, c, "-N2", "-o", "cancel.out", script)
		for i := 0; ; i++ {
			b, _ := os.ReadFile(filepath.Join(c.WorkDir, "cancel.out"))
			if strings.Count(string(b), "started") == 2 {
				break
			}
			if i > 600 {
				t.Fatalf("the step's tasks did not start; output %q", b)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if out, errOut, code := c.Run(t, "scancel", strconv.FormatUint(uint64(id), 10)); code != 0 {
			t.Fatalf("scancel = %q, %q, exit %d", out, errOut, code)
		}
		c.WaitJob(t, id, states.JobCancelled)
		for i := 0; ; i++ {
			if out, _ := exec.Command("pgrep", "-f", "^sleep 299.5$").Output(); len(out) == 0 {
				break
			}
			if i > 600 {
				t.Fatal("the step's tasks outlived scancel")
			}
			time.Sleep(100 * time.Millisecond)
		}
	})

	t.Run("inside a batch job", func(t *testing.T) {
		script := writeScript(t, c, "steps.sh", "#!/bin/sh\n"+srun+" -n 4 -l hostname\n"+srun+" -n2 -l env\n")
		id := submit(t, c, "-N2", "-n4", "-o", "steps.out", script)
		j := c.WaitJob(t, id, states.JobComplete, states.JobFailed)
		b, err := os.ReadFile(filepath.Join(c.WorkDir, "steps.out"))
		if err != nil {
			t.Fatal(err)
		}
		if states.JobState(j.State).Base() != states.JobComplete {
			t.Fatalf("job ended %s; output:\n%s", states.JobState(j.State), b)
		}
		host, _ := os.Hostname()
		var labels []string
		env := map[string]string{}
		sc := bufio.NewScanner(strings.NewReader(string(b)))
		for sc.Scan() {
			label, rest, ok := strings.Cut(sc.Text(), ": ")
			if !ok {
				t.Errorf("unlabelled line %q", sc.Text())
				continue
			}
			if rest == host {
				labels = append(labels, label)
			} else if label == "0" {
				k, v, _ := strings.Cut(rest, "=")
				env[k] = v
			}
		}
		sort.Strings(labels)
		if want := []string{"0", "1", "2", "3"}; !slices.Equal(labels, want) {
			t.Errorf("hostname labels %q, want %q; output:\n%s", labels, want, b)
		}
		golden := goldenNames(t, "env_batch_n2.golden")
		var missing []string
		for _, n := range golden {
			if _, ok := env[n]; !ok {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			t.Errorf("step environment lacks %q (reference names)", missing)
		}
		for k, want := range map[string]string{"SLURM_STEP_ID": "1", "SLURM_STEPID": "1", "SLURM_PROCID": "0",
			"SLURM_NTASKS": "2", "SLURM_STEP_NUM_TASKS": "2", "SLURM_STEP_NODELIST": "n[1-2]",
			"SLURM_STEP_TASKS_PER_NODE": "1(x2)", "SLURM_DISTRIBUTION": "block", "SLURM_NODEID": "0", "SLURM_LOCALID": "0",
			"SLURM_JOB_NODELIST": "n[1-2]", "SLURM_LABELIO": "1"} {
			if env[k] != want {
				t.Errorf("%s=%q, want %q", k, env[k], want)
			}
		}
	})
}

// goldenNames are the variable names of a recorded reference environment.
func goldenNames(t *testing.T, name string) []string {
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "srun", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, _, _ := strings.Cut(l, "=")
		names = append(names, k)
	}
	return names
}

// runStdin runs an Orbit command against c with stdin as its input.
func runStdin(t *testing.T, c *cluster.Cluster, stdin, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(testbin.Path(t, name), args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "SLURM_CONF="+c.ConfPath)
	cmd.Dir = c.WorkDir
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

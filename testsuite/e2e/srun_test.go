package e2e_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
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

	// The reference could not run this case (its step launch timed out), so it is checked
	// against what man srun says: %t in -i names each task's own input file.
	t.Run("per-task input files", func(t *testing.T) {
		for i := range 2 {
			os.WriteFile(filepath.Join(c.WorkDir, fmt.Sprintf("in.%d", i)), []byte(fmt.Sprintf("input of %d\n", i)), 0o644)
		}
		out, errOut, code := c.Run(t, "srun", "-N1", "-n2", "-l", "-i", "in.%t", "cat")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		sort.Strings(lines)
		if want := []string{"0: input of 0", "1: input of 1"}; code != 0 || !slices.Equal(lines, want) {
			t.Errorf("srun -i in.%%t cat = %q, %q, exit %d; want lines %q", out, errOut, code, want)
		}
	})

	// The reference, run twice with the same options, left app.0 "0: run\n0: run\n", app.1
	// likewise, and single.app "one\none\n".
	t.Run("open-mode append", func(t *testing.T) {
		for range 2 {
			if o, e, code := c.Run(t, "srun", "-N1", "-n2", "-l", "--open-mode=append", "-o", "app.%t", "sh", "-c", "echo run"); code != 0 {
				t.Fatalf("srun = %q, %q, exit %d", o, e, code)
			}
			if o, e, code := c.Run(t, "srun", "-N1", "--open-mode=append", "-o", "single.app", "echo", "one"); code != 0 {
				t.Fatalf("srun = %q, %q, exit %d", o, e, code)
			}
		}
		for name, want := range map[string]string{"app.0": "0: run\n0: run\n", "app.1": "1: run\n1: run\n", "single.app": "one\none\n"} {
			if b, _ := os.ReadFile(filepath.Join(c.WorkDir, name)); string(b) != want {
				t.Errorf("%s = %q, want %q", name, b, want)
			}
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
			// No more tasks than nodes and no -m: Slurm's srun asks for (and exports) cyclic.
			"SLURM_STEP_TASKS_PER_NODE": "1(x2)", "SLURM_DISTRIBUTION": "cyclic", "SLURM_NODEID": "0", "SLURM_LOCALID": "0",
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

// TestSrun_TaskIO runs the cases of srun/testdata/taskio/cases.txt (per-task I/O: -o/-e/-i
// patterns, none, task numbers, -l into a file, -u; -K; --multi-prog) with Orbit's srun and
// compares each with the reference's golden, built the same way as record.sh builds it:
// exit code, sorted stdout and stderr lines, and every file the case created with its sorted
// lines; the job id, user, host and times are normalised (they differ between the clusters).
// The cluster has one node, as the reference, and job ids far from task numbers.
func TestSrun_TaskIO(t *testing.T) {
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "srun", "testdata", "taskio")
	cases, err := os.ReadFile(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	confs, _ := filepath.Glob(filepath.Join(dir, "*.conf"))
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 8, MinJobAge: 300, ExtraConf: "FirstJobId=7000000"})
	srun := testbin.Path(t, "srun")
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`)
	for _, line := range strings.Split(strings.TrimSpace(string(cases)), "\n") {
		f := strings.Split(line, "|")
		name, stdin, args := f[0], f[1], f[2:]
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(c.WorkDir, name)
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, p := range confs {
				b, _ := os.ReadFile(p)
				os.WriteFile(filepath.Join(work, filepath.Base(p)), b, 0o644)
			}
			job := "srtio-" + name
			cmd := exec.Command(srun, append([]string{"-J", job}, args...)...)
			cmd.Env, cmd.Dir = commandEnv(c), work
			if stdin != "-" {
				cmd.Stdin = strings.NewReader(strings.ReplaceAll(stdin, `\n`, "\n"))
			}
			var o, e bytes.Buffer
			cmd.Stdout, cmd.Stderr = &o, &e
			code := 0
			var ee *exec.ExitError
			if err := cmd.Run(); errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			var id uint32
			for _, j := range c.Jobs(t) {
				if j.Name == job {
					id = max(id, j.JobID)
				}
			}
			idRE := regexp.MustCompile(`(^|[^0-9])` + strconv.FormatUint(uint64(id), 10) + `([^0-9]|$)`)
			norm := func(s string) string {
				for i := 0; i < 2 && id != 0; i++ { // adjacent matches share a delimiter
					s = idRE.ReplaceAllString(s, "${1}JOB${2}")
				}
				s = strings.ReplaceAll(s, u.Username, "USER")
				s = strings.ReplaceAll(s, host, "HOST")
				return stamp.ReplaceAllString(s, "TIME")
			}
			sorted := func(s string) string {
				var ls []string
				for _, l := range strings.Split(norm(s), "\n") {
					if l != "" {
						ls = append(ls, l)
					}
				}
				sort.Strings(ls)
				if len(ls) == 0 {
					return ""
				}
				return strings.Join(ls, "\n") + "\n"
			}
			var got strings.Builder
			fmt.Fprintf(&got, "rc=%d\n--- stdout\n%s--- stderr\n%s", code, sorted(o.String()), sorted(e.String()))
			ents, _ := os.ReadDir(work)
			for _, ent := range ents { // ReadDir sorts by name, as LC_ALL=C sort
				if strings.HasSuffix(ent.Name(), ".conf") {
					continue
				}
				b, _ := os.ReadFile(filepath.Join(work, ent.Name()))
				fmt.Fprintf(&got, "--- file %s\n%s", norm(ent.Name()), sorted(string(b)))
			}
			if got.String() != string(want) {
				t.Errorf("srun %q:\n got:\n%s\nwant (reference):\n%s", args, got.String(), want)
			}
		})
	}
}

// TestSrun_InsideJobWithMemory: sbatch --mem exports SLURM_MEM_PER_NODE, which srun reads back
// as --mem; a job script asking for memory must still run its steps.
func TestSrun_InsideJobWithMemory(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, InProcess: true})
	script := writeScript(t, c, "mem.sh", "#!/bin/sh\n#SBATCH --mem=100 -o mem.out\nsrun -l echo step-ran\n")
	id := submit(t, c, script)
	j := c.WaitJob(t, id, states.JobComplete, states.JobFailed)
	out, _ := os.ReadFile(filepath.Join(c.WorkDir, "mem.out"))
	if states.JobState(j.State).Base() != states.JobComplete || string(out) != "0: step-ran\n" {
		t.Errorf("job with --mem=100 running srun: %s, output %q; want COMPLETED and the step's line", states.JobState(j.State), out)
	}
}

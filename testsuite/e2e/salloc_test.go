package e2e_test

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

var grantedRE = regexp.MustCompile(`(?m)^salloc: Granted job allocation (\d+)$`)

// grantedJob is the job id in salloc's "Granted job allocation N" line, or fails the test.
func grantedJob(t *testing.T, stderr string) uint32 {
	t.Helper()
	m := grantedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no grant line in salloc's stderr %q", stderr)
	}
	id, _ := strconv.ParseUint(m[1], 10, 32)
	return uint32(id)
}

// envOf parses `env` output into a map.
func envOf(out string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			m[k] = v
		}
	}
	return m
}

// TestSalloc runs salloc on the real binaries: the allocation's lifecycle and messages, the
// command's environment and exit code, srun inside, --no-shell, -I, and signals.
func TestSalloc(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4})
	testbin.Path(t, "srun") // on the cluster's PATH, so the srun inside salloc is Orbit's

	t.Run("env, exit code, release", func(t *testing.T) {
		out, errOut, code := c.Run(t, "salloc", "-J", "envtest", "-N2", "-n3", "-c1", "--mem=100", "-t", "5",
			"sh", "-c", "env; exit 4")
		if code != 4 {
			t.Fatalf("exit %d, want the command's 4; stderr %q", code, errOut)
		}
		id := grantedJob(t, errOut)
		if want := "salloc: Relinquishing job allocation " + strconv.Itoa(int(id)); !strings.Contains(errOut, want) {
			t.Errorf("stderr %q lacks %q", errOut, want)
		}
		env := envOf(out)
		for k, want := range map[string]string{
			"SLURM_JOB_ID": strconv.Itoa(int(id)), "SLURM_JOBID": strconv.Itoa(int(id)),
			"SLURM_JOB_NAME": "envtest", "SLURM_JOB_NUM_NODES": "2", "SLURM_NNODES": "2",
			"SLURM_JOB_NODELIST": "n[1-2]", "SLURM_NODELIST": "n[1-2]", "SLURM_NTASKS": "3",
			"SLURM_NPROCS": "3", "SLURM_CPUS_PER_TASK": "1", "SLURM_MEM_PER_NODE": "100",
			"SLURM_TASKS_PER_NODE": "2,1", "SLURM_CLUSTER_NAME": "orbit-test", "SLURM_NODE_ALIASES": "(null)",
			"SLURM_SUBMIT_DIR": c.WorkDir,
		} {
			if env[k] != want {
				t.Errorf("%s=%q, want %q", k, env[k], want)
			}
		}
		j := c.WaitJob(t, id, states.JobFailed)
		if j.Name != "envtest" {
			t.Errorf("job name %q", j.Name)
		}
	})

	t.Run("-vv debug lines and --nice", func(t *testing.T) {
		// The reference's lines for the same request; the tasks are -n's, or else as many
		// as the CPUs hold; dist is the task_dist_states value (SLURM_DIST_UNKNOWN, 8192,
		// without -m). A nice job's priority is the plain one less its nice (test15.11).
		_, errOut, code := c.Run(t, "salloc", "-vv", "-N2", "-c2", "--nice=1000", "-t1", "true")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		for _, want := range []string{"salloc: debug:  hash/k12: init: init: KangarooTwelve hash plugin loaded\n",
			"salloc: debug:  laying out the 2 tasks on 2 hosts n[1-2] dist 8192\n"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("salloc -vv stderr lacks %q:\n%s", want, errOut)
			}
		}
		_, errOut, _ = c.Run(t, "salloc", "-vv", "-n3", "-m", "block:cyclic", "-t1", "true")
		if want := "salloc: debug:  laying out the 3 tasks on 1 hosts n1 dist 18\n"; !strings.Contains(errOut, want) {
			t.Errorf("salloc -vv -n3 -m block:cyclic stderr lacks %q:\n%s", want, errOut)
		}
		prio := func(nice string) int64 {
			out, errOut, code := c.Run(t, "salloc", "--nice="+nice, "-t1", "sh", "-c", "squeue -h -o %Q -j $SLURM_JOB_ID")
			p, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
			if code != 0 || err != nil {
				t.Fatalf("salloc --nice=%s: exit %d, out %q, stderr %q", nice, code, out, errOut)
			}
			return p
		}
		if p0, p1 := prio("0"), prio("1000"); p0-p1 != 1001 {
			t.Errorf("priorities %d then %d with --nice=1000: want 1001 apart (one submit and the nice)", p0, p1)
		}
	})

	t.Run("srun inside runs steps in the allocation", func(t *testing.T) {
		out, errOut, code := c.Run(t, "salloc", "-N2", "srun", "-l", "sh", "-c", "echo $SLURM_JOB_ID")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		id := grantedJob(t, errOut)
		for _, want := range []string{"0: " + strconv.Itoa(int(id)), "1: " + strconv.Itoa(int(id))} {
			if !strings.Contains(out, want) {
				t.Errorf("output %q lacks %q: the step did not run in allocation %d", out, want, id)
			}
		}
		if j := c.WaitJob(t, id, states.JobComplete); j.Name != "interactive" {
			t.Errorf("default job name %q, want Slurm's \"interactive\"", j.Name)
		}
	})

	t.Run("no-shell keeps the allocation", func(t *testing.T) {
		_, errOut, code := c.Run(t, "salloc", "--no-shell", "-N1")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		id := grantedJob(t, errOut)
		if strings.Contains(errOut, "Relinquishing") {
			t.Errorf("--no-shell released its allocation: %q", errOut)
		}
		j := c.Job(t, id)
		if j == nil || !states.JobState(j.State).IsRunning() || j.Name != "no-shell" {
			t.Fatalf("allocation after --no-shell: %+v", j)
		}
		c.Run(t, "scancel", strconv.Itoa(int(id)))
		c.WaitJob(t, id, states.JobCancelled)
	})

	t.Run("pending, then -I refused", func(t *testing.T) {
		// Hold every CPU of both nodes, so the next request must wait.
		_, errOut, code := c.Run(t, "salloc", "--no-shell", "-N2", "-n8")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		hold := grantedJob(t, errOut)
		defer func() {
			c.Run(t, "scancel", strconv.Itoa(int(hold)))
			c.WaitJob(t, hold, states.JobCancelled)
		}()
		_, errOut, code = c.Run(t, "salloc", "-I", "true")
		if code != 1 || !strings.Contains(errOut, "salloc: error: Unable to allocate resources: Requested nodes are busy") {
			t.Errorf("-I on a busy cluster: exit %d, stderr %q", code, errOut)
		}
		if strings.Contains(errOut, "Pending job allocation") {
			t.Errorf("-I printed pending lines: %q", errOut)
		}

		// Without -I salloc waits, says so, and SIGTERM withdraws the request.
		cmd := exec.Command(testbin.Path(t, "salloc"), "true")
		cmd.Env, cmd.Dir = append(cmd.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		waitFor(t, "salloc waiting", func() bool { return strings.Contains(stderr.String(), "queued and waiting for resources") })
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		text := stderr.String()
		m := regexp.MustCompile(`salloc: Pending job allocation (\d+)\nsalloc: job (\d+) queued and waiting for resources\n` +
			`salloc: Job allocation (\d+) has been revoked.\nsalloc: Job aborted due to signal\n$`).FindStringSubmatch(text)
		if m == nil || m[1] != m[2] || m[1] != m[3] {
			t.Fatalf("stderr %q, want Slurm's pending/aborted lines", text)
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("exit after SIGTERM while pending: %v, want 1", err)
		}
		id, _ := strconv.ParseUint(m[1], 10, 32)
		c.WaitJob(t, uint32(id), states.JobCancelled)
	})

	t.Run("scancel revokes, -K signals the command", func(t *testing.T) {
		cmd := exec.Command(testbin.Path(t, "salloc"), "-K", "-J", "revoke", "sleep", "300")
		cmd.Env, cmd.Dir = append(cmd.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		waitFor(t, "salloc granted", func() bool { return grantedRE.MatchString(stderr.String()) })
		id := grantedJob(t, stderr.String())
		c.Run(t, "scancel", strconv.Itoa(int(id)))
		err := cmd.Wait()
		text := stderr.String()
		if !strings.Contains(text, "salloc: Job allocation "+strconv.Itoa(int(id))+" has been revoked.\n") ||
			strings.Contains(text, "Relinquishing") {
			t.Errorf("stderr %q", text)
		}
		// sleep ends on -K's SIGTERM: not one of the signals salloc counts as a normal end.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("exit %v, want 1", err)
		}
	})

	t.Run("signal while the command runs cancels the job", func(t *testing.T) {
		// salloc keeps waiting for its command after giving the allocation back, as
		// Slurm's does: a short command lets it end by itself.
		cmd := exec.Command(testbin.Path(t, "salloc"), "-J", "interrupted", "sleep", "5")
		cmd.Env, cmd.Dir = append(cmd.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		waitFor(t, "salloc granted", func() bool { return grantedRE.MatchString(stderr.String()) })
		id := grantedJob(t, stderr.String())
		cmd.Process.Signal(syscall.SIGTERM)
		// The allocation comes back without an exit status (NO_VAL): Slurm records CANCELLED.
		c.WaitJob(t, id, states.JobCancelled)
		cmd.Wait()
	})

	t.Run("errors", func(t *testing.T) {
		_, errOut, code := c.Run(t, "salloc", "/nonexistent/cmd")
		if code != 1 || !strings.Contains(errOut, "salloc: error: _fork_command: Unable to find command \"/nonexistent/cmd\"\n") ||
			!strings.Contains(errOut, "salloc: Relinquishing job allocation") {
			t.Errorf("missing command: exit %d, stderr %q", code, errOut)
		}
		_, errOut, code = c.Run(t, "salloc", "-p", "nosuch", "true")
		if code != 1 || !strings.Contains(errOut, "salloc: error: Job submit/allocate failed: ") {
			t.Errorf("bad partition: exit %d, stderr %q", code, errOut)
		}
	})
}

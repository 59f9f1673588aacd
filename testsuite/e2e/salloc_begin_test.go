package e2e_test

import (
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// waitedRE is the whole stderr of a salloc that waited, then ran its command, as the
// reference's salloc prints it.
var waitedRE = regexp.MustCompile(`^salloc: Pending job allocation (\d+)\n` +
	`salloc: job (\d+) queued and waiting for resources\n` +
	`salloc: job (\d+) has been allocated resources\n` +
	`salloc: Granted job allocation (\d+)\n` +
	`salloc: Relinquishing job allocation (\d+)\n$`)

// waitedJob checks salloc's stderr against waitedRE and returns the job id.
func waitedJob(t *testing.T, stderr string) uint32 {
	t.Helper()
	m := waitedRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("stderr %q, want Slurm's pending/queued/allocated/granted/relinquishing lines", stderr)
	}
	for _, s := range m[2:] {
		if s != m[1] {
			t.Fatalf("stderr %q names more than one job", stderr)
		}
	}
	id, _ := strconv.ParseUint(m[1], 10, 32)
	return uint32(id)
}

// TestSallocBeginDependency: salloc --begin and --dependency leave the allocation pending
// until they hold; salloc says it waits and runs its command once granted; a malformed
// dependency is refused as Slurm refuses it.
func TestSallocBeginDependency(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300})

	t.Run("begin", func(t *testing.T) {
		before := time.Now().Unix()
		out, errOut, code := c.Run(t, "salloc", "-J", "begin", "--begin=now+2", "date", "+%s")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		id := waitedJob(t, errOut)
		ran, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
		if err != nil {
			t.Fatalf("command output %q", out)
		}
		if ran < before+2 {
			t.Errorf("command ran at %d, before the begin time %d+2", ran, before)
		}
		j := c.WaitJob(t, id, states.JobComplete)
		if j.EligibleTime < before+2 || j.StartTime < j.EligibleTime {
			t.Errorf("eligible %d, start %d; submitted at %d with --begin=now+2", j.EligibleTime, j.StartTime, before)
		}
	})

	t.Run("afterok waits for the job", func(t *testing.T) {
		// The job depended on is held, so salloc must wait until it is released and ends.
		first := submit(t, c, "-H", "-J", "first", "--wrap", "true")
		cmd := exec.Command(testbin.Path(t, "salloc"), "-J", "second", "--dependency=afterok:"+strconv.Itoa(int(first)), "true")
		cmd.Env, cmd.Dir = append(cmd.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		waitFor(t, "salloc waiting", func() bool { return strings.Contains(stderr.String(), "queued and waiting for resources") })
		out, _, _ := c.Run(t, "squeue", "-h", "-n", "second", "-o", "%T %r")
		if got := strings.TrimSpace(out); got != "PENDING Dependency" {
			t.Errorf("squeue of the waiting allocation: %q, want \"PENDING Dependency\"", got)
		}
		c.Run(t, "scontrol", "release", strconv.Itoa(int(first)))
		if err := cmd.Wait(); err != nil {
			t.Fatalf("salloc: %v, stderr %q", err, stderr.String())
		}
		id := waitedJob(t, stderr.String())
		dep := c.WaitJob(t, first, states.JobComplete)
		j := c.WaitJob(t, id, states.JobComplete)
		if j.StartTime < dep.EndTime {
			t.Errorf("allocation started at %d, before job %d ended at %d", j.StartTime, first, dep.EndTime)
		}
	})

	t.Run("afterok on a failed job never starts", func(t *testing.T) {
		failed := submit(t, c, "-J", "failing", "--wrap", "exit 3")
		c.WaitJob(t, failed, states.JobFailed)
		cmd := exec.Command(testbin.Path(t, "salloc"), "-J", "never", "--dependency=afterok:"+strconv.Itoa(int(failed)), "true")
		cmd.Env, cmd.Dir = append(cmd.Environ(), "SLURM_CONF="+c.ConfPath), c.WorkDir
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		waitFor(t, "salloc waiting", func() bool { return strings.Contains(stderr.String(), "queued and waiting for resources") })
		waitFor(t, "DependencyNeverSatisfied", func() bool {
			out, _, _ := c.Run(t, "squeue", "-h", "-n", "never", "-o", "%T %r")
			return strings.TrimSpace(out) == "PENDING DependencyNeverSatisfied"
		})
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "salloc: Job aborted due to signal\n") {
			t.Errorf("SIGINT while waiting on a dependency: %v, stderr %q", err, stderr.String())
		}
	})

	t.Run("invalid dependency", func(t *testing.T) {
		for _, dep := range []string{"bogus:1", "afterok"} {
			out, errOut, code := c.Run(t, "salloc", "--dependency="+dep, "echo", "ran")
			if want := "salloc: error: Job submit/allocate failed: Job dependency problem\n"; code != 1 || errOut != want || out != "" {
				t.Errorf("--dependency=%s: exit %d, stdout %q, stderr %q; want 1 and %q", dep, code, out, errOut, want)
			}
		}
	})
}

package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunLost: an srun killed with SIGKILL while its step runs takes the step with it, as
// the shepherd Slurm 22.05's srun leaves behind does: the tasks are killed at once, the step
// ends, and a job srun allocated itself ends CANCELLED with exit code 0:0 (seen on the
// reference: "cancelled by interactive user", JobState=CANCELLED ExitCode=0:0), while a
// batch job whose srun was killed runs on. Against spawned daemons and in-process ones.
func TestSrunLost(t *testing.T) {
	srun := testbin.Path(t, "srun")
	for _, inProcess := range []bool{false, true} {
		t.Run(fmt.Sprintf("inprocess=%v", inProcess), func(t *testing.T) {
			c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2, MinJobAge: 300, InProcess: inProcess})

			t.Run("own allocation", func(t *testing.T) {
				dir := t.TempDir()
				cmd := exec.Command(srun, "-N2", "-n2", "-J", "lost", "bash", "-c", `echo $$ > pid.$SLURM_PROCID; exec sleep 300`)
				cmd.Env, cmd.Dir = commandEnv(c), dir
				done := startBackground(t, cmd)
				pids := taskPids(t, dir, 2)
				var job uint32
				for _, j := range c.Jobs(t) {
					if j.Name == "lost" {
						job = j.JobID
					}
				}
				if job == 0 {
					t.Fatal("srun's job is not listed")
				}
				cmd.Process.Kill()
				<-done
				done <- nil
				j := c.WaitJob(t, job, states.JobCancelled, states.JobComplete, states.JobFailed)
				if got := states.JobState(j.State).Base(); got != states.JobCancelled || j.ExitCode != 0 {
					t.Errorf("job of the killed srun: %v, exit code %#x; want CANCELLED, 0", got, j.ExitCode)
				}
				waitTasksGone(t, pids)
			})

			t.Run("inside a batch job", func(t *testing.T) {
				dir := t.TempDir()
				script := filepath.Join(dir, "job.sh")
				body := "#!/bin/bash\nsrun -n1 bash -c 'echo $$ > pid.0; exec sleep 300' &\necho $! > srun.pid\nwait\ntouch srun.ended\nexec sleep 300\n"
				if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
					t.Fatal(err)
				}
				out, errOut, code := c.Run(t, "sbatch", "--parsable", "-N1", "-D", dir, "-o", "/dev/null", script)
				if code != 0 {
					t.Fatalf("sbatch: exit %d, %q", code, errOut)
				}
				id, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
				if err != nil {
					t.Fatalf("sbatch printed %q", out)
				}
				t.Cleanup(func() { c.Run(t, "scancel", strconv.FormatUint(id, 10)) })
				pids := taskPids(t, dir, 1)
				b, err := os.ReadFile(filepath.Join(dir, "srun.pid"))
				if err != nil {
					t.Fatal(err)
				}
				srunPid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatalf("srun.pid holds %q", b)
				}
				if err := syscall.Kill(srunPid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				waitTasksGone(t, pids)
				step := fmt.Sprintf("%d.0", id)
				waitFor(t, "the step of the killed srun to end", func() bool {
					out, _, _ := c.Run(t, "squeue", "-s", "-h", "-o", "%i")
					return !strings.Contains(out, step)
				})
				waitFor(t, "the script to go on", func() bool {
					_, err := os.Stat(filepath.Join(dir, "srun.ended"))
					return err == nil
				})
				if j := c.Job(t, uint32(id)); j == nil || !states.JobState(j.State).IsRunning() {
					t.Errorf("the batch job whose srun was killed is not running: %+v", j)
				}
			})
		})
	}
}

// taskPids waits for the n tasks of a step to write their pids (pid.RANK in dir).
func taskPids(t *testing.T, dir string, n int) []int {
	t.Helper()
	var pids []int
	waitFor(t, "the tasks to start", func() bool {
		pids = pids[:0]
		for rank := range n {
			b, err := os.ReadFile(filepath.Join(dir, "pid."+strconv.Itoa(rank)))
			if err != nil || !strings.HasSuffix(string(b), "\n") {
				return false
			}
			p, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid.%d holds %q", rank, b)
			}
			pids = append(pids, p)
		}
		return true
	})
	return pids
}

// waitTasksGone waits until none of pids is a live process (a zombie not yet reaped counts
// as gone: it has been killed).
func waitTasksGone(t *testing.T, pids []int) {
	t.Helper()
	waitFor(t, "the tasks to be killed", func() bool {
		for _, p := range pids {
			if syscall.Kill(p, 0) == nil && !zombie(p) {
				return false
			}
		}
		return true
	})
}

package e2e_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// reattachBound bounds each wait of the reattach test: a guard against a hang, never a
// performance expectation.
const reattachBound = 60 * time.Second

// TestSlurmdRestart_StepsSurvive kills slurmd with SIGKILL under running srun steps (two
// steps of a batch job and an interactive srun), restarts it, and checks what a user sees:
// the steps keep running and their output keeps arriving at srun, they end with their exit
// codes, and scancel of the job after the restart kills the steps the new slurmd found again.
//
// It runs against the spawned binaries only: in-process, slurmd is the test process, which
// cannot be killed with SIGKILL and go on testing.
func TestSlurmdRestart_StepsSurvive(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 3, CPUsPerNode: 4})
	srun := testbin.Path(t, "srun")
	stop := filepath.Join(c.WorkDir, "STOP")

	// The batch job runs two steps on n[1-2] at once (--overlap, as Slurm needs for steps
	// sharing CPUs): "forever" until scancel, and "ticks" until the test creates STOP (then
	// every task exits 5).
	script := writeScript(t, c, "reattach.sh", "#!/bin/sh\n"+
		srun+" --overlap -N2 -l sh -c 'while :; do echo forever; sleep 0.1; done' > forever.out 2>&1 &\n"+
		srun+" --overlap -N2 -l sh -c 'while [ ! -e "+stop+" ]; do echo tick; sleep 0.1; done; exit 5'\n"+
		"echo \"ticks rc=$?\"\nwait\n")
	id := submit(t, c, "-N2", "-w", "n[1-2]", "-o", "reattach.out", script)

	// The interactive step writes every 100 ms until STOP, then exits 7.
	var out, errOut syncBuffer
	cmd := exec.Command(srun, "-N1", "-w", "n3", "sh", "-c", "while [ ! -e "+stop+" ]; do echo beat; sleep 0.1; done; exit 7")
	cmd.Env = commandEnv(c)
	cmd.Dir = c.WorkDir
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	srunDone := make(chan struct{})
	var srunErr error
	go func() { srunErr = cmd.Wait(); close(srunDone) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-srunDone
	})

	// A second interactive step runs until srun, sent SIGTERM after the restart, kills it.
	var sleepErr syncBuffer
	sleeper := exec.Command(srun, "-N1", "-w", "n3", "sleep", "299.25")
	sleeper.Env, sleeper.Dir, sleeper.Stderr = commandEnv(c), c.WorkDir, &sleepErr
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	sleeperDone := make(chan struct{})
	var sleeperErr error
	go func() { sleeperErr = sleeper.Wait(); close(sleeperDone) }()
	t.Cleanup(func() {
		sleeper.Process.Kill()
		<-sleeperDone
	})

	beats := func() int { return strings.Count(out.String(), "beat\n") }
	ticks := func() int { return countFile(c, "reattach.out", "tick\n") }
	forever := func() int { return countFile(c, "forever.out", "forever\n") }
	waitFor(t, "every step writing output", func() bool {
		return beats() > 0 && countFile(c, "reattach.out", "0: tick\n") > 0 && countFile(c, "reattach.out", "1: tick\n") > 0 &&
			countFile(c, "forever.out", "1: forever\n") > 0 && countFile(c, "forever.out", "0: forever\n") > 0
	})
	var steps []*stepd.State
	waitFor(t, "six srun steps running", func() bool {
		// "forever" and "ticks" on n1 and n2, the two interactive steps on n3
		steps = liveStepStates(t, c)
		return len(steps) == 6
	})

	c.KillNodeDaemon(t)
	for _, st := range steps {
		if !stepd.Alive(st) {
			t.Errorf("slurmstepd of step %d.%s on %s (pid %d) died with slurmd", st.JobID, st.StepID, st.NodeName, st.Pid)
		}
	}
	b, tk, f := beats(), ticks(), forever()
	waitFor(t, "output while slurmd is down", func() bool { return beats() > b && ticks() > tk && forever() > f })

	c.RestartNodeDaemon(t)
	b, tk, f = beats(), ticks(), forever()
	waitFor(t, "output after slurmd restarted", func() bool { return beats() > b && ticks() > tk && forever() > f })

	// srun forwards SIGTERM to its step through the restarted slurmd. The step states are
	// read again: the first snapshot may predate a step's record of its task.
	var sleepTask *stepd.TaskState
	waitFor(t, "the sleeping step's task", func() bool {
		for _, st := range liveStepStates(t, c) {
			if st.NodeName == "n3" && len(st.Tasks) == 1 && processAlive(st.Tasks[0].Pid, st.Tasks[0].PidStart) {
				if cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(st.Tasks[0].Pid) + "/cmdline"); bytes.Contains(cmd, []byte("299.25")) {
					sleepTask = &st.Tasks[0]
					return true
				}
			}
		}
		return false
	})
	sleeper.Process.Signal(syscall.SIGTERM)
	select {
	case <-sleeperDone:
		var ee *exec.ExitError
		// Slurm's srun answers SIGTERM by killing its tasks (SIGKILL): exit 137.
		if !errors.As(sleeperErr, &ee) || ee.ExitCode() != 137 || !strings.Contains(sleepErr.String(), "srun: forcing job termination\n") ||
			!strings.Contains(sleepErr.String(), "srun: error: n3: task 0: Killed\n") {
			t.Errorf("srun sleep after SIGTERM: %v, stderr %q; want exit 137, forcing job termination and task 0 Killed", sleeperErr, sleepErr.String())
		}
	case <-time.After(reattachBound):
		t.Fatal("srun did not end after SIGTERM")
	}
	waitFor(t, "the signalled task to be gone", func() bool { return !processAlive(sleepTask.Pid, sleepTask.PidStart) })

	// The steps that end by themselves end with their exit codes.
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-srunDone:
		var ee *exec.ExitError
		if !errors.As(srunErr, &ee) || ee.ExitCode() != 7 {
			t.Errorf("interactive srun ended with %v, want exit status 7; stderr %q", srunErr, errOut.String())
		}
		if want := "srun: error: n3: task 0: Exited with exit code 7\n"; errOut.String() != want {
			t.Errorf("interactive srun stderr %q, want %q", errOut.String(), want)
		}
	case <-time.After(reattachBound):
		t.Fatalf("interactive srun did not end after STOP; stdout %d beats, stderr %q", beats(), errOut.String())
	}
	waitFor(t, "the ticks step's end in the job output", func() bool { return countFile(c, "reattach.out", "ticks rc=5\n") == 1 })
	jobOut, _ := os.ReadFile(filepath.Join(c.WorkDir, "reattach.out"))
	if !bytes.Contains(jobOut, []byte("srun: error: n1: task 0: Exited with exit code 5\n")) ||
		!bytes.Contains(jobOut, []byte("srun: error: n2: task 1: Exited with exit code 5\n")) {
		t.Errorf("job output lacks srun's exit reports for the ticks step:\n%s", jobOut)
	}

	// scancel after the restart kills the step the new slurmd found again.
	var left []*stepd.State
	for _, st := range steps {
		if st.JobID == id && stepd.Alive(st) {
			left = append(left, st)
		}
	}
	if len(left) != 2 {
		t.Fatalf("%d slurmstepd of job %d still run after its ticks step ended, want the forever step's 2", len(left), id)
	}
	if o, e, code := c.Run(t, "scancel", strconv.FormatUint(uint64(id), 10)); code != 0 {
		t.Fatalf("scancel = %q, %q, exit %d", o, e, code)
	}
	c.WaitJob(t, id, states.JobCancelled)
	waitFor(t, "the forever step's processes to be gone", func() bool {
		for _, st := range left {
			if stepd.Alive(st) {
				return false
			}
			for _, task := range st.Tasks {
				if processAlive(task.Pid, task.PidStart) {
					return false
				}
			}
		}
		return true
	})
}

// liveStepStates are the srun steps (not batch steps) whose slurmstepd runs, on every node.
func liveStepStates(t *testing.T, c *cluster.Cluster) []*stepd.State {
	t.Helper()
	var out []*stepd.State
	spools, _ := filepath.Glob(filepath.Join(c.Dir, "spool", "*"))
	for _, spool := range spools {
		sts, err := stepd.ListSteps(spool)
		if err != nil {
			t.Logf("step states in %s: %v", spool, err)
		}
		for _, st := range sts {
			if st.StepID != stepd.BatchStep && !st.Ended() && stepd.Alive(st) {
				out = append(out, st)
			}
		}
	}
	return out
}

// processAlive reports whether pid still runs and is the process that started at start
// (clock ticks since boot; a recycled pid started later).
func processAlive(pid int, start uint64) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return false
	}
	st, _ := strconv.ParseUint(f[19], 10, 64)
	return st == start && syscall.Kill(pid, 0) == nil
}

func countFile(c *cluster.Cluster, name, what string) int {
	b, _ := os.ReadFile(filepath.Join(c.WorkDir, name))
	return strings.Count(string(b), what)
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

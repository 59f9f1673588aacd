package e2e_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunSignals checks what srun does with the signals it receives while its step runs,
// and with its step cancelled, against the lines and exit codes of Slurm 22.05's srun (taken
// from the reference; KillWait is 2 s here, so srun waits up to 4 s): a first Ctrl-C prints
// the tasks' states and leaves them running; --quit-on-interrupt ends the step at once;
// with -X each Ctrl-C goes to the tasks; SIGTERM kills the tasks; scancel of the step kills
// them too, and srun says it waits for the step. The two tasks of each step wait on a file
// the test creates, so nothing depends on timing.
func TestSrunSignals(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	srun := testbin.Path(t, "srun")
	scancel := testbin.Path(t, "scancel")
	stepID := regexp.MustCompile(`StepId=(\d+)\.0`)
	for i, tc := range []struct {
		name string
		opts []string
		act  func(t *testing.T, p *os.Process, job string)
		code int
		// race is another exit code Slurm's srun gives too: with --quit-on-interrupt it
		// forwards SIGINT and then SIGKILL at once, so which ends the tasks is a race
		// (the reference gave 130 when recorded; a loaded machine can give 137).
		race   int
		stderr []string // lines, in order, that stderr must hold
		not    []string // what it must not hold
		also   []string // what it must hold, in any place (lines from two processes)
	}{
		{"one interrupt: status", nil, func(t *testing.T, p *os.Process, _ string) {
			p.Signal(syscall.SIGINT)
		}, 0, 0, []string{"srun: interrupt (one more within 1 sec to abort)", "srun: StepId=JOB.0 tasks 0-1: running"}, []string{"Ctrl-C"}, nil},
		{"quit on interrupt", []string{"--quit-on-interrupt"}, func(t *testing.T, p *os.Process, _ string) {
			p.Signal(syscall.SIGINT)
		}, 130, 137, []string{"srun: sending Ctrl-C to StepId=JOB.0", "srun: forcing job termination",
			"srun: Job step aborted: Waiting up to 4 seconds for job step to finish."},
			// The tasks may end of the SIGINT before srun marks the step cancelled, on
			// Slurm too (_handle_intr forwards it before job_force_termination), and then
			// "error: n1: tasks 0-1: Interrupt" is printed; a kill after it never is.
			[]string{"Force Terminated", "Killed"}, nil},
		{"disable status", []string{"-X"}, func(t *testing.T, p *os.Process, _ string) {
			p.Signal(syscall.SIGINT)
		}, 130, 0, []string{"srun: sending Ctrl-C to StepId=JOB.0", "srun: error: n1: tasks 0-1: Interrupt"}, []string{"forcing"}, nil},
		{"SIGTERM", nil, func(t *testing.T, p *os.Process, _ string) {
			p.Signal(syscall.SIGTERM)
		}, 137, 0, []string{"srun: forcing job termination", "srun: Job step aborted: Waiting up to 4 seconds for job step to finish.",
			"srun: error: n1: tasks 0-1: Killed"}, []string{"Force Terminated"}, nil},
		{"step cancelled", nil, func(t *testing.T, _ *os.Process, job string) {
			sc := exec.Command(scancel, job+".0")
			sc.Env = commandEnv(c)
			if out, err := sc.CombinedOutput(); err != nil {
				t.Fatalf("scancel %s.0: %v %s", job, err, out)
			}
		}, 137, 0, []string{"slurmstepd-n1: error: *** STEP JOB.0 ON n1 CANCELLED AT", "srun: error: n1: tasks 0-1: Killed"},
			[]string{"Force Terminated"}, []string{"srun: Job step aborted: Waiting up to 4 seconds for job step to finish.\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(c.WorkDir, "sig"+strconv.Itoa(i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			gate := filepath.Join(dir, "gate")
			args := append(append([]string{"-n2"}, tc.opts...), "bash", "-c",
				`touch started.$SLURM_PROCID; while [ ! -e `+gate+` ]; do sleep 0.1; done`)
			var errOut syncBuffer
			cmd := exec.Command(srun, args...)
			cmd.Env, cmd.Dir, cmd.Stderr = commandEnv(c), dir, &errOut
			done := startBackground(t, cmd)
			waitFor(t, "both tasks started", func() bool {
				_, e0 := os.Stat(filepath.Join(dir, "started.0"))
				_, e1 := os.Stat(filepath.Join(dir, "started.1"))
				return e0 == nil && e1 == nil
			})
			job := ""
			for _, j := range c.Jobs(t) {
				if j.Name == "bash" && j.NodeList != "" {
					job = strconv.FormatUint(uint64(j.JobID), 10)
				}
			}
			tc.act(t, cmd.Process, job)
			if tc.code == 0 {
				waitFor(t, "srun's status lines", func() bool { return strings.Contains(errOut.String(), "running") })
				if err := os.WriteFile(gate, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			select {
			case err = <-done:
				done <- err
			case <-time.After(60 * time.Second):
				t.Fatalf("srun did not end; stderr %q", errOut.String())
			}
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			got := errOut.String()
			if m := stepID.FindStringSubmatch(got); m != nil {
				got = strings.ReplaceAll(got, m[1]+".0", "JOB.0")
			} else {
				got = strings.ReplaceAll(got, job+".0", "JOB.0")
			}
			if code != tc.code && (tc.race == 0 || code != tc.race) {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, got)
			}
			at := 0
			for _, want := range tc.stderr {
				i := strings.Index(got[at:], want)
				if i < 0 {
					t.Errorf("stderr %q lacks %q (in order)", got, want)
					break
				}
				at += i + len(want)
			}
			for _, want := range tc.also {
				if !strings.Contains(got, want) {
					t.Errorf("stderr %q lacks %q", got, want)
				}
			}
			for _, bad := range tc.not {
				if strings.Contains(got, bad) {
					t.Errorf("stderr %q holds %q", got, bad)
				}
			}
		})
	}
}

// TestSrunWait checks srun -W as Slurm 22.05's (lines taken from the reference): a second
// after the first task ended, srun says so, prints the tasks' states and kills the others.
func TestSrunWait(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	out, errOut, code := c.Run(t, "srun", "-n2", "-W", "1", "bash", "-c", `if [ $SLURM_PROCID = 0 ]; then exit 0; fi; exec sleep 300`)
	if m := regexp.MustCompile(`StepId=(\d+)\.0`).FindStringSubmatch(errOut); m != nil {
		errOut = strings.ReplaceAll(errOut, "StepId="+m[1]+".0", "StepId=JOB.0")
		errOut = regexp.MustCompile(`STEP `+m[1]+`\.0 ON n1 CANCELLED AT \S+`).ReplaceAllString(errOut, "STEP JOB.0 ON n1 CANCELLED AT TIME")
	}
	want := []string{
		"srun: First task exited 1s ago",
		"srun: StepId=JOB.0 task 1: running",
		"srun: StepId=JOB.0 task 0: exited",
		"srun: launch/slurm: _step_signal: Terminating StepId=JOB.0",
		"srun: error: n1: task 1: Killed",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(errOut[at:], w+"\n")
		if i < 0 {
			t.Fatalf("srun -W 1: stderr %q lacks %q (in order)", errOut, w)
		}
		at += i + len(w)
	}
	if code != 137 || out != "" || !strings.Contains(errOut, "slurmstepd-n1: error: *** STEP JOB.0 ON n1 CANCELLED AT TIME ***\n") {
		t.Errorf("srun -W 1: exit %d, stdout %q, stderr %q; want 137, nothing, the step cancelled", code, out, errOut)
	}
}

// TestSrun_WarnSignal: srun --signal=USR1@55 with a one-minute limit asks the controller,
// as sbatch --signal does, to signal the tasks 55 seconds before the limit (Slurm's
// warn_signal in the job it allocates).
func TestSrun_WarnSignal(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	out, errOut, code := c.Run(t, "srun", "-t", "1", "--signal=USR1@55", "bash", "-c", `trap "echo got USR1; exit 0" USR1; sleep 50 & wait`)
	if code != 0 || out != "got USR1\n" || errOut != "" {
		t.Errorf("srun --signal: exit %d, stdout %q, stderr %q; want the task to get SIGUSR1", code, out, errOut)
	}
}

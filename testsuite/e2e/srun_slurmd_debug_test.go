package e2e_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunSlurmdDebug: srun --slurmd-debug has slurmstepd log its lines into the step's first
// task's stderr, as on Slurm 22.05 (lines taken from the reference, pids and times aside):
// error shows the verbose lines, info adds debug ones (task/none's and mpi/none's among
// them), fatal shows none; a level above debug2 is capped with srun's note.
func TestSrunSlurmdDebug(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	pid := regexp.MustCompile(`\(\d+\) started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$|\(\d+\) exited|pid=\d+$`)
	stepID := regexp.MustCompile(`StepId=\d+\.`)
	// slurmd's own file level is the test cluster's SlurmdDebug; syslog is off (-D).
	logfile := regexp.MustCompile(`logfile='[a-z0-9]+'`)
	lines := func(level string) (got []string, code int) {
		t.Helper()
		_, errOut, code := c.Run(t, "srun", "-l", "-n2", "--slurmd-debug="+level, "sh", "-c", "exit 3")
		for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
			l = logfile.ReplaceAllString(l, "logfile='L'")
			l = stepID.ReplaceAllString(l, "StepId=ID.")
			got = append(got, pid.ReplaceAllStringFunc(l, func(m string) string {
				switch {
				case strings.HasPrefix(m, "pid="):
					return "pid=PID"
				case strings.HasSuffix(m, "exited"):
					return "(PID) exited"
				}
				return "(PID) started TIME"
			}))
		}
		return joinExitLines(got), code
	}

	got, code := lines("error")
	if len(got) < 6 {
		t.Fatalf("--slurmd-debug=error: exit %d, stderr\n%s", code, strings.Join(got, "\n"))
	}
	// The two tasks' ends may come in either order.
	slices.Sort(got[4:6])
	want := []string{
		"0: slurmstepd-n1: debug levels are stderr='verbose', logfile='L', syslog='quiet'",
		"0: slurmstepd-n1: starting 2 tasks",
		"0: slurmstepd-n1: task 0 (PID) started TIME",
		"0: slurmstepd-n1: task 1 (PID) started TIME",
		"0: slurmstepd-n1: task 0 (PID) exited with exit code 3.",
		"0: slurmstepd-n1: task 1 (PID) exited with exit code 3.",
		"srun: error: n1: tasks 0-1: Exited with exit code 3",
	}
	if code != 3 || !slices.Equal(got, want) {
		t.Errorf("--slurmd-debug=error: exit %d, stderr\n%s\nwant\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	got, _ = lines("info")
	for _, w := range []string{"0: slurmstepd-n1: debug levels are stderr='debug', logfile='L', syslog='quiet'",
		"0: slurmstepd-n1: debug:  IO handler started pid=PID", "0: slurmstepd-n1: debug:  Sending launch resp rc=0",
		"0: slurmstepd-n1: debug:  mpi/none: mpi_p_slurmstepd_task: Using mpi/none",
		"0: slurmstepd-n1: debug:  task/none: task_p_pre_launch: task_p_pre_launch: StepId=ID.0, task 1",
		"0: slurmstepd-n1: debug:  task/none: task_p_post_term: task_p_post_term: StepId=ID.0, task 0",
		"0: slurmstepd-n1: debug:  signaling condition"} {
		if !slices.Contains(got, w) {
			t.Errorf("--slurmd-debug=info: stderr\n%s\nlacks %q", strings.Join(got, "\n"), w)
		}
	}
	if got, code := lines("fatal"); code != 3 || !slices.Equal(got, want[6:]) {
		t.Errorf("--slurmd-debug=fatal: exit %d, stderr %q; want only srun's line", code, got)
	}
	if got, _ := lines("debug"); len(got) < 2 || got[0] != "srun: Using srun's max debug increment of 4" ||
		got[1] != "0: slurmstepd-n1: debug levels are stderr='debug2', logfile='L', syslog='quiet'" {
		t.Errorf("--slurmd-debug=debug: stderr\n%s\nwant the cap's note, then stderr='debug2'", strings.Join(got, "\n"))
	}
}

// joinExitLines puts srun's "task 0: Exited ..." and "task 1: Exited ..." lines together as
// "tasks 0-1: Exited ...": srun groups the exits that reach it close together, and on a
// loaded machine the two tasks may end far enough apart to be reported one by one (Slurm's
// srun too reports separately the tasks its slurmstepd reaps apart).
func joinExitLines(lines []string) []string {
	const t0, t1 = "srun: error: n1: task 0: ", "srun: error: n1: task 1: "
	i, j := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, t0) }),
		slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, t1) })
	if i < 0 || j < 0 || lines[i][len(t0):] != lines[j][len(t1):] {
		return lines
	}
	joined := "srun: error: n1: tasks 0-1: " + lines[i][len(t0):]
	out := slices.Delete(slices.Clone(lines), max(i, j), max(i, j)+1)
	out[min(i, j)] = joined
	return out
}

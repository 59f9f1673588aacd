package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunStepTimeLimit: srun --time inside a job is the step's own limit: scontrol show step
// shows it, and the step is ended at it DUE TO TIME LIMIT while the job goes on (Slurm's
// test1.61; the error lines are the reference's). It takes a minute: a limit is minutes.
func TestSrunStepTimeLimit(t *testing.T) {
	testbin.Path(t, "srun")
	testbin.Path(t, "scontrol")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	script := writeScript(t, c, "steplimit.sh", "#!/bin/bash\n"+
		"srun -t1 scontrol show step $SLURM_JOB_ID | grep -o 'StepId=[^ ]*\\|TimeLimit=[^ ]*'\n"+
		"srun -t1 sleep 200\necho srun=$?\n")
	id := submit(t, c, "-t5", "-o", "steplimit.out", "-e", "steplimit.err", script)
	if st := finalState(t, c, id); st.Base() != states.JobComplete {
		t.Fatalf("job %s, want COMPLETED: the step's limit is not the job's", st)
	}
	out, _ := os.ReadFile(filepath.Join(c.WorkDir, "steplimit.out"))
	if want := regexp.MustCompile(`^StepId=\d+\.batch\nTimeLimit=UNLIMITED\nStepId=\d+\.0\nTimeLimit=00:01:00\nsrun=143\n$`); !want.Match(out) {
		t.Errorf("output %q, want the batch step UNLIMITED, step 0 00:01:00 and srun's exit 143", out)
	}
	errOut, _ := os.ReadFile(filepath.Join(c.WorkDir, "steplimit.err"))
	want := regexp.MustCompile(`^slurmstepd-n1: error: \*\*\* STEP \d+\.1 ON n1 CANCELLED AT \S+ DUE TO TIME LIMIT \*\*\*\n` +
		`srun: error: n1: task 0: Terminated\nsrun: Force Terminated StepId=\d+\.1\n$`)
	if !want.Match(errOut) {
		t.Errorf("error file %q, want the step's CANCELLED ... DUE TO TIME LIMIT line and srun's", errOut)
	}
}

// TestScontrolUpdateStepTimeLimit: scontrol update StepId= changes a live step's own limit
// (absolute, +N, -N, UNLIMITED; a job id alone names every running step) and the step then
// ends at the new limit from its start, DUE TO TIME LIMIT, while the job goes on (Slurm's
// test2.13); refusals are the reference's. It takes a minute: a limit is minutes.
func TestScontrolUpdateStepTimeLimit(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	script := writeScript(t, c, "stepupd.sh", "#!/bin/bash\nsrun -t5 sleep 200\necho srun=$?\n")
	id := submit(t, c, "-t5", "-o", "stepupd.out", "-e", "stepupd.err", script)
	job := strconv.Itoa(int(id))
	limit := func() string {
		out, _, _ := c.Run(t, "scontrol", "show", "step", job+".0")
		return regexp.MustCompile(`TimeLimit=\S*`).FindString(out)
	}
	for deadline := time.Now().Add(30 * time.Second); limit() == "" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
	}
	for _, k := range []struct {
		args, stderr, limit string
		code                int
	}{
		{"StepId=" + job + ".0 TimeLimit=+2", "", "TimeLimit=00:07:00", 0},
		{"StepId=" + job + " TimeLimit=-3", "", "TimeLimit=00:07:00", 1}, // a relative change needs the step
		{"StepId=" + job + ".7 TimeLimit=3", "slurm_update error: Invalid job id specified\n", "TimeLimit=00:07:00", 1},
		{"StepId=" + job + "x TimeLimit=3", "Invalid StepID parameter: StepId=" + job + "x\nRequest aborted\n", "TimeLimit=00:07:00", 1},
		{"StepId=" + job + " TimeLimit=bogus", "scontrol: error: Invalid TimeLimit value\n", "TimeLimit=00:07:00", 1},
		{"StepId=" + job, "No changes specified\n", "TimeLimit=00:07:00", 1},
		{"StepId=" + job + " TimeLimit=UNLIMITED", "", "TimeLimit=UNLIMITED", 0},
		{"StepId=" + job + ".0 TimeLimit=1", "", "TimeLimit=00:01:00", 0},
	} {
		_, errOut, code := c.Run(t, "scontrol", append([]string{"update"}, strings.Fields(k.args)...)...)
		if code != k.code || errOut != k.stderr || limit() != k.limit {
			t.Errorf("update %s: exit %d, stderr %q, then %s; want %d, %q, %s", k.args, code, errOut, limit(), k.code, k.stderr, k.limit)
		}
	}
	if st := finalState(t, c, id); st.Base() != states.JobComplete {
		t.Fatalf("job %s, want COMPLETED: the step's limit is not the job's", st)
	}
	if out, _ := os.ReadFile(filepath.Join(c.WorkDir, "stepupd.out")); string(out) != "srun=143\n" {
		t.Errorf("output %q, want srun's exit 143", out)
	}
	errOut, _ := os.ReadFile(filepath.Join(c.WorkDir, "stepupd.err"))
	if !regexp.MustCompile(`^slurmstepd-n1: error: \*\*\* STEP \d+\.0 ON n1 CANCELLED AT \S+ DUE TO TIME LIMIT \*\*\*\n`).Match(errOut) {
		t.Errorf("error file %q, want the step's CANCELLED ... DUE TO TIME LIMIT line", errOut)
	}
}

// finalState waits (a bounded while: step limits are minutes) for job id to finish and
// returns its state then (or the last seen).
func finalState(t *testing.T, c *cluster.Cluster, id uint32) states.JobState {
	t.Helper()
	var st states.JobState
	for deadline := time.Now().Add(150 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		if j := c.Job(t, id); j != nil {
			if st = states.JobState(j.State); st.IsFinished() {
				break
			}
		}
	}
	return st
}

package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
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
	var st states.JobState
	for deadline := time.Now().Add(150 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		if j := c.Job(t, id); j != nil {
			if st = states.JobState(j.State); st.IsFinished() {
				break
			}
		}
	}
	if st.Base() != states.JobComplete {
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

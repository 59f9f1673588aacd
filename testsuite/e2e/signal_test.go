package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// warnScript is a batch script whose shell and whose one srun step each trap SIGUSR1 and
// leave a marker file (batch.J, step.J) when it arrives. The step says it runs (ready.J) and
// ends on its signal or once the batch shell's marker exists, so the job completes whichever
// of the two is signalled; the batch shell waits for srun in the background, so its trap runs
// at once rather than after srun ends, then waits again. The step gives up after about a minute.
const warnScript = `#!/bin/bash
trap 'touch batch.$SLURM_JOB_ID' USR1
srun bash -c 'trap "touch step.$SLURM_JOB_ID; exit 0" USR1
touch ready.$SLURM_JOB_ID
for i in $(seq 600); do [ -e batch.$SLURM_JOB_ID ] && exit 0; sleep 0.1; done' &
pid=$!
wait $pid; rc=$?
if [ $rc -gt 128 ]; then wait $pid; rc=$?; fi
exit $rc
`

// startWarnCluster starts a one-node cluster whose jobs find Orbit's srun first on PATH
// (testbin builds a command on first use, so it is built before any job runs).
func startWarnCluster(t *testing.T) *cluster.Cluster {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	testbin.Path(t, "srun")
	return c
}

// markers reports which of the job's marker files exist.
func markers(c *cluster.Cluster, id uint32) (batch, step bool) {
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(c.WorkDir, fmt.Sprintf("%s.%d", name, id)))
		return err == nil
	}
	return exists("batch"), exists("step")
}

// TestSignal_StepsNotBatchShell: sbatch --signal=USR1@60 (no B:) makes the controller send
// SIGUSR1 to the job's steps, not to its batch shell, once the job is within 60 s of its end.
// The job starts with 5 minutes; once its step runs, scontrol lowers the limit to 1 minute,
// which puts the job inside the window at once, so the signal's arrival does not depend on
// how fast the step starts.
func TestSignal_StepsNotBatchShell(t *testing.T) {
	c := startWarnCluster(t)
	script := writeScript(t, c, "warn.sh", warnScript)
	id := submit(t, c, "-J", "sig_steps", "-t", "5", "--signal=USR1@60", "-o", "out.%j", script)
	waitFor(t, "the step to run", func() bool {
		_, err := os.Stat(filepath.Join(c.WorkDir, fmt.Sprintf("ready.%d", id)))
		return err == nil
	})
	if batch, step := markers(c, id); batch || step {
		t.Fatalf("signalled 4 minutes before the window: batch shell %v, step %v", batch, step)
	}
	if out, errOut, code := c.Run(t, "scontrol", "update", fmt.Sprintf("JobId=%d", id), "TimeLimit=1"); code != 0 {
		t.Fatalf("scontrol update TimeLimit=1: exit %d, %q %q", code, out, errOut)
	}
	j := c.WaitJob(t, id, states.JobComplete, states.JobTimeout, states.JobFailed)
	batch, step := markers(c, id)
	if !step || batch || states.JobState(j.State).Base() != states.JobComplete {
		out, _ := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)))
		t.Errorf("job ended %s, step signalled %v, batch shell signalled %v (output %q); want COMPLETED, the step only",
			states.JobState(j.State), step, batch, out)
	}
}

// TestSignal_BatchShellOnly: with --signal=B:USR1@55 only the batch shell gets SIGUSR1 (from
// its slurmstepd, 55 s before the end of a 1-minute job); the controller sends the steps
// nothing, so the signal is never delivered twice.
func TestSignal_BatchShellOnly(t *testing.T) {
	c := startWarnCluster(t)
	script := writeScript(t, c, "warn.sh", warnScript)
	id := submit(t, c, "-J", "sig_batch", "-t", "1", "--signal=B:USR1@55", "-o", "out.%j", script)
	j := c.WaitJob(t, id, states.JobComplete, states.JobTimeout, states.JobFailed)
	batch, step := markers(c, id)
	if !batch || step || states.JobState(j.State).Base() != states.JobComplete {
		out, _ := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)))
		t.Errorf("job ended %s, batch shell signalled %v, step signalled %v (output %q); want COMPLETED, the batch shell only",
			states.JobState(j.State), batch, step, out)
	}
}

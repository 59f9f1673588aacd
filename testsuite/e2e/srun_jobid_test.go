package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunJobID: srun --jobid from outside the job attaches steps to a running job (one
// step id after another, in the job's environment) and refuses a job that is not running
// as Slurm 22.05's srun does (existing_allocation, lines taken from the reference): unknown,
// pending, or ended ("has expired").
func TestSrunJobID(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	gate := filepath.Join(c.WorkDir, "gate")
	t.Cleanup(func() { os.WriteFile(gate, nil, 0o644) })
	job := submit(t, c, "-n2", "--wrap", "while [ ! -e "+gate+" ]; do sleep 0.1; done")
	c.WaitJob(t, job, states.JobRunning)
	id := strconv.Itoa(int(job))
	for step := 0; step < 2; step++ {
		out, errOut, code := c.Run(t, "srun", "--jobid="+id, "-n1", "printenv", "SLURM_JOB_ID", "SLURM_STEP_ID", "SLURM_JOB_NAME")
		if want := id + "\n" + strconv.Itoa(step) + "\nprintenv\n"; code != 0 || out != want {
			t.Errorf("srun --jobid=%s (step %d): exit %d, stdout %q, stderr %q; want %q", id, step, code, out, errOut, want)
		}
	}
	if _, errOut, code := c.Run(t, "srun", "--jobid="+id, "-N2", "true"); code != 1 || errOut != "srun: error: Only allocated 1 nodes asked for 2\n" {
		t.Errorf("srun --jobid -N2: exit %d, stderr %q", code, errOut)
	}

	refused := func(jobID, line string) {
		t.Helper()
		_, errOut, code := c.Run(t, "srun", "--jobid="+jobID, "true")
		want := line + "srun: Check SLURM_JOB_ID environment variable. Expired or invalid job " + jobID + "\n"
		if code != 1 || errOut != want {
			t.Errorf("srun --jobid=%s: exit %d, stderr %q; want 1 and %q", jobID, code, errOut, want)
		}
	}
	refused("99999", "srun: error: Unable to confirm allocation for job 99999: Invalid job id specified\n")
	held := strconv.Itoa(int(submit(t, c, "-H", "--wrap", "true")))
	refused(held, "srun: error: Unable to confirm allocation for job "+held+": Job is pending execution\n")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.WaitJob(t, job, states.JobComplete)
	refused(id, "srun: error: Slurm job "+id+" has expired\n")
}

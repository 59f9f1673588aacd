package e2e_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSbatchDeadline checks --deadline as Slurm 22.05 has it (the texts and exit codes were
// taken from the reference): a deadline that has passed, or that leaves less than the job's
// time-min, is refused at submit; a job that is still pending when too little time is left
// for its time limit ends DEADLINE (reason DeadLine, exit code 0:1) without running; a job
// without a time limit gets a time-min of one minute and starts with its time limit cut to
// end by its deadline; a job with a shorter time limit keeps it.
func TestSbatchDeadline(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for _, tc := range []struct {
		args    []string
		errText string
		code    int
	}{
		{[]string{"--deadline=2020-01-01"}, "sbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)\n", 1},
		{[]string{"--deadline=now+5minutes", "--time-min=10", "-t", "100"}, "sbatch: error: Batch job submission failed: Invalid time-min specification (exceeds job's time or other limits)\n", 1},
		{[]string{"--deadline=now+1hour", "--begin=now+2hours"}, "sbatch: error: Incompatible begin and deadline time specification\n", 1},
	} {
		out, errOut, code := c.Run(t, "sbatch", append(tc.args, "--wrap", "true")...)
		if out != "" || errOut != tc.errText || code != tc.code {
			t.Errorf("sbatch %q = %q, %q, exit %d; want no output, %q, exit %d", tc.args, out, errOut, code, tc.errText, tc.code)
		}
	}
	if jobs := c.Jobs(t); len(jobs) != 0 {
		t.Fatalf("refused submissions left %d jobs", len(jobs))
	}

	missed := submit(t, c, "--deadline=now+5minutes", "-t", "10", "--wrap", "true")
	j := c.WaitJob(t, missed, states.JobDeadline)
	if j.Reason != uint32(states.FailDeadline) || j.ExitCode != 1 || j.StartTime != j.EndTime || len(j.NodeList) != 0 {
		t.Errorf("job past its deadline: reason %v exit %d start %d end %d nodes %q; want DeadLine, 0:1, never started",
			states.Reason(j.Reason), j.ExitCode, j.StartTime, j.EndTime, j.NodeList)
	}

	open := submit(t, c, "--deadline=now+1hour", "--wrap", "sleep 300")
	j = c.WaitJob(t, open, states.JobRunning)
	if j.TimeMin != 1 || j.TimeLimit < 58 || j.TimeLimit > 60 || j.EndTime > j.Deadline {
		t.Errorf("job without a time limit: TimeMin %d TimeLimit %d end %d deadline %d; want 1, the hour to its deadline",
			j.TimeMin, j.TimeLimit, j.EndTime, j.Deadline)
	}
	short := submit(t, c, "--deadline=now+1hour", "-t", "10", "--wrap", "sleep 300")
	if j = c.WaitJob(t, short, states.JobRunning); j.TimeLimit != 10 {
		t.Errorf("job with -t 10 and an hour to its deadline: TimeLimit %d, want 10", j.TimeLimit)
	}
}

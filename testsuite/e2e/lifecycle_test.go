package e2e_test

import (
	"fmt"
	"os"
	"os/user"
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

// header is squeue's default title line (Slurm 22.05).
const header = "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"

func writeScript(t *testing.T, c *cluster.Cluster, name, body string) string {
	t.Helper()
	p := filepath.Join(c.WorkDir, name)
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

var submitted = regexp.MustCompile(`^Submitted batch job (\d+)\n$`)

// submit runs sbatch and returns the job id it printed.
func submit(t *testing.T, c *cluster.Cluster, args ...string) uint32 {
	t.Helper()
	out, errOut, code := c.Run(t, "sbatch", args...)
	m := submitted.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("sbatch %q = %q, %q, exit %d", args, out, errOut, code)
	}
	id, _ := strconv.ParseUint(m[1], 10, 32)
	return uint32(id)
}

func me(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

// squeueLine is one default-format row as Slurm prints it.
func squeueLine(id uint32, name, user, st, timeStr string, nodes int, nodelist string) string {
	return fmt.Sprintf("%18d %9s %8s %8s %2s %10s %6d %s\n", id, "debug", trunc(name, 8), trunc(user, 8), st, timeStr, nodes, nodelist)
}

func trunc(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func TestBatchJob_RunsAndLeavesQueue(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 4, CPUsPerNode: 4}, func(t *testing.T, c *cluster.Cluster) {
		script := writeScript(t, c, "hello.sh", "#!/bin/bash\n#SBATCH -J e2e_hello\necho hello from $SLURM_JOB_ID\n")
		id := submit(t, c, script)

		j := c.WaitJob(t, id, states.JobComplete)
		if j.ExitCode != 0 {
			t.Errorf("ExitCode = %d, want 0", j.ExitCode)
		}
		out, err := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("slurm-%d.out", id)))
		if err != nil {
			t.Fatalf("output file: %v", err)
		}
		if want := fmt.Sprintf("hello from %d\n", id); string(out) != want {
			t.Errorf("slurm-%d.out = %q, want %q", id, out, want)
		}
		// Finished jobs show with -t; then they leave the table after MinJobAge.
		o, e, code := c.Run(t, "squeue", "-h", "-t", "CD", "-j", fmt.Sprint(id), "-o", "%i %t %j")
		if code != 0 || o != fmt.Sprintf("%d CD e2e_hello\n", id) {
			t.Errorf("squeue -t CD = %q, %q, %d", o, e, code)
		}
		c.WaitGone(t, id)
		o, _, code = c.Run(t, "squeue")
		if code != 0 || o != header {
			t.Errorf("squeue after MinJobAge = %q, exit %d; want only the header", o, code)
		}
	})
}

func TestBatchJob_ExitCodeFails(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1, CPUsPerNode: 2}, func(t *testing.T, c *cluster.Cluster) {
		id := submit(t, c, "-J", "e2e_exit3", "--wrap", "exit 3")
		j := c.WaitJob(t, id, states.JobFailed, states.JobComplete)
		if st := states.JobState(j.State); st.Base() != states.JobFailed {
			t.Errorf("state = %s, want FAILED", st)
		}
		if j.ExitCode != 3<<8 {
			t.Errorf("ExitCode = %d:%d, want 3:0", j.ExitCode>>8, j.ExitCode&0xff)
		}
	})
}

func TestSqueue_PendingAndRunning(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 2, CPUsPerNode: 1}, func(t *testing.T, c *cluster.Cluster) {
		user := me(t)
		run := submit(t, c, "-J", "e2e_run", "--wrap", "sleep 300")
		c.WaitJob(t, run, states.JobRunning)
		held := submit(t, c, "-J", "e2e_held", "-H", "--wrap", "true")

		cases := []struct {
			args []string
			want string
		}{
			{[]string{"-j", fmt.Sprint(held)}, header + squeueLine(held, "e2e_held", user, "PD", "0:00", 1, "(JobHeldUser)")},
			{[]string{"-h", "-t", "PD"}, squeueLine(held, "e2e_held", user, "PD", "0:00", 1, "(JobHeldUser)")},
			{[]string{"-h", "-u", user, "-o", "%i %j %t"}, fmt.Sprintf("%d e2e_held PD\n%d e2e_run R\n", held, run)},
			{[]string{"-h", "-n", "e2e_run", "-o", "%i %N %D"}, fmt.Sprintf("%d n1 1\n", run)},
			{[]string{"-h", "-t", "R", "-O", "jobid:8,name:10,state:9"}, fmt.Sprintf("%-8d%-10s%-9s\n", run, "e2e_run", "RUNNING")},
			{[]string{"-h", "-p", "nosuchpart"}, ""},
		}
		for _, tc := range cases {
			o, e, code := c.Run(t, "squeue", tc.args...)
			if code != 0 || o != tc.want {
				t.Errorf("squeue %q:\n got %q (stderr %q, exit %d)\nwant %q", tc.args, o, e, code, tc.want)
			}
		}
		c.Run(t, "scancel", fmt.Sprint(run), fmt.Sprint(held))
	})
}

func TestSqueue_Errors(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1}, func(t *testing.T, c *cluster.Cluster) {
		cases := []struct {
			args       []string
			stdout     string
			stderrPart string
			code       int
		}{
			{[]string{"-j", "abc"}, "", "squeue: error: Invalid job id: abc\n", 1},
			{[]string{"-j", "99999"}, "", "slurm_load_jobs error: Invalid job id specified\n", 1},
			{[]string{"-t", "bogus"}, "", "squeue: error: Invalid job state specified: bogus\n", 1},
			{[]string{"-u", "nosuchuser"}, header, "squeue: error: Invalid user: nosuchuser\n\n", 0},
		}
		for _, tc := range cases {
			o, e, code := c.Run(t, "squeue", tc.args...)
			if o != tc.stdout || !strings.HasPrefix(e, tc.stderrPart) || code != tc.code {
				t.Errorf("squeue %q = %q, %q, exit %d; want %q, %q..., exit %d", tc.args, o, e, code, tc.stdout, tc.stderrPart, tc.code)
			}
		}
	})
}

func TestScancel_RunningJob(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1, CPUsPerNode: 2}, func(t *testing.T, c *cluster.Cluster) {
		// The script says when it really runs, so the cancel hits a running batch script (a job
		// cancelled before its script started ends 0:0, as in Slurm).
		id := submit(t, c, "-J", "e2e_sleep", "--wrap", "echo started; exec sleep 300")
		c.WaitJob(t, id, states.JobRunning)
		out := filepath.Join(c.WorkDir, fmt.Sprintf("slurm-%d.out", id))
		for i := 0; ; i++ {
			if b, _ := os.ReadFile(out); strings.Contains(string(b), "started") {
				break
			}
			if i == 300 {
				t.Fatalf("%s never said the script started", out)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if o, e, code := c.Run(t, "scancel", fmt.Sprint(id)); code != 0 || o != "" || e != "" {
			t.Fatalf("scancel = %q, %q, exit %d", o, e, code)
		}
		j := c.WaitJob(t, id, states.JobCancelled)
		if j.ExitCode != 15 {
			t.Errorf("ExitCode = %d:%d, want 0:15", j.ExitCode>>8, j.ExitCode&0xff)
		}
		// slurmstepd says so in the job's output, as Slurm's does.
		b, _ := os.ReadFile(out)
		if want := cancelledLine(id, ""); !want.Match(b) {
			t.Errorf("%s:\n%s\nwant a line matching %s", out, b, want)
		}
		// A job that no longer exists is reported only with -v, and scancel still exits 0.
		if o, e, code := c.Run(t, "scancel", "99999"); code != 0 || o != "" || e != "" {
			t.Errorf("scancel 99999 = %q, %q, exit %d", o, e, code)
		}
		_, e, code := c.Run(t, "scancel", "-v", "99999")
		if want := "scancel: error: Kill job error on job id 99999: Invalid job id specified\n"; code != 0 || !strings.HasSuffix(e, want) {
			t.Errorf("scancel -v 99999 = %q, exit %d; want ...%q", e, code, want)
		}
	})
}

// cancelledLine matches slurmstepd's line in the output of batch job id ended under it on
// n1; why is "", " DUE TO TIME LIMIT" or " DUE TO JOB REQUEUE".
func cancelledLine(id uint32, why string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^slurmstepd-n1: error: \*\*\* JOB %d ON n1 CANCELLED AT \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d%s \*\*\*$`, id, why))
}

// TestScontrolRequeue_RunningJob requeues a running batch job: its output says the run was
// cancelled DUE TO JOB REQUEUE, and the job is pending again with Restarts=1.
func TestScontrolRequeue_RunningJob(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	id := submit(t, c, "-J", "e2e_requeue", "--requeue", "--open-mode=append", "-o", "requeue.out", "--wrap", "echo started; exec sleep 300")
	c.WaitJob(t, id, states.JobRunning)
	out := filepath.Join(c.WorkDir, "requeue.out")
	waitFor(t, "the script to start", func() bool { b, _ := os.ReadFile(out); return strings.Contains(string(b), "started") })
	if o, e, code := c.Run(t, "scontrol", "requeue", fmt.Sprint(id)); code != 0 || o != "" || e != "" {
		t.Fatalf("scontrol requeue = %q, %q, exit %d", o, e, code)
	}
	j := c.WaitJob(t, id, states.JobPending)
	if j.Restarts != 1 {
		t.Errorf("Restarts = %d, want 1", j.Restarts)
	}
	waitFor(t, "slurmstepd's line", func() bool { b, _ := os.ReadFile(out); return cancelledLine(id, " DUE TO JOB REQUEUE").Match(b) })
	c.Run(t, "scancel", fmt.Sprint(id))
}

func TestScancel_Filters(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1, CPUsPerNode: 1}, func(t *testing.T, c *cluster.Cluster) {
		a := submit(t, c, "-J", "e2e_a", "-H", "--wrap", "true")
		b := submit(t, c, "-J", "e2e_b", "-H", "--wrap", "true")
		if _, e, code := c.Run(t, "scancel", "-n", "e2e_a"); code != 0 {
			t.Fatalf("scancel -n = %q, exit %d", e, code)
		}
		c.WaitJob(t, a, states.JobCancelled)
		if j := c.Job(t, b); j == nil || states.JobState(j.State).Base() != states.JobPending {
			t.Fatalf("job %d (other name) = %+v, want still PENDING", b, j)
		}
		if _, e, code := c.Run(t, "scancel", "-u", me(t), "-t", "PENDING"); code != 0 {
			t.Fatalf("scancel -u -t = %q, exit %d", e, code)
		}
		c.WaitJob(t, b, states.JobCancelled)
	})
}

func TestController_RestartKeepsPendingJob(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1, CPUsPerNode: 1}, func(t *testing.T, c *cluster.Cluster) {
		id := submit(t, c, "-J", "e2e_durable", "-H", "--wrap", "true")
		c.KillController(t)
		c.RestartController(t)
		j := c.Job(t, id)
		if j == nil {
			t.Fatalf("job %d lost across a controller restart", id)
		}
		if st := states.JobState(j.State); st.Base() != states.JobPending || j.Name != "e2e_durable" {
			t.Errorf("job %d after restart: %s %q, want PENDING e2e_durable", id, st, j.Name)
		}
		next := submit(t, c, "-J", "e2e_after", "-H", "--wrap", "true")
		if next <= id {
			t.Errorf("job id after restart = %d, want > %d", next, id)
		}
	})
}

func TestSbatch_ControllerDown(t *testing.T) {
	forEachMode(t, cluster.Options{Nodes: 1}, func(t *testing.T, c *cluster.Cluster) {
		c.KillController(t)
		o, e, code := c.RunEnv(t, nil, "sbatch", "--wrap", "true")
		want := "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)\n"
		if o != "" || e != want || code != 1 {
			t.Errorf("sbatch with the controller down = %q, %q, exit %d; want %q, exit 1", o, e, code, want)
		}
	})
}

// TestScancel_BatchJobWithStep cancels a batch job whose script waits on an srun step: as on
// the reference, its output holds slurmstepd's CANCELLED lines for the step and the job,
// and srun reports how its task ended. The task ends Terminated (the step's own SIGTERM)
// or, when srun's forwarded SIGKILL gets there first, Killed: srun shares its shell's
// process group, receives the cancel's SIGTERM too and forwards SIGKILL, as Slurm's srun
// does ("forcing job termination"), so the reference has the same race.
func TestScancel_BatchJobWithStep(t *testing.T) {
	// KillWait=10: the job's processes are killed KillWait after the cancel's SIGTERM, srun
	// among them; the harness's 2 s left srun too little to hear its task's end and report
	// it on a loaded machine (one full run of make test lost the report so).
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "KillWait=10\n"})
	testbin.Path(t, "srun")
	// The batch shell waits for srun before it acts on its own SIGTERM (a trap runs once
	// the foreground command ends): otherwise the script may end first under load, and
	// slurmstepd then kills what is left of the job, srun included, before srun hears of
	// its task's end (Slurm's slurmstepd does the same).
	id := submit(t, c, "-o", "step.out", "--wrap", "trap 'echo batch shell got SIGTERM' TERM; srun sh -c 'echo started; exec sleep 300'")
	out := filepath.Join(c.WorkDir, "step.out")
	waitFor(t, "the step to start", func() bool { b, _ := os.ReadFile(out); return strings.Contains(string(b), "started") })
	if o, e, code := c.Run(t, "scancel", fmt.Sprint(id)); code != 0 || o != "" || e != "" {
		t.Fatalf("scancel = %q, %q, exit %d", o, e, code)
	}
	c.WaitJob(t, id, states.JobCancelled)
	step := regexp.MustCompile(fmt.Sprintf(`(?m)^slurmstepd-n1: error: \*\*\* STEP %d\.0 ON n1 CANCELLED AT \S+ \*\*\*$`, id))
	report := regexp.MustCompile(`(?m)^srun: error: n1: task 0: (Terminated|Killed)$`)
	var b []byte
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ = os.ReadFile(out)
		if report.Match(b) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for srun's report of its task; %s holds:\n%s", out, b)
		}
	}
	for _, want := range []*regexp.Regexp{cancelledLine(id, ""), step, regexp.MustCompile(`(?m)^srun: Job step aborted: Waiting up to \d+ seconds for job step to finish\.$`)} {
		if !want.Match(b) {
			t.Errorf("%s lacks a line matching %s:\n%s", out, want, b)
		}
	}
}

// TestSbatch_QuietParsable: -Q silences sbatch's job id even with --parsable, as the
// reference's sbatch does; the job still runs.
func TestSbatch_QuietParsable(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	out, errOut, code := c.Run(t, "sbatch", "-Q", "--parsable", "-J", "e2e_quiet", "--wrap", "true")
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("sbatch -Q --parsable: exit %d, stdout %q, stderr %q; want nothing", code, out, errOut)
	}
	o, _, _ := c.Run(t, "squeue", "-h", "-t", "all", "-n", "e2e_quiet", "-o", "%j")
	if o != "e2e_quiet\n" {
		t.Errorf("squeue lists %q; want the quietly submitted job", o)
	}
}

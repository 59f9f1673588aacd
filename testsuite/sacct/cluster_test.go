package sacct

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSacct_Cluster runs jobs that complete, fail with exit 3, are cancelled, run srun steps
// and form an array, then reads them back with sacct in several forms, before and after a
// controller restart.
func TestSacct_Cluster(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf: "AccountingStorageType=accounting_storage/orbit"})
	uid := os.Getuid()
	testbin.Path(t, "srun") // the job scripts call it from the cluster's PATH

	submit := func(args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "sbatch", append([]string{"--parsable", "-o", "/dev/null"}, args...)...)
		if code != 0 {
			t.Fatalf("sbatch %q: exit %d: %s", args, code, errOut)
		}
		return strings.TrimSpace(out)
	}
	id := func(s string) uint32 {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			t.Fatalf("job id %q: %v", s, err)
		}
		return uint32(n)
	}
	ok := submit("-J", "okjob", "--wrap", "true")
	bad := submit("-J", "badjob", "--wrap", "exit 3")
	steps := submit("-J", "stepjob", "--wrap", "srun true; srun sh -c 'exit 2'; exit 0")
	arr := submit("-J", "arrjob", "--array=1-2", "--wrap", "true")
	long := submit("-J", "longjob", "--wrap", "sleep 300")
	c.WaitJob(t, id(long), states.JobRunning)
	if _, errOut, code := c.Run(t, "scancel", long); code != 0 {
		t.Fatalf("scancel: %s", errOut)
	}
	for _, j := range []string{ok, bad, steps, long} {
		c.WaitJob(t, id(j), states.JobComplete, states.JobFailed, states.JobCancelled)
	}
	// Array tasks: wait until sacct shows both finished.
	all := strings.Join([]string{ok, bad, steps, arr, long}, ",")

	sacct := func(args ...string) string {
		t.Helper()
		out, errOut, code := c.Run(t, "sacct", args...)
		if code != 0 || errOut != "" {
			t.Fatalf("sacct %q: exit %d, stderr %q", args, code, errOut)
		}
		return out
	}
	want := strings.Join([]string{
		ok + "|okjob|COMPLETED|0:0",
		ok + ".batch|batch|COMPLETED|0:0",
		bad + "|badjob|FAILED|3:0",
		bad + ".batch|batch|FAILED|3:0",
		steps + "|stepjob|COMPLETED|0:0",
		steps + ".batch|batch|COMPLETED|0:0",
		steps + ".0|stepjob|COMPLETED|0:0",
		steps + ".1|stepjob|FAILED|2:0",
		arr + "_1|arrjob|COMPLETED|0:0",
		arr + "_1.batch|batch|COMPLETED|0:0",
		arr + "_2|arrjob|COMPLETED|0:0",
		arr + "_2.batch|batch|COMPLETED|0:0",
		long + fmt.Sprintf("|longjob|CANCELLED by %d|0:15", uid),
		long + ".batch|batch|CANCELLED|0:15",
	}, "\n") + "\n"
	// Jobs submitted in the same second are ordered by array job id first (Slurm's sort), so
	// the order between jobs is not fixed here; steps are checked by their ids.
	args := []string{"-j", all, "-n", "-P", "-o", "jobid,jobname,state,exitcode"}
	got := ""
	for range 100 { // array tasks finish on their own; bounded
		got = sacct(args...)
		if !strings.Contains(got, "RUNNING") && !strings.Contains(got, "PENDING") && strings.Count(got, "\n") >= 14 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if sorted(got) != sorted(want) {
		t.Errorf("sacct -P:\n%s\nwant:\n%s", got, want)
	}

	t.Run("default columns", func(t *testing.T) {
		out := sacct("-j", bad)
		lines := strings.Split(out, "\n")
		if len(lines) < 4 || lines[0] != "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode " ||
			lines[1] != "------------ ---------- ---------- ---------- ---------- ---------- -------- " {
			t.Fatalf("header:\n%s", out)
		}
		if f := strings.Fields(lines[2]); len(f) != 6 || f[0] != bad || f[1] != "badjob" || f[4] != "FAILED" || f[5] != "3:0" {
			t.Errorf("job line %q", lines[2])
		}
	})
	t.Run("allocations only", func(t *testing.T) {
		out := sacct("-X", "-j", steps, "-n", "-p", "-o", "jobid,state")
		if out != steps+"|COMPLETED|\n" {
			t.Errorf("sacct -X = %q", out)
		}
	})
	t.Run("one step", func(t *testing.T) {
		out := sacct("-j", steps+".1", "-n", "-P", "-o", "jobid,exitcode,ntasks,nnodes")
		if out != steps+".1|2:0|1|1\n" {
			t.Errorf("sacct -j %s.1 = %q", steps, out)
		}
	})
	t.Run("state filter", func(t *testing.T) {
		out := sacct("-j", all, "-s", "F", "-X", "-n", "-P", "-o", "jobid")
		if out != bad+"\n" {
			t.Errorf("sacct -s F = %q", out)
		}
	})
	t.Run("default window is today", func(t *testing.T) {
		out := sacct("-X", "-n", "-P", "-o", "jobname", "--name", "okjob")
		if out != "okjob\n" {
			t.Errorf("sacct --name okjob = %q", out)
		}
		if out := sacct("-X", "-n", "-S", "now+1hour", "-E", "now+2hours"); out != "" {
			t.Errorf("future window = %q", out)
		}
	})
	t.Run("controller restart keeps records", func(t *testing.T) {
		c.RestartController(t)
		if got := sacct(args...); sorted(got) != sorted(want) {
			t.Errorf("after restart:\n%s\nwant:\n%s", got, want)
		}
	})
}

// TestSacct_Disabled: with accounting_storage/none, sacct answers as Slurm's does.
func TestSacct_Disabled(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 1})
	out, errOut, code := c.Run(t, "sacct")
	if out != "" || errOut != "Slurm accounting storage is disabled\n" || code != 1 {
		t.Errorf("sacct = %q, %q, exit %d", out, errOut, code)
	}
}

func sorted(s string) string {
	l := strings.Split(s, "\n")
	slices.Sort(l)
	return strings.Join(l, "\n")
}

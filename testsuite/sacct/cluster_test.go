package sacct

import (
	"encoding/json"
	"fmt"
	"os"
	"os/user"
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
		// A step is named after its command, as Slurm's srun names it (no -J on its line).
		steps + ".0|true|COMPLETED|0:0",
		steps + ".1|sh|FAILED|2:0",
		arr + "_1|arrjob|COMPLETED|0:0",
		arr + "_1.batch|batch|COMPLETED|0:0",
		arr + "_2|arrjob|COMPLETED|0:0",
		arr + "_2.batch|batch|COMPLETED|0:0",
		long + fmt.Sprintf("|longjob|CANCELLED by %d|0:0", uid), // recorded when cancelled: exit 0
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
	t.Run("clusters", func(t *testing.T) {
		// -M selects clusters by name (lower case, as Slurm keeps them); the store holds
		// this cluster's jobs only, so other names select none (the header stays); -M all
		// and -L select every cluster, the last of -M all and -M NAME winning.
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"-M", "ORBIT-test"}, ok + "\n"},
			{[]string{"-M", "other,orbit-test"}, ok + "\n"},
			{[]string{"-M", "other"}, ""},
			{[]string{"--clusters=other", "-L"}, ok + "\n"},
			{[]string{"-M", "other", "-M", "all"}, ok + "\n"},
			{[]string{"-M", "all", "-M", "other"}, ""},
		} {
			if out := sacct(append(tc.args, "-X", "-j", ok, "-n", "-P", "-o", "jobid")...); out != tc.want {
				t.Errorf("sacct %q = %q, want %q", tc.args, out, tc.want)
			}
		}
		if out := sacct("-M", "other", "-X", "-j", ok, "-o", "jobid"); !strings.HasPrefix(out, "JobID") || strings.Contains(out, ok) {
			t.Errorf("sacct -M other (with header) = %q", out)
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
	t.Run("json", func(t *testing.T) {
		var doc struct {
			Meta struct {
				Plugin struct{ Type string } `json:"plugin"`
			} `json:"meta"`
			Jobs []struct {
				JobID int    `json:"job_id"`
				Name  string `json:"name"`
				State struct {
					Current string `json:"current"`
				} `json:"state"`
				Steps []struct {
					State string `json:"state"`
					Step  struct {
						ID   any    `json:"id"`
						Name string `json:"name"`
					} `json:"step"`
				} `json:"steps"`
			} `json:"jobs"`
		}
		out := sacct("-j", steps, "--json")
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("--json: %v\n%s", err, out)
		}
		if doc.Meta.Plugin.Type != "openapi/dbv0.0.38" || len(doc.Jobs) != 1 || doc.Jobs[0].Name != "stepjob" ||
			doc.Jobs[0].State.Current != "COMPLETED" || len(doc.Jobs[0].Steps) != 3 {
			t.Fatalf("--json:\n%s", out)
		}
		var ids []string
		for _, s := range doc.Jobs[0].Steps {
			ids = append(ids, fmt.Sprint(s.Step.ID)+":"+s.State)
		}
		if got := strings.Join(ids, ","); got != "batch:COMPLETED,0:COMPLETED,1:FAILED" {
			t.Errorf("--json steps %s", got)
		}
		if out := sacct("-j", steps, "-X", "--json"); strings.Contains(out, `"step": {`) {
			t.Errorf("-X --json has steps:\n%s", out)
		}
	})
	t.Run("yaml", func(t *testing.T) {
		out := sacct("-j", bad, "--yaml")
		if !strings.HasPrefix(out, "%YAML 1.1\n--- !!map\n!!str meta: !!map\n") || !strings.HasSuffix(out, "\n...\n") ||
			!strings.Contains(out, "\n  !!str job_id: !!int "+bad+"\n") || !strings.Contains(out, "    !!str current: !!str FAILED\n") {
			t.Errorf("--yaml:\n%s", out)
		}
	})
	t.Run("batch script without job_script", func(t *testing.T) {
		// AccountingStoreFlags has no job_script: Slurm's database has no script to show.
		want := "Batch Script for " + ok + "\n" + strings.Repeat("-", 80) + "\nNONE\n\n"
		if out := sacct("-B", "-j", ok); out != want {
			t.Errorf("sacct -B = %q, want %q", out, want)
		}
	})
	t.Run("filters", func(t *testing.T) {
		gid := strconv.Itoa(os.Getgid())
		n := strings.Count(sacct("-j", all, "-X", "-n", "-P", "-o", "jobid"), "\n")
		for _, args := range [][]string{{"-q", "normal"}, {"-g", gid}, {"-i", "1"}, {"-D"}} {
			if got := strings.Count(sacct(append([]string{"-j", all, "-X", "-n", "-P", "-o", "jobid"}, args...)...), "\n"); got != n {
				t.Errorf("sacct %q: %d jobs, want %d", args, got, n)
			}
		}
		for _, args := range [][]string{{"-A", "nosuchacct"}, {"-W", "nokey"}, {"-i", "2-4"}, {"-k", "5"}, {"-g", strconv.Itoa(os.Getgid() + 1)}} {
			if out, errOut, _ := c.Run(t, "sacct", append([]string{"-j", all, "-X", "-n", "-P", "-o", "jobid"}, args...)...); out != "" {
				t.Errorf("sacct %q = %q (%s)", args, out, errOut)
			}
		}
		out, errOut, code := c.Run(t, "sacct", "-q", "high")
		if out != "" || errOut != "sacct: error: You gave a bad qos 'high'. Valid QOS's are normal\nsacct: fatal: problem processing qos list\n" || code != 1 {
			t.Errorf("sacct -q high = %q, %q, %d", out, errOut, code)
		}
		out, errOut, code = c.Run(t, "sacct", "-c")
		if out != "" || errOut != "Slurm job completion is disabled\n" || code != 1 {
			t.Errorf("sacct -c = %q, %q, %d", out, errOut, code)
		}
	})
	t.Run("field widths and delimiters", func(t *testing.T) {
		// %N right-justifies in N columns, %-N left-justifies, and a longer value is cut
		// to N-1 characters and a "+" (man sacct, --format).
		out := sacct("-j", bad, "-X", "-n", "-o", "jobid%-10,jobname%12,state%3")
		if want := fmt.Sprintf("%-10s %12s %3s \n", bad, "badjob", "FA+"); out != want {
			t.Errorf("widths = %q, want %q", out, want)
		}
		if out := sacct("-j", bad, "-X", "-n", "-p", "--delimiter=;", "-o", "jobid,state"); out != bad+";FAILED;\n" {
			t.Errorf("-p --delimiter = %q", out)
		}
		if out := sacct("-j", bad, "-X", "-P", "-o", "jobid,exitcode"); out != "JobID|ExitCode\n"+bad+"|3:0\n" {
			t.Errorf("-P = %q", out)
		}
	})
	t.Run("user filter", func(t *testing.T) {
		// MinJobAge=2: these jobs are purged by now, so the store's uid selection answers.
		c.WaitGone(t, id(ok))
		me, err := user.LookupId(strconv.Itoa(uid))
		if err != nil {
			t.Fatal(err)
		}
		base := []string{"-X", "-n", "-P", "-o", "jobid", "-S", "now-1hour"}
		mine := sacct(append(base, "--name", "okjob,badjob")...)
		if sorted(mine) != sorted(ok+"\n"+bad+"\n") {
			t.Fatalf("own jobs = %q", mine)
		}
		for _, u := range [][]string{{"-u", strconv.Itoa(uid)}, {"-u", me.Username}, {"--uid=" + me.Username},
			{"--user=" + strconv.Itoa(uid)}, {"-u", "-1"}, {"-a"}} {
			if got := sacct(append(append(base, "--name", "okjob,badjob"), u...)...); sorted(got) != sorted(mine) {
				t.Errorf("sacct %q = %q, want %q", u, got, mine)
			}
		}
		// Another existing user has no jobs here; with ours listed too, ours are back.
		other := "nobody"
		if o, err := user.Lookup(other); err != nil || o.Uid == me.Uid {
			other = "root"
			if me.Uid == "0" {
				t.Skip("no second user on this machine")
			}
		}
		if got := sacct(append(append(base, "--name", "okjob,badjob"), "-u", other)...); got != "" {
			t.Errorf("sacct -u %s = %q, want nothing", other, got)
		}
		if got := sacct(append(append(base, "--name", "okjob,badjob"), "-u", other+","+me.Username)...); sorted(got) != sorted(mine) {
			t.Errorf("sacct -u %s,%s = %q, want %q", other, me.Username, got, mine)
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

package schedeval_test

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
)

// clusterNodes is the node count of slurm.conf here.
const clusterNodes = 100

// outputShape is what ssim prints on stdout, line by line.
var outputShape = []*regexp.Regexp{
	regexp.MustCompile(`^scheduler: sched/(builtin|backfill)$`),
	regexp.MustCompile(`^estimate: (user|runtime)$`),
	regexp.MustCompile(`^jobs: 50$`),
	regexp.MustCompile(`^utilization: (0\.\d{4}|1\.0000)$`),
	regexp.MustCompile(`^mean_wait_s: \d+\.\d$`),
	regexp.MustCompile(`^mean_bounded_slowdown: \d+\.\d\d$`),
	regexp.MustCompile(`^makespan_s: [1-9]\d*$`),
	regexp.MustCompile(`^wall_s: \d+\.\d\d$`),
	regexp.MustCompile(`^cpu_s: \d+\.\d\d$`),
}

// job is one CSV record.
type job struct {
	id                                      int
	submit, start, end, wait, run, estimate int64
	nodes                                   int
	bsld                                    float64
}

// simulate runs the ssim binary on the 50-job snippet and returns its stdout and records.
func simulate(t *testing.T, args ...string) (string, []job) {
	t.Helper()
	csvPath := filepath.Join(t.TempDir(), "jobs.csv")
	cmd := exec.Command(testbin.Path(t, "ssim"), append([]string{"-f", "slurm.conf", "--swf", "testdata/kth50.swf", "--csv", csvPath}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ssim %v: %v\n%s", args, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(outputShape) {
		t.Fatalf("ssim %v printed %d lines, want %d:\n%s", args, len(lines), len(outputShape), stdout.String())
	}
	for i, re := range outputShape {
		if !re.MatchString(lines[i]) {
			t.Errorf("ssim %v line %d %q does not match %s", args, i+1, lines[i], re)
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"id", "submit", "start", "end", "wait", "run", "nodes", "estimate", "bounded_slowdown"}; !slices.Equal(rows[0], want) {
		t.Fatalf("CSV header %q, want %q", rows[0], want)
	}
	var jobs []job
	for _, r := range rows[1:] {
		n := func(i int) int64 {
			v, err := strconv.ParseInt(r[i], 10, 64)
			if err != nil {
				t.Fatalf("CSV record %q field %d: %v", r, i+1, err)
			}
			return v
		}
		bsld, err := strconv.ParseFloat(r[8], 64)
		if err != nil {
			t.Fatalf("CSV record %q: %v", r, err)
		}
		jobs = append(jobs, job{int(n(0)), n(1), n(2), n(3), n(4), n(5), n(7), int(n(6)), bsld})
	}
	if len(jobs) != 50 {
		t.Fatalf("%d CSV records, want 50", len(jobs))
	}
	return stdout.String(), jobs
}

// checkConsistent: every record adds up, and at no instant do running jobs hold more
// nodes than the cluster has.
func checkConsistent(t *testing.T, jobs []job) {
	t.Helper()
	for _, j := range jobs {
		if j.start < j.submit || j.wait != j.start-j.submit || j.run != j.end-j.start || j.nodes < 1 ||
			(j.estimate >= 0 && j.run > j.estimate) || j.bsld < 1 {
			t.Errorf("inconsistent record %+v", j)
		}
	}
	for _, at := range jobs {
		held := 0
		for _, j := range jobs {
			if j.start <= at.start && at.start < j.end {
				held += j.nodes
			}
		}
		if held > clusterNodes {
			t.Errorf("at t=%d running jobs hold %d nodes of %d", at.start, held, clusterNodes)
		}
	}
}

// TestSSIM_FCFSStrictOrder: under sched/builtin no job starts before a job submitted
// earlier (or at the same time with a lower id) has started.
func TestSSIM_FCFSStrictOrder(t *testing.T) {
	out, jobs := simulate(t, "--scheduler", "sched/builtin")
	if !strings.HasPrefix(out, "scheduler: sched/builtin\nestimate: user\n") {
		t.Errorf("output:\n%s", out)
	}
	checkConsistent(t, jobs)
	slices.SortFunc(jobs, func(a, b job) int {
		if a.submit != b.submit {
			return int(a.submit - b.submit)
		}
		return a.id - b.id
	})
	for i := 1; i < len(jobs); i++ {
		if jobs[i].start < jobs[i-1].start {
			t.Errorf("job %d (submit %d) started at %d, before job %d (submit %d) at %d",
				jobs[i].id, jobs[i].submit, jobs[i].start, jobs[i-1].id, jobs[i-1].submit, jobs[i-1].start)
		}
	}
}

// TestSSIM_Backfill: EASY (slurm.conf's sched/backfill) with both estimates runs every job
// within the cluster, and with the snippet's queue some job does overtake an earlier one.
func TestSSIM_Backfill(t *testing.T) {
	for _, est := range []string{"user", "runtime"} {
		out, jobs := simulate(t, "--estimate", est)
		if !strings.HasPrefix(out, "scheduler: sched/backfill\nestimate: "+est+"\n") {
			t.Errorf("output:\n%s", out)
		}
		checkConsistent(t, jobs)
		overtook := false
		for _, a := range jobs {
			for _, b := range jobs {
				overtook = overtook || (a.submit < b.submit && b.start < a.start)
			}
		}
		if !overtook {
			t.Errorf("--estimate=%s: no job was backfilled ahead of an earlier one", est)
		}
		if est == "runtime" {
			for _, j := range jobs {
				if j.estimate < j.run || j.estimate >= j.run+60 && j.run > 0 {
					t.Errorf("runtime estimate %d for a %d s job: want the runtime rounded up to a minute", j.estimate, j.run)
				}
			}
		}
	}
}

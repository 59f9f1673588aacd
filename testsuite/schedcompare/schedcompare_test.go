package schedcompare_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// prefix names the scenarios' jobs, as record.sh names them on the reference (without its
// pid: the Orbit cluster is private).
const prefix = "zzsched-"

// scenarioBound bounds the whole scenario: a guard against a hang, never a performance
// claim (the scenario's jobs sleep about 90 s in all).
const scenarioBound = 10 * time.Minute

// job is one line of a scenario, testdata/NAME.txt.
type job struct{ letter, opts, cmd string }

func readScenario(t *testing.T, name string) []job {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var jobs []job
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("%s.txt: bad line %q", name, l)
		}
		jobs = append(jobs, job{f[0], f[1], f[2]})
	}
	return jobs
}

// history is what the comparison looks at: for each job letter, the distinct states it went
// through in order ("PENDING Priority", "PENDING Resources", "RUNNING"), and the order in
// which the jobs first ran. Snapshots are the lines record.sh writes: "A RUNNING None,B
// PENDING Resources,..." of the jobs pending or running.
//
// Comparing per-job histories rather than whole snapshots leaves out what only timing
// decides: whether a poll fell into the instant between one job's end and the next start
// (both systems show such moments, for a time that varies run to run), and the order of
// two jobs' changes within one poll.
type history struct {
	states map[string][]string
	order  []string
}

func historyOf(snapshots []string) history {
	h := history{states: map[string][]string{}}
	for _, s := range snapshots {
		for _, e := range strings.Split(s, ",") {
			f := strings.Fields(e)
			if len(f) < 2 {
				continue
			}
			letter, st := f[0], f[1]
			if st == "PENDING" && len(f) > 2 {
				st += " " + strings.Join(f[2:], " ")
			}
			if hs := h.states[letter]; len(hs) == 0 || hs[len(hs)-1] != st {
				h.states[letter] = append(hs, st)
			}
			if st == "RUNNING" && !slices.Contains(h.order, letter) {
				h.order = append(h.order, letter)
			}
		}
	}
	return h
}

func readGolden(t *testing.T, name string) (snapshots []string, order string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "start order:"):
			order = strings.TrimSpace(strings.TrimPrefix(l, "start order:"))
		default:
			snapshots = append(snapshots, l)
		}
	}
	return snapshots, order
}

// TestScenarios_MatchReference runs every scenario in testdata/ on its own Orbit cluster and
// compares each job's pending reasons and the start order with the reference's recording.
//
//   - backfill: a backfilled job, a job that would delay the top one, reasons Resources and
//     Priority under sched/backfill.
//   - nice: priority/basic subtracts --nice from the job's priority only.
//
// When the backfill pass runs decides how long a backfilled job waits (Slurm's backfill
// thread wakes every bf_interval, 30 s, at a phase unrelated to the submissions); both
// systems first show it pending with reason Priority, because the main scheduler looks at
// every submission at once and the job ahead of it waits for Resources. Orbit's backfill
// runs at the plugin's first cycle, when the cluster starts, and then every 30 s: each
// scenario is submitted in its cluster's first seconds, so its first backfill pass comes
// after that main pass.
func TestScenarios_MatchReference(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata/: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(name, func(t *testing.T) {
			t.Parallel() // the scenarios mostly sleep
			runScenario(t, name)
		})
	}
}

func runScenario(t *testing.T, name string) {
	golden, goldenOrder := readGolden(t, name)
	want := historyOf(golden)
	if strings.Join(want.order, " ") != goldenOrder {
		t.Fatalf("%s.golden is inconsistent: snapshots give order %v, its last line %q", name, want.order, goldenOrder)
	}
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		MinJobAge: 300, ExtraConf: "SchedulerType=sched/backfill\n",
	})
	snapshot := func() string {
		out, errOut, code := c.Run(t, "squeue", "-h", "-t", "PENDING,RUNNING", "-o", "%j %T %r", "--sort=j")
		if code != 0 {
			t.Fatalf("squeue: exit %d: %s", code, errOut)
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				lines = append(lines, rest)
			}
		}
		return strings.Join(lines, ",")
	}
	deadline := time.Now().Add(scenarioBound)
	for i, j := range readScenario(t, name) {
		args := append([]string{"--parsable", "-J", prefix + j.letter, "-o", "/dev/null"}, strings.Fields(j.opts)...)
		if _, errOut, code := c.Run(t, "sbatch", append(args, "--wrap", j.cmd)...); code != 0 {
			t.Fatalf("sbatch %s: exit %d: %s", j.letter, code, errOut)
		}
		if i == 0 { // the first job runs before the others are submitted, as in record.sh
			for snapshot() != j.letter+" RUNNING None" {
				if time.Now().After(deadline) {
					t.Fatalf("job %s never ran alone: %q", j.letter, snapshot())
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
	}
	var got []string
	for {
		s := snapshot()
		if s == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("scenario still running after %v; states so far:\n%s", scenarioBound, strings.Join(got, "\n"))
		}
		// As record.sh: a pending job with reason None has not been looked at yet.
		if !strings.Contains(s, " PENDING None") && (len(got) == 0 || got[len(got)-1] != s) {
			got = append(got, s)
			t.Logf("%s", s)
		}
		time.Sleep(200 * time.Millisecond)
	}
	have := historyOf(got)
	if !slices.Equal(have.order, want.order) {
		t.Errorf("start order %v, reference %v", have.order, want.order)
	}
	for _, l := range slices.Sorted(maps.Keys(want.states)) {
		if !slices.Equal(have.states[l], want.states[l]) {
			t.Errorf("job %s went through %q, reference %q", l, have.states[l], want.states[l])
		}
	}
	if t.Failed() {
		t.Logf("Orbit's states:\n%s\nreference's:\n%s", strings.Join(got, "\n"), strings.Join(golden, "\n"))
	}
}

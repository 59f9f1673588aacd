package squeue

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// waitBound guards every wait against hanging; it is never a performance expectation.
const waitBound = refcase.WaitBound

var (
	shellWords = refcase.ShellWords
	normalise  = refcase.Normalise
	readGolden = refcase.ReadGolden
	sbatch     = refcase.Sbatch
)

func readCases(t *testing.T) []refcase.Case { return refcase.ReadCases(t, "cases.txt") }

func run(t *testing.T, c *cluster.Cluster, env []string, args ...string) (string, string, int) {
	t.Helper()
	return refcase.Run(t, c, "squeue", "SQUEUE_", env, args...)
}

// TestSqueue_MatchesReference replays cases.txt on an Orbit cluster holding the same jobs
// as the recording and compares with what the reference printed.
func TestSqueue_MatchesReference(t *testing.T) {
	first, err := strconv.ParseUint(strings.TrimSpace(readGolden(t, "first_job_id.txt")), 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		ExtraConf: "FirstJobId=" + strconv.FormatUint(first, 10),
	})
	testbin.Path(t, "srun") // the job script's srun must be Orbit's, built beside sbatch
	r := sbatch(t, c, "-J", "h4q_run", "-o", "h4q_run.out", "--wrap", "srun -J h4q_step sleep 600; sleep 600")
	h := sbatch(t, c, "-J", "h4q_held", "-H", "-t", "10", "-o", "/dev/null", "--wrap", "sleep 600")
	a := sbatch(t, c, "-J", "h4q_arr", "-H", "--array=1-3", "-o", "/dev/null", "--wrap", "sleep 600")
	if uint64(r) != first || h != r+1 || a != r+2 {
		t.Fatalf("job ids %d %d %d, want %d and the next two", r, h, a, first)
	}
	t.Cleanup(func() { c.Run(t, "scancel", strconv.Itoa(int(r)), strconv.Itoa(int(h)), strconv.Itoa(int(a))) })
	c.WaitJob(t, r, states.JobRunning)
	deadline := time.Now().Add(waitBound)
	for {
		out, _, _ := run(t, c, nil, "-h", "-s", strconv.Itoa(int(r))+".0", "-o", "%i")
		if strings.TrimSpace(out) != "" {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(c.WorkDir, "h4q_run.out"))
			t.Fatalf("step %d.0 never listed; the job printed:\n%s", r, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	ids := strings.NewReplacer("{R}", strconv.Itoa(int(r)), "{H}", strconv.Itoa(int(h)), "{A}", strconv.Itoa(int(a)))
	for _, tc := range readCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			var env []string
			if tc.Env != "-" {
				env = []string{tc.Env}
			}
			out, errOut, code := run(t, c, env, shellWords(ids.Replace(tc.Args))...)
			wantOut, wantErr := readGolden(t, tc.Name+".out"), readGolden(t, tc.Name+".err")
			wantCode, _ := strconv.Atoi(strings.TrimSpace(readGolden(t, tc.Name+".rc")))
			if code != wantCode {
				t.Errorf("exit status %d, reference %d", code, wantCode)
			}
			if g, w := normalise(out, u.Username), normalise(wantOut, "root"); g != w {
				t.Errorf("stdout differs\n--- orbit\n%s--- reference\n%s", g, w)
			}
			if g, w := normalise(errOut, u.Username), normalise(wantErr, "root"); g != w {
				t.Errorf("stderr differs\n--- orbit\n%s--- reference\n%s", g, w)
			}
		})
	}
}

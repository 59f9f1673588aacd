package scancel

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	return refcase.Run(t, c, "scancel", "SCANCEL_", env, args...)
}

// TestScancel_MatchesReference replays cases.txt, in order, on an Orbit cluster holding the
// same jobs as the recording and compares with what the reference printed.
func TestScancel_MatchesReference(t *testing.T) {
	first, err := strconv.ParseUint(strings.TrimSpace(readGolden(t, "first_job_id.txt")), 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		ExtraConf: "FirstJobId=" + strconv.FormatUint(first, 10),
	})
	testbin.Path(t, "srun") // the job script's srun must be Orbit's, built beside sbatch
	r := sbatch(t, c, "-J", "h4c_run", "-o", "h4c_run.out", "--wrap", "srun -J h4c_step sleep 600; sleep 600")
	h := sbatch(t, c, "-J", "h4c_held", "-H", "-t", "10", "-o", "/dev/null", "--wrap", "sleep 600")
	a := sbatch(t, c, "-J", "h4c_arr", "-H", "--array=1-3", "-o", "/dev/null", "--wrap", "sleep 600")
	if uint64(r) != first || h != r+1 || a != r+2 {
		t.Fatalf("job ids %d %d %d, want %d and the next two", r, h, a, first)
	}
	t.Cleanup(func() { c.Run(t, "scancel", strconv.Itoa(int(r)), strconv.Itoa(int(h)), strconv.Itoa(int(a))) })
	c.WaitJob(t, r, states.JobRunning)
	deadline := time.Now().Add(waitBound)
	for {
		out, _, _ := c.Run(t, "squeue", "-h", "-s", strconv.Itoa(int(r))+".0", "-o", "%i")
		if strings.TrimSpace(out) != "" {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(c.WorkDir, "h4c_run.out"))
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
			if tc.Name == "step_cancel_v" {
				// scancel signals a step twice (a Slurm quirk), and the step must still be
				// there for the second signal, as it always is on the reference. The step
				// record lives until srun reports the step's end; srun is held stopped
				// while scancel runs so that report cannot race the second signal on a
				// loaded machine.
				resume := stopProcess(t, "h4c_step")
				defer waitStepGone(t, c, r)
				defer resume()
			}
			out, errOut, code := run(t, c, env, shellWords(ids.Replace(tc.Args))...)
			defer settle(t, c, r, h, a)
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

// settle waits until no job of the test is COMPLETING or has a cancel in flight, as
// record.sh's pause after every case lets the reference act before the next case looks.
func settle(t *testing.T, c *cluster.Cluster, ids ...uint32) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for time.Now().Before(deadline) {
		busy := false
		for _, j := range c.Jobs(t) {
			for _, id := range ids {
				if (j.JobID == id || j.ArrayJobID == id) && states.JobState(j.State).IsCompleting() {
					busy = true
				}
			}
		}
		if !busy {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("jobs %v still completing after %v", ids, waitBound)
}

// waitStepGone checks what the user sees after scancel J.0: the step leaves squeue -s
// while the job goes on with the rest of its script.
func waitStepGone(t *testing.T, c *cluster.Cluster, job uint32) {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for {
		out, _, _ := c.Run(t, "squeue", "-h", "-s", "-j", strconv.Itoa(int(job)), "-o", "%i")
		if strings.TrimSpace(out) == strconv.Itoa(int(job))+".batch" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after scancel %d.0, squeue -s still lists %q", job, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stopProcess stops (SIGSTOP) the one srun whose command line contains marker and returns
// the function that continues it.
func stopProcess(t *testing.T, marker string) func() {
	t.Helper()
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		if filepath.Base(argv[0]) == "srun" && strings.Contains(string(cmdline), marker) {
			pids = append(pids, pid)
		}
	}
	if len(pids) != 1 {
		t.Fatalf("want one srun running %q, found pids %v", marker, pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	return func() { syscall.Kill(pids[0], syscall.SIGCONT) }
}

package jobscripts_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/jobscripts"
)

// outOfTable lists recorded cases the test does not run yet, with the difference that keeps
// them out; each belongs to code outside this package's owner (see the issue notes).
var outOfTable = map[string]string{
	// Its step environment matches now; what differs is luck: `srun -l echo hello` with two
	// tasks prints "0: hello" and "1: hello" in arrival order, under Slurm as under Orbit,
	// and the golden holds one order. Needs an order-insensitive comparison of labelled
	// lines in normalize.go.
	"srun": "two tasks' labelled lines arrive in either order; the golden holds one",
}

// waitBound bounds the wait for one case's jobs: a guard against hangs, not a performance
// expectation. A requeued job (self_requeue) waits Slurm's 121 s before it may start again.
const waitBound = 4 * time.Minute

func loadCases(t *testing.T) []jobscripts.Case {
	b, err := os.ReadFile("cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := jobscripts.ParseCases(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestJobScripts runs every case of cases.txt on a one-node Orbit cluster shaped like the
// reference's node (64 CPUs, named n1) and compares what a user finds with what record.sh
// found on the reference.
func TestJobScripts(t *testing.T) {
	cases := loadCases(t)
	// FirstJobId keeps Orbit's ids apart from every small number the scripts print, so the
	// id normalisation can never hide a difference on Orbit's side.
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 64, MinJobAge: 600, InProcess: true,
		ExtraConf: "FirstJobId=7000001\n"})
	binDir := filepath.Dir(testbin.Path(t, "sbatch"))
	for _, b := range []string{"srun", "scontrol", "squeue"} {
		testbin.Path(t, b)
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")

	t.Run("case", func(t *testing.T) {
		for _, tc := range cases {
			if why, ok := outOfTable[tc.Name]; ok {
				t.Logf("%s: not in the table: %s", tc.Name, why)
				continue
			}
			t.Run(tc.Name, func(t *testing.T) {
				t.Parallel()
				want, err := readGolden(tc.Name)
				if err != nil {
					t.Fatalf("%v (run record.sh against the reference)", err)
				}
				got := runCase(t, c, binDir, host, tc)
				if w, g := jobscripts.Normalize(want), jobscripts.Normalize(got); w != g {
					t.Errorf("case %s differs from the reference (-reference +orbit):\n%s", tc.Name, lineDiff(w, g))
				}
			})
		}
	})
}

// fixture fills a scratch directory as record.sh's fixture does.
func fixture(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "data", "input.txt"), "alpha\nbeta\ngamma\n", 0o644)
	write(t, filepath.Join(dir, "previous.log"), "line from an earlier run\n", 0o644)
}

func write(t *testing.T, p, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
}

// submitEnv is record.sh's submit() environment with Orbit's commands first on PATH (the
// scripts call srun, scontrol and squeue by name).
func submitEnv(t *testing.T, c *cluster.Cluster, binDir string) []string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	return []string{"PATH=" + binDir + ":/usr/bin:/bin", "HOME=" + home, "USER=" + u.Username,
		"LOGNAME=" + u.Username, "SHELL=/bin/bash", "LANG=C", "MYSITE_VAR=from_login",
		"OTHER_VAR=other", "SLURM_CONF=" + c.ConfPath}
}

var jobIDLine = regexp.MustCompile(`(?m)^(?:Submitted batch job )?(\d+)$`)

func runCase(t *testing.T, c *cluster.Cluster, binDir, host string, tc jobscripts.Case) jobscripts.Run {
	dir := filepath.Join(c.WorkDir, tc.Name)
	fixture(t, dir)
	args := slices.Clone(tc.Opts)
	if tc.Script != "" {
		src, err := os.ReadFile(filepath.Join("scripts", tc.Script))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, tc.Script), string(src), 0o755)
		args = append(args, tc.Script)
	}
	cmd := exec.Command(filepath.Join(binDir, "sbatch"), append(args, tc.Args...)...)
	if len(tc.Ulimit) > 0 {
		// The submitting shell's limits, set as record.sh sets them (ParseCases allows only
		// ulimit's option letters and numbers, so the words need no quoting).
		cmd = exec.Command("/bin/bash", append([]string{"-c", `ulimit ` + strings.Join(tc.Ulimit, " ") + ` && exec "$0" "$@"`,
			filepath.Join(binDir, "sbatch")}, append(args, tc.Args...)...)...)
	}
	cmd.Env = append(submitEnv(t, c, binDir), tc.Env...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	r := jobscripts.Run{Ids: jobscripts.Ids{SubmitDir: dir, Host: host}}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("sbatch: %v", err)
		}
		r.RC = ee.ExitCode()
	}
	r.Stdout, r.Stderr = o.String(), e.String()
	if m := jobIDLine.FindStringSubmatch(r.Stdout); m != nil {
		id, _ := strconv.ParseUint(m[1], 10, 32)
		r.Ids.JobID = uint32(id)
		r.State, r.Ids.TaskJobIDs = waitFinished(t, c, uint32(id))
	}
	r.Files, r.Contents = collect(t, dir, tc.Script)
	return r
}

// waitFinished waits until every record of job id (each task of an array) has ended and
// returns their state lines as record.sh writes them, and the array tasks' own job ids.
func waitFinished(t *testing.T, c *cluster.Cluster, id uint32) (lines []string, taskIDs []uint32) {
	deadline := time.Now().Add(waitBound)
	for {
		lines, taskIDs = nil, nil
		done := true
		for _, j := range c.Jobs(t) {
			if j.JobID != id && j.ArrayJobID != id {
				continue
			}
			st := states.JobState(j.State)
			if st.IsPending() || st.IsRunning() || st.IsSuspended() || st.IsCompleting() || j.ArrayTaskStr != "" {
				done = false
			}
			lines = append(lines, stateLine(j))
			if j.JobID != id {
				taskIDs = append(taskIDs, j.JobID)
			}
		}
		if done && len(lines) > 0 {
			slices.Sort(lines)
			slices.Sort(taskIDs)
			return lines, taskIDs
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d not finished after %v: %q", id, waitBound, lines)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stateLine is one job record as record.sh reduces `scontrol show job -o`: ExitCode is
// "<exit status>:<signal>" of the batch script's wait status.
func stateLine(j wire.JobInfo) string {
	task := "-"
	if j.ArrayJobID != 0 && j.ArrayTaskID != 0xFFFFFFFE {
		task = strconv.FormatUint(uint64(j.ArrayTaskID), 10)
	}
	// scontrol's rendering: a status with a signal shows 0:sig whatever its high bits (a
	// slurmstepd errno such as ESLURMD_IO_ERROR 4021 shows as 0:53).
	ws, rc, sig := j.ExitCode, j.ExitCode>>8&0xff, uint32(0)
	if s := ws & 0x7f; s != 0 && s != 0x7f {
		rc, sig = 0, s
	}
	return fmt.Sprintf("ArrayTaskId=%s JobState=%s ExitCode=%d:%d", task, states.JobState(j.State).Base(), rc, sig)
}

// collect lists every file under dir except the script, with its contents.
func collect(t *testing.T, dir, script string) ([]string, map[string]string) {
	var names []string
	contents := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if script != "" && rel == script {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		names = append(names, rel)
		contents[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names, contents
}

// readGolden loads testdata/<name>/ as record.sh wrote it.
func readGolden(name string) (jobscripts.Run, error) {
	d := filepath.Join("testdata", name)
	rd := func(f string) (string, error) {
		b, err := os.ReadFile(filepath.Join(d, f))
		return string(b), err
	}
	var r jobscripts.Run
	var err error
	s, err := rd("sbatch.rc")
	if err != nil {
		return r, err
	}
	if r.RC, err = strconv.Atoi(strings.TrimSpace(s)); err != nil {
		return r, fmt.Errorf("%s/sbatch.rc: %v", d, err)
	}
	if r.Stdout, err = rd("sbatch.stdout"); err != nil {
		return r, err
	}
	if r.Stderr, err = rd("sbatch.stderr"); err != nil {
		return r, err
	}
	if s, err = rd("state"); err != nil {
		return r, err
	}
	if s = strings.TrimSuffix(s, "\n"); s != "" {
		r.State = strings.Split(s, "\n")
	}
	if s, err = rd("meta"); err != nil {
		return r, err
	}
	for _, l := range strings.Split(s, "\n") {
		k, v, _ := strings.Cut(l, "=")
		switch k {
		case "jobid":
			id, _ := strconv.ParseUint(v, 10, 32)
			r.Ids.JobID = uint32(id)
		case "taskjobids":
			for _, f := range strings.Fields(v) {
				id, _ := strconv.ParseUint(f, 10, 32)
				r.Ids.TaskJobIDs = append(r.Ids.TaskJobIDs, uint32(id))
			}
		case "submitdir":
			r.Ids.SubmitDir = v
		case "host":
			r.Ids.Host = v
		}
	}
	if s, err = rd("files.txt"); err != nil {
		return r, err
	}
	r.Contents = map[string]string{}
	for _, f := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, "files", f))
		if err != nil {
			return r, err
		}
		r.Files = append(r.Files, f)
		r.Contents[f] = string(b)
	}
	return r, nil
}

// lineDiff shows the lines of a and b that differ, in order (a small LCS diff: the texts are
// short).
func lineDiff(a, b string) string {
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	l := make([][]int, len(x)+1)
	for i := range l {
		l[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out.WriteString("  " + x[i])
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || l[i][j+1] >= l[i+1][j]):
			out.WriteString("+ " + y[j])
			j++
		default:
			out.WriteString("- " + x[i])
			i++
		}
	}
	return out.String()
}

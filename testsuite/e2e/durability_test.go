package e2e_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// commandEnv is the environment of a command run against c from a goroutine (Cluster.Run
// may only be called from the test's own goroutine).
func commandEnv(c *cluster.Cluster) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "SBATCH_") || strings.HasPrefix(kv, "SQUEUE_")
	})
	return append(env, "SLURM_CONF="+c.ConfPath)
}

// runBin runs a binary and returns its output and exit status; err is set only when it could
// not run at all.
func runBin(bin, dir string, env []string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code, err = ee.ExitCode(), nil
	}
	return o.String(), e.String(), code, err
}

// TestDurability_ControllerKilledDuringSubmissions submits 1,000 jobs with the real sbatch from
// concurrent processes while slurmctld is SIGKILLed and restarted at random points of the
// stream. Every job whose id sbatch printed must exist exactly once afterwards, ids must be
// unique, and no job may run twice: the running jobs append their id to a shared file.
func TestDurability_ControllerKilledDuringSubmissions(t *testing.T) {
	const (
		total    = 1000
		workers  = 8
		runEvery = 8 // one job in runEvery runs a script; the others are held
		kills    = 5
		maxFails = 2000 // consecutive failures of one worker: the controller never came back
	)
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 4, MinJobAge: 3600})
	ranFile := filepath.Join(c.Dir, "ran")
	script := writeScript(t, c, "record.sh", "#!/bin/sh\necho $SLURM_JOB_ID >> "+ranFile+"\n")
	sbatch, env := testbin.Path(t, "sbatch"), commandEnv(c)

	var (
		slot     atomic.Int64 // submissions claimed
		accepted atomic.Int64 // ids printed
		mu       sync.Mutex
		printed  = map[uint32]bool{} // id → runs a script
		dupes    []uint32
		problems []string
		failText = map[string]int{}
	)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := slot.Add(1); n <= total; n = slot.Add(1) {
				runs := n%runEvery == 0
				args := []string{"-J", "e2e_dur", "-o", "/dev/null", "-H", "--wrap", "true"}
				if runs {
					args = []string{"-J", "e2e_durrun", "-o", "/dev/null", script}
				}
				for fails := 0; ; fails++ {
					out, errOut, code, err := runBin(sbatch, c.WorkDir, env, args...)
					if m := submitted.FindStringSubmatch(out); err == nil && code == 0 && m != nil {
						id64, _ := strconv.ParseUint(m[1], 10, 32)
						id := uint32(id64)
						mu.Lock()
						if _, seen := printed[id]; seen {
							dupes = append(dupes, id)
						}
						printed[id] = runs
						mu.Unlock()
						accepted.Add(1)
						break
					}
					mu.Lock()
					failText[fmt.Sprintf("exit %d: %s", code, strings.TrimSpace(errOut))]++
					if err != nil || code == 0 || fails == maxFails {
						problems = append(problems, fmt.Sprintf("sbatch = %q, %q, exit %d, %v", out, errOut, code, err))
						mu.Unlock()
						return
					}
					mu.Unlock()
					time.Sleep(20 * time.Millisecond) // the controller is restarting
				}
			}
		}()
	}
	// Kill points: random positions in the stream of accepted submissions.
	var at []int64
	for i := 0; i < kills; i++ {
		at = append(at, 50+rand.Int64N(total-100))
	}
	slices.Sort(at)
	// A worker that gives up stops the stream short of a kill point: the kills then go on at
	// once rather than waiting for submissions that never come.
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	for _, k := range at {
	wait:
		for accepted.Load() < k {
			select {
			case <-stopped:
				break wait
			case <-time.After(2 * time.Millisecond):
			}
		}
		c.KillController(t)
		c.RestartController(t)
	}
	<-stopped
	t.Logf("kills after %v accepted submissions; failed sbatch attempts: %v", at, failText)
	if len(problems) > 0 {
		c.Fatalf(t, "sbatch failed for good: %v", problems)
	}
	if len(dupes) > 0 {
		c.Errorf(t, "sbatch printed these ids more than once: %v", dupes)
	}
	if len(printed) != total {
		c.Fatalf(t, "%d distinct ids printed, want %d", len(printed), total)
	}

	// Wait until every running job has finished; then check the table.
	deadline := time.Now().Add(2 * time.Minute)
	var jobs map[uint32]int
	var byID map[uint32]states.JobState
	for {
		jobs, byID = map[uint32]int{}, map[uint32]states.JobState{}
		var busy []string
		for _, j := range c.Jobs(t) {
			jobs[j.JobID]++
			st := states.JobState(j.State)
			byID[j.JobID] = st
			if runs, ok := printed[j.JobID]; ok && runs && (st.Base() == states.JobPending || st.Base() == states.JobRunning || st.IsCompleting()) {
				busy = append(busy, fmt.Sprintf("%d %s", j.JobID, st))
			}
		}
		if len(busy) == 0 {
			break
		}
		if time.Now().After(deadline) {
			slices.Sort(busy)
			c.Fatalf(t, "%d jobs still pending or running after 2 minutes: %s", len(busy), strings.Join(busy[:min(len(busy), 10)], ", "))
		}
		time.Sleep(200 * time.Millisecond)
	}
	for id, n := range jobs {
		if n != 1 {
			c.Errorf(t, "job %d listed %d times", id, n)
		}
	}
	ran := map[uint32]int{}
	b, _ := os.ReadFile(ranFile)
	for _, f := range strings.Fields(string(b)) {
		id, _ := strconv.ParseUint(f, 10, 32)
		ran[uint32(id)]++
	}
	lost, wrong, twice := 0, 0, 0
	for id, runs := range printed {
		st, ok := byID[id]
		switch {
		case !ok:
			lost++
			if lost <= 5 {
				c.Errorf(t, "job %d (id printed by sbatch) is unknown to the controller", id)
			}
		case runs && (st.Base() != states.JobComplete || ran[id] != 1):
			wrong++
			if wrong <= 5 {
				c.Errorf(t, "job %d: %s, ran %d times; want COMPLETED, once", id, st, ran[id])
			}
		case !runs && (st.Base() != states.JobPending || ran[id] != 0):
			wrong++
			if wrong <= 5 {
				c.Errorf(t, "held job %d: %s, ran %d times; want PENDING, never run", id, st, ran[id])
			}
		}
	}
	for id, n := range ran {
		if n > 1 {
			twice++
			if twice <= 5 {
				c.Errorf(t, "job %d ran %d times", id, n)
			}
		}
	}
	if lost+wrong+twice > 0 {
		c.Errorf(t, "%d lost, %d in the wrong state, %d ran more than once (of %d)", lost, wrong, twice, total)
	}
}

// slurmdPID finds the slurmd serving cluster c.
func slurmdPID(t *testing.T, c *cluster.Cluster) int {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	var found []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.Split(string(cmdline), "\x00")
		if err == nil && filepath.Base(args[0]) == "slurmd" && slices.Contains(args, c.ConfPath) && !zombie(pid) {
			found = append(found, pid)
		}
	}
	if len(found) != 1 {
		t.Fatalf("slurmd processes of this cluster: %v, want exactly one", found)
	}
	return found[0]
}

// zombie reports whether pid has exited (gone, or dead and not yet reaped).
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// startBackground starts cmd and returns the channel its Wait's result arrives on; the
// test's cleanup kills it by PID and waits for it. A test that takes the result puts it back
// (done <- err), so the cleanup does not block.
func startBackground(t *testing.T, cmd *exec.Cmd) chan error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	return done
}

// waitFor polls cond until it holds, failing the test after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestDurability_SlurmdKilledUnderRunningJobs SIGKILLs slurmd while batch jobs run. The jobs'
// slurmstepd and tasks live on; a job ending while slurmd is down completes normally (its
// slurmstepd reports to the controller itself); after slurmd restarts it reattaches to the
// surviving steps: one completes normally, one is cancelled through it.
func TestDurability_SlurmdKilledUnderRunningJobs(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2, MinJobAge: 300})
	script := writeScript(t, c, "gated.sh", "#!/bin/sh\necho $$ > pid.$SLURM_JOB_ID\n"+
		"while [ ! -e gate.$SLURM_JOB_ID ]; do sleep 0.1; done\necho finished $SLURM_JOB_ID\n")
	early := submit(t, c, "-J", "e2e_early", script)
	late := submit(t, c, "-J", "e2e_late", script)
	doomed := submit(t, c, "-J", "e2e_doomed", script)
	pids := map[uint32]int{}
	for _, id := range []uint32{early, late, doomed} {
		c.WaitJob(t, id, states.JobRunning)
		waitFor(t, fmt.Sprintf("job %d's script to start", id), func() bool {
			b, err := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("pid.%d", id)))
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			pids[id] = pid
			return err == nil && pid > 0
		})
	}
	open := func(id uint32) {
		if err := os.WriteFile(filepath.Join(c.WorkDir, fmt.Sprintf("gate.%d", id)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	finished := func(id uint32) {
		t.Helper()
		j := c.WaitJob(t, id, states.JobComplete, states.JobFailed, states.JobCancelled)
		if st := states.JobState(j.State); st.Base() != states.JobComplete || j.ExitCode != 0 {
			t.Errorf("job %d = %s %d:%d, want COMPLETED 0:0", id, st, j.ExitCode>>8, j.ExitCode&0xff)
		}
		out, _ := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("slurm-%d.out", id)))
		if want := fmt.Sprintf("finished %d\n", id); string(out) != want {
			t.Errorf("slurm-%d.out = %q, want %q", id, out, want)
		}
	}

	pid := slurmdPID(t, c)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "slurmd to die", func() bool { return zombie(pid) })
	for id, p := range pids {
		if zombie(p) {
			t.Fatalf("job %d's script (pid %d) died with slurmd", id, p)
		}
	}

	// A job ending while slurmd is down.
	open(early)
	finished(early)

	// slurmd comes back and finds the surviving steps.
	d := exec.Command(testbin.Path(t, "slurmd"), "-D", "-f", c.ConfPath, "-N", "n[1-2]")
	d.Env, d.Dir = commandEnv(c), c.Dir
	logf, err := os.OpenFile(filepath.Join(c.Dir, "log", "slurmd-restarted.stderr"), os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	d.Stdout, d.Stderr = logf, logf
	d.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	logf.Close()
	t.Cleanup(func() {
		d.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { d.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			d.Process.Kill()
			<-done
		}
	})
	waitFor(t, "the restarted slurmd to listen", func() bool {
		_, _, code := c.Run(t, "squeue", "-h")
		return code == 0 && !zombie(d.Process.Pid) && logContains(filepath.Join(c.Dir, "log", "slurmd-n1.log"), "slurmd started", 2)
	})

	// Cancel through the reattached step.
	if o, e, code := c.Run(t, "scancel", fmt.Sprint(doomed)); code != 0 || o != "" || e != "" {
		t.Fatalf("scancel %d = %q, %q, exit %d", doomed, o, e, code)
	}
	j := c.WaitJob(t, doomed, states.JobCancelled)
	if j.ExitCode != 15 {
		t.Errorf("cancelled job %d ExitCode = %d:%d, want 0:15", doomed, j.ExitCode>>8, j.ExitCode&0xff)
	}
	waitFor(t, fmt.Sprintf("job %d's script to be killed", doomed), func() bool { return zombie(pids[doomed]) })

	open(late)
	finished(late)
	c.WaitNodesIdle(t)
	id := submit(t, c, "-J", "e2e_after", "--wrap", "true")
	c.WaitJob(t, id, states.JobComplete)
}

// logContains reports whether file holds text at least n times.
func logContains(file, text string, n int) bool {
	b, _ := os.ReadFile(file)
	return strings.Count(string(b), text) >= n
}

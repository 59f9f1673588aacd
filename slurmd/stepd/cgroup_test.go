package stepd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		mib     uint64
		percent float64
		want    uint64
	}{{0, 100, 0}, {20, 100, 20 << 20}, {100, 50, 50 << 20}, {10, 0, 10 << 20}} {
		if got := MemoryLimit(c.mib, c.percent); got != c.want {
			t.Errorf("MemoryLimit(%d, %v) = %d, want %d", c.mib, c.percent, got, c.want)
		}
	}
}

func TestOOMMessage(t *testing.T) {
	want := "slurmstepd-n1: error: Detected 1 oom-kill event(s) in StepId=42.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.\n"
	if got := OOMMessage("n1", 1, "42.batch"); got != want {
		t.Errorf("OOMMessage = %q, want %q", got, want)
	}
}

// TestMemoryCgroup_OOMKillCounted runs a process that needs 200 MiB in a 20 MiB cgroup and
// expects the kernel's OOM killer to end it and the cgroup to count the kill.
func TestMemoryCgroup_OOMKillCounted(t *testing.T) {
	job := uint32(900000 + os.Getpid()%90000)
	m, err := NewMemoryCgroup("", "", job, "batch", MemoryLimit(20, 100))
	if errors.Is(err, ErrCgroupUnavailable) {
		t.Skipf("memory cgroups not writable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Remove()
	// The shell waits for a line on stdin so it joins the cgroup before it allocates;
	// tail must hold the whole (newline-free) 200 MiB line in memory.
	cmd := exec.Command("/bin/sh", "-c", "read x; head -c 200M /dev/zero | tail >/dev/null")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := m.AddPid(cmd.Process.Pid); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("AddPid: %v", err)
	}
	in.Write([]byte("go\n"))
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("the allocation neither finished nor was killed within 60 s")
	}
	if err == nil {
		t.Fatalf("a 200 MiB allocation succeeded in a 20 MiB cgroup")
	}
	if n := m.OOMKills(); n == 0 {
		t.Errorf("OOMKills = 0 after %v; want at least 1", err)
	}
	m.Remove()
	if _, err := os.Stat(m.Dir()); err == nil || !strings.Contains(m.Dir(), "orbit") {
		t.Errorf("cgroup %s still exists after Remove", m.Dir())
	}
}

// TestStep_PostTermWritesAndRewritesStatus: PostTerm's message lands in the first task's
// stderr file after the task's own output, and its status change is what Wait reports (as
// slurmstepd turns an oom-killed step's statuses into SIG_OOM).
func TestStep_PostTermWritesAndRewritesStatus(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\necho out\nexit 9\n")
	out := filepath.Join(spec.WorkDir, "job.out")
	spec.Tasks[0].Stdout = Stdio{Path: out}
	spec.Tasks[0].Stderr = Stdio{Path: out}
	calls := 0
	spec.PostTerm = func(e *TaskExit) string {
		calls++
		if e.ExitCode != 9 {
			t.Errorf("PostTerm saw exit code %d, want 9", e.ExitCode)
		}
		e.Status, e.ExitCode, e.Signal = SigOOM, 0, SigOOM&0x7f
		return OOMMessage("n1", 1, "1234.batch")
	}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	exits := waitStep(t, s)
	if calls != 1 || exits[0].Status != SigOOM || exits[0].String() != "0:125" {
		t.Errorf("PostTerm calls %d, exit %+v; want 1 call and status %d (0:125)", calls, exits[0], SigOOM)
	}
	want := "out\n" + OOMMessage("n1", 1, "1234.batch")
	if got := readFile(t, out); got != want {
		t.Errorf("output file %q, want %q", got, want)
	}
}

// TestStep_IOSetupError: an output file in a missing directory fails Start with an
// IOSetupError (slurmstepd then ends the batch job FAILED 0:53 instead of refusing it).
func TestStep_IOSetupError(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\ntrue\n")
	spec.Tasks[0].Stdout = Stdio{Path: filepath.Join(spec.WorkDir, "missing", "job.out")}
	_, err := Start(spec)
	var ioe *IOSetupError
	if !errors.As(err, &ioe) {
		t.Fatalf("Start = %v, want an IOSetupError", err)
	}
}

package stepd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestStep_OutputFiles_OpenMode(t *testing.T) {
	cases := []struct {
		name     string
		append   bool
		wantOut  string
		wantErr  string
		existing string
	}{
		{"truncate", false, "out\n", "err\n", "old\n"},
		{"append", true, "old\nout\n", "old\nerr\n", "old\n"},
		{"new files", false, "out\n", "err\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := batchSpec(t, "#!/bin/sh\necho out\necho err >&2\n")
			out := filepath.Join(spec.WorkDir, "slurm-1234.out")
			errPath := "job.err" // relative: opened in the working directory
			if c.existing != "" {
				os.WriteFile(out, []byte(c.existing), 0644)
				os.WriteFile(filepath.Join(spec.WorkDir, errPath), []byte(c.existing), 0644)
			}
			spec.Tasks[0].Stdout = Stdio{Path: out, Append: c.append}
			spec.Tasks[0].Stderr = Stdio{Path: errPath, Append: c.append}
			s, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			exits := waitStep(t, s)
			if got := exits[0].String(); got != "0:0" {
				t.Errorf("exit %s, want 0:0", got)
			}
			if got := readFile(t, out); got != c.wantOut {
				t.Errorf("stdout file %q, want %q", got, c.wantOut)
			}
			if got := readFile(t, filepath.Join(spec.WorkDir, errPath)); got != c.wantErr {
				t.Errorf("stderr file %q, want %q", got, c.wantErr)
			}
		})
	}
}

func TestStep_SameFileForStdoutAndStderr(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\necho one\necho two >&2\necho three\n")
	out := filepath.Join(spec.WorkDir, "both.out")
	spec.Tasks[0].Stdout = Stdio{Path: out}
	spec.Tasks[0].Stderr = Stdio{Path: out}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	waitStep(t, s)
	if got := readFile(t, out); got != "one\ntwo\nthree\n" {
		t.Errorf("file %q, want all three lines in order", got)
	}
}

func TestStep_ExitEncoding(t *testing.T) {
	cases := []struct {
		script    string
		want      string
		wantState string
	}{
		{"exit 0", "0:0", StateCompleted},
		{"exit 3", "3:0", StateFailed},
		{"kill -USR1 $$", "0:10", StateFailed},
		{"kill -KILL $$", "0:9", StateFailed},
	}
	for _, c := range cases {
		t.Run(c.script, func(t *testing.T) {
			s, err := Start(batchSpec(t, "#!/bin/sh\n"+c.script+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			exits := waitStep(t, s)
			if got := exits[0].String(); got != c.want {
				t.Errorf("task exit %s, want %s", got, c.want)
			}
			if got := s.ExitStatus().String(); got != c.want {
				t.Errorf("step ExitCode=%s, want %s", got, c.want)
			}
			if got := s.State(); got != c.wantState {
				t.Errorf("state %s, want %s", got, c.wantState)
			}
		})
	}
}

func TestStep_TimeLimit_KillWait(t *testing.T) {
	spec := batchSpec(t, "#!/bin/bash\ntrap '' TERM\nsleep 100\n")
	spec.TimeLimit, spec.KillWait = 1, 1
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	exits := waitStep(t, s)
	if exits[0].Signal != int(syscall.SIGKILL) {
		t.Errorf("task ended %s, want killed by SIGKILL (0:9)", exits[0])
	}
	if got := s.State(); got != StateTimeout {
		t.Errorf("state %s, want %s", got, StateTimeout)
	}
}

func TestStep_Kill_Cancelled(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\necho started\nsleep 100\n")
	out := filepath.Join(spec.WorkDir, "out")
	spec.Tasks[0].Stdout = Stdio{Path: out}
	spec.KillWait = 30 // SIGTERM must be enough: the kill is not waiting for KillWait
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the script to start", func() bool { b, _ := os.ReadFile(out); return len(b) > 0 })
	s.Kill()
	exits := waitStep(t, s)
	if exits[0].Signal != int(syscall.SIGTERM) {
		t.Errorf("task ended %s, want killed by SIGTERM (0:15)", exits[0])
	}
	if got := s.State(); got != StateCancelled {
		t.Errorf("state %s, want %s", got, StateCancelled)
	}
	if err := s.Signal(syscall.SIGUSR1, nil); err != ErrStepDone {
		t.Errorf("Signal after the end: %v, want ErrStepDone", err)
	}
}

func TestStep_Signal(t *testing.T) {
	spec := batchSpec(t, "#!/bin/bash\ntrap 'exit 5' USR2\necho ready > ready\nwhile :; do sleep 0.1; done\n")
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the trap", func() bool { _, err := os.Stat(filepath.Join(spec.WorkDir, "ready")); return err == nil })
	if err := s.Signal(syscall.SIGUSR2, []int{7}); err == nil {
		t.Error("signal to local id 7 of a one-task step: no error")
	}
	if err := s.Signal(syscall.SIGUSR2, []int{0}); err != nil {
		t.Fatal(err)
	}
	exits := waitStep(t, s)
	if got := exits[0].String(); got != "5:0" {
		t.Errorf("exit %s, want 5:0 from the trap", got)
	}
}

func TestStep_EscapedProcessesKilled(t *testing.T) {
	cases := []struct{ name, launch string }{
		{"setsid background", "setsid sh -c 'echo $$ > pid; exec sleep 300' &"},
		{"double fork", "( setsid sh -c 'echo $$ > pid; exec sleep 300' & )"},
		{"own process group", "( set -m; sh -c 'echo $$ > pid; exec sleep 300' & )"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := batchSpec(t, "#!/bin/bash\n"+c.launch+"\nwhile [ ! -s pid ]; do sleep 0.05; done\nexit 0\n")
			s, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			exits := waitStep(t, s)
			if exits[0].String() != "0:0" {
				t.Fatalf("script ended %s", exits[0])
			}
			pid := atoi(t, strings.TrimSpace(readFile(t, filepath.Join(spec.WorkDir, "pid"))))
			if !processDead(pid) {
				t.Errorf("escaped process %d still runs after the step ended", pid)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		})
	}
}

func TestStep_ChdirFallback(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\npwd\n")
	spec.WorkDir = "/nonexistent/dir"
	dir := t.TempDir()
	spec.Tasks[0].Stdout = Stdio{Path: filepath.Join(dir, "out")}
	spec.Tasks[0].Stderr = Stdio{Path: filepath.Join(dir, "err")}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	waitStep(t, s)
	if got := readFile(t, filepath.Join(dir, "out")); got != "/tmp\n" {
		t.Errorf("pwd printed %q, want /tmp", got)
	}
	line := "slurmstepd-n1: error: couldn't chdir to `/nonexistent/dir': No such file or directory: going to /tmp instead\n"
	if got := readFile(t, filepath.Join(dir, "err")); got != line+line {
		t.Errorf("stderr %q, want Slurm 22.05's two lines %q", got, line)
	}
}

// syncBuffer is a Writer the test can read while the copy goroutine writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestStep_Streams_MultiTask(t *testing.T) {
	var out0, out1, err1 syncBuffer
	spec := StepSpec{
		JobID: 77, StepID: "0", NodeName: "n1", Spool: t.TempDir(),
		UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), WorkDir: "/tmp",
		Env: []string{"PATH=/usr/bin:/bin"},
		Tasks: []Task{
			{Rank: 4, LocalID: 0, Argv: []string{"/bin/sh", "-c", "cat; exit 3"},
				Stdin: Stdio{Reader: strings.NewReader("hello\n")}, Stdout: Stdio{Writer: &out0}},
			{Rank: 5, LocalID: 1, Argv: []string{"/bin/sh", "-c", "echo oops >&2; kill -USR1 $$"},
				Stdout: Stdio{Writer: &out1}, Stderr: Stdio{Writer: &err1}},
			{Rank: 6, LocalID: 2, Argv: []string{"/nonexistent/prog"}, Stderr: Stdio{Writer: &err1}},
		},
	}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	exits := waitStep(t, s)
	want := []string{"3:0", "0:10", "2:0"}
	for i, e := range exits {
		if e.String() != want[i] || e.Rank != spec.Tasks[i].Rank {
			t.Errorf("task %d: rank %d exit %s, want rank %d exit %s", i, e.Rank, e, spec.Tasks[i].Rank, want[i])
		}
	}
	if got := out0.String(); got != "hello\n" {
		t.Errorf("task 0 stdout %q, want the stdin it was given", got)
	}
	wantErr := "oops\nslurmstepd-n1: error: execve(): /nonexistent/prog: No such file or directory\n"
	if got := err1.String(); !strings.Contains(got, "oops\n") || !strings.Contains(got, "slurmstepd-n1: error: execve(): /nonexistent/prog: No such file or directory\n") {
		t.Errorf("stderr %q, want both lines of %q", got, wantErr)
	}
	if got := s.ExitStatus().String(); got != "0:10" {
		t.Errorf("step exit %s, want 0:10 (the signalled task decides)", got)
	}
	if got := SrunExitCode(exits); got != 138 {
		t.Errorf("srun exit code %d, want 138 (128+SIGUSR1)", got)
	}
}

func TestStep_BatchScriptInSpool(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\necho \"$0 $1 $2\"\nstat -c %a \"$0\"\n")
	spec.Tasks[0].Argv = []string{"ignored", "a1", "a2"}
	out := filepath.Join(spec.WorkDir, "out")
	spec.Tasks[0].Stdout = Stdio{Path: out}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	waitStep(t, s)
	script := filepath.Join(spec.Spool, "job01234", "slurm_script")
	if got, want := readFile(t, out), script+" a1 a2\n700\n"; got != want {
		t.Errorf("script printed %q, want %q", got, want)
	}
	if _, err := os.Stat(script); !os.IsNotExist(err) {
		t.Errorf("batch script still present after the step: %v", err)
	}
}

func TestStart_BadSpec(t *testing.T) {
	base := func(t *testing.T) StepSpec { return batchSpec(t, "#!/bin/sh\ntrue\n") }
	cases := []struct {
		name   string
		mutate func(*StepSpec)
		want   string
	}{
		{"missing script", func(s *StepSpec) { s.Script = nil }, "batch step of job 1234 has no script"},
		{"unknown uid", func(s *StepSpec) { s.UID = 3999999 }, "user id 3999999 not found on node n1"},
		{"bad step id", func(s *StepSpec) { s.StepID = "x1" }, `invalid step id "x1"`},
		{"no tasks", func(s *StepSpec) { s.Tasks = nil }, "has no tasks on this node"},
		{"no spool", func(s *StepSpec) { s.Spool = "" }, "no spool directory"},
		{"step task without argv", func(s *StepSpec) { s.StepID = "0"; s.Tasks = []Task{{Rank: 3}} }, "task 3 of step 1234.0 has no command"},
		{"unopenable output", func(s *StepSpec) { s.Tasks[0].Stdout = Stdio{Path: "/nonexistent/dir/out"} },
			"Could not open stdout file /nonexistent/dir/out: No such file or directory"},
		{"missing input", func(s *StepSpec) { s.Tasks[0].Stdin = Stdio{Path: "/nonexistent/in"} },
			"Could not open stdin file /nonexistent/in: No such file or directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := base(t)
			c.mutate(&spec)
			s, err := Start(spec)
			if err == nil {
				waitStep(t, s)
				t.Fatalf("Start accepted the spec, want error %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestStepExit_Rules(t *testing.T) {
	cases := []struct {
		exits    []TaskExit
		step     string
		srunCode int
	}{
		{nil, "0:0", 0},
		{[]TaskExit{{ExitCode: 1}, {ExitCode: 7}, {ExitCode: 2}}, "7:0", 7},
		{[]TaskExit{{ExitCode: 200}, {Signal: 9}}, "0:9", 200},
		{[]TaskExit{{Signal: 15}, {Signal: 9}}, "0:15", 143},
	}
	for _, c := range cases {
		if got := StepExit(c.exits).String(); got != c.step {
			t.Errorf("StepExit(%v) = %s, want %s", c.exits, got, c.step)
		}
		if got := SrunExitCode(c.exits); got != c.srunCode {
			t.Errorf("SrunExitCode(%v) = %d, want %d", c.exits, got, c.srunCode)
		}
	}
}

func BenchmarkStepTrue(b *testing.B) {
	spool := b.TempDir()
	spec := StepSpec{
		JobID: 9, StepID: "0", Spool: spool, UID: uint32(os.Getuid()), GID: uint32(os.Getgid()),
		WorkDir: "/tmp", Env: []string{"PATH=/usr/bin:/bin"},
		Tasks: []Task{{Argv: []string{"/bin/true"}}},
	}
	for b.Loop() {
		s, err := Start(spec)
		if err != nil {
			b.Fatal(err)
		}
		if e := s.Wait(); e[0].Failed() {
			b.Fatalf("/bin/true ended %s", e[0])
		}
	}
}

package taskexec

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startPiped starts p with stdin from /dev/null and stdout and stderr to a pipe, whose
// read end it returns (closed when the test ends).
func startPiped(t *testing.T, p *Proc) (int, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	p.Files = [3]uintptr{null.Fd(), w.Fd(), w.Fd()}
	pid, err := Start(p)
	w.Close()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return pid, r
}

// run starts p with stdout and stderr to a pipe and returns what it wrote and its status.
func run(t *testing.T, p Proc) (string, syscall.WaitStatus) {
	t.Helper()
	pid, r := startPiped(t, &p)
	var out bytes.Buffer
	out.ReadFrom(r)
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	return out.String(), ws
}

func TestStart_PidVarIsTheTasksOwnPid(t *testing.T) {
	out, ws := run(t, Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", `echo "$SLURM_TASK_PID $$ $SLURM_PROCID $KEEP"`},
		Env: []string{"SLURM_TASK_PID=stale", "SLURM_PROCID=9", "KEEP=yes"}, Extra: []string{"SLURM_PROCID=3"},
		PidVar: "SLURM_TASK_PID"})
	if ws.ExitStatus() != 0 {
		t.Fatalf("exit %v, output %q", ws, out)
	}
	f := strings.Fields(out)
	if len(f) != 4 || f[0] != f[1] || f[2] != "3" || f[3] != "yes" {
		t.Fatalf("got %q; want SLURM_TASK_PID equal to $$, SLURM_PROCID=3 (per-task value wins), KEEP=yes", out)
	}
	if _, err := strconv.Atoi(f[0]); err != nil {
		t.Fatalf("pid %q is not a number", f[0])
	}
}

func TestStart_EnvironmentHasOneEntryPerOverriddenName(t *testing.T) {
	out, _ := run(t, Proc{Path: "/usr/bin/env", Argv: []string{"env"},
		Env: []string{"A=1", "B=2", "A=3"}, Extra: []string{"B=4", "B=5"}, PidVar: "P"})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var bs, ps, as int
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "A="):
			as++
		case strings.HasPrefix(l, "B="):
			bs++
			if l != "B=5" {
				t.Errorf("got %q, want B=5 (the last per-task entry)", l)
			}
		case strings.HasPrefix(l, "P="):
			ps++
		}
	}
	// Entries of Env that nothing overrides pass as they are, duplicates included.
	if as != 2 || bs != 1 || ps != 1 {
		t.Fatalf("environment %q: want A twice, B and P once", lines)
	}
}

func TestStart_SessionDirectorySignalsAndMask(t *testing.T) {
	dir := t.TempDir()
	// The caller ignores SIGPIPE (as slurmstepd does); the task must not inherit that.
	old := ignorePipe(t)
	defer old()
	// The masks are read by the task's last program, exec'd in its place: the shell's own
	// status can show every signal blocked while it forks a child (dash blocks them then).
	out, ws := run(t, Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", `pwd; ps -o sid= -p $$; exec grep -E '^Sig(Ign|Blk)' /proc/self/status`},
		Env: []string{"PATH=/usr/bin:/bin"}, Dir: dir, Setsid: true})
	if ws.ExitStatus() != 0 {
		t.Fatalf("exit %v: %s", ws, out)
	}
	f := strings.Fields(out)
	if len(f) < 6 || f[0] != dir {
		t.Fatalf("output %q: want the working directory %s first", out, dir)
	}
	if f[2] != "SigBlk:" || f[3] != "0000000000000000" || f[4] != "SigIgn:" || f[5] != "0000000000000000" {
		t.Fatalf("output %q: want no blocked and no ignored signal, as a Slurm task", out)
	}
	if sid, _ := strconv.Atoi(f[1]); sid == os.Getpid() || sid == 0 {
		t.Fatalf("task's session %d: want a session of its own", sid)
	}
}

func TestStart_ExecFailureIsTheErrno(t *testing.T) {
	_, err := Start(&Proc{Path: "/nonexistent/cmd", Argv: []string{"cmd"}, Files: [3]uintptr{0, 1, 2}})
	if !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("err %v, want ENOENT", err)
	}
	_, err = Start(&Proc{Path: "/bin/true", Argv: []string{"true"}, Dir: "/nonexistent", Files: [3]uintptr{0, 1, 2}})
	if !errors.Is(err, syscall.ENOENT) {
		t.Fatalf("chdir: err %v, want ENOENT", err)
	}
}

func TestStart_StreamsBelowThreeAreMoved(t *testing.T) {
	// The child's stdout and stderr both given as descriptor 1 (the test's own stdout may be
	// anything): only what lands there matters, that the dup2 order does not lose it.
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pid, err := Start(&Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", "echo out; echo err >&2"},
		Files: [3]uintptr{f.Fd(), f.Fd(), f.Fd()}})
	if err != nil {
		t.Fatal(err)
	}
	var ws syscall.WaitStatus
	syscall.Wait4(pid, &ws, 0, nil)
	b, _ := os.ReadFile(f.Name())
	if string(b) != "out\nerr\n" {
		t.Fatalf("file holds %q", b)
	}
}

func TestStart_BadInputRefused(t *testing.T) {
	for _, p := range []Proc{
		{Path: "", Argv: []string{"x"}},
		{Path: "/bin/true", Argv: nil},
		{Path: "/bin/true", Argv: []string{"a\x00b"}},
		{Path: "/bin/true", Argv: []string{"true"}, PidVar: "1BAD"},
		{Path: "/bin/true", Argv: []string{"true"}, Env: []string{"X=\x00"}},
	} {
		if _, err := Start(&p); err == nil {
			t.Errorf("Start(%+v) succeeded", p)
		}
	}
}

// FuzzPack checks that whatever strings come in, the packed block holds argv and the
// environment exactly (or the input is refused), and the pid's room is where it says.
func FuzzPack(f *testing.F) {
	f.Add("/bin/true", "true", "A=1", "A=2", "SLURM_TASK_PID")
	f.Add("x", "", "=", "B", "")
	f.Add("p", "a\x00", "C=3", "C", "P")
	f.Fuzz(func(t *testing.T, path, arg, env, extra, pidVar string) {
		p := &Proc{Path: path, Argv: []string{arg}, Env: []string{env}, Extra: []string{extra}, PidVar: pidVar}
		l, err := pack(p)
		if err != nil {
			return
		}
		at := func(off int) string {
			end := bytes.IndexByte(l.block[off:], 0)
			if end < 0 {
				t.Fatalf("string at %d not terminated", off)
			}
			return string(l.block[off : off+end])
		}
		if at(0) != path || len(l.argv) != 1 || at(l.argv[0]) != arg {
			t.Fatalf("path/argv not packed as given")
		}
		var env2 []string
		for _, off := range l.envp {
			env2 = append(env2, at(off))
		}
		if pidVar != "" {
			last := env2[len(env2)-1]
			if last != pidVar+"="+strings.Repeat("0", maxPidDigits) || l.pidSlot != l.envp[len(l.envp)-1]+len(pidVar)+1 {
				t.Fatalf("pid slot misplaced: %q at %d", last, l.pidSlot)
			}
		}
		overridden := envName(env) == envName(extra) || pidVar != "" && envName(env) == pidVar
		kept := false
		for _, kv := range env2[:len(env2)-1] { // the last is extra's or the pid's
			kept = kept || kv == env
		}
		if pidVar != "" && !overridden && extra == env && len(env2) >= 2 {
			kept = kept || env2[len(env2)-2] == env
		}
		if kept == overridden && !(extra == env) {
			t.Fatalf("entry %q kept=%v, overridden=%v: %q", env, kept, overridden, env2)
		}
	})
}

// An inherited descriptor stays open in the task at its own number, and only that one: a
// second close-on-exec descriptor of the caller does not reach the task.
func TestStart_InheritKeepsOnlyTheNamedDescriptor(t *testing.T) {
	keep, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer keep.Close()
	other, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	script := `for fd in ` + strconv.Itoa(int(keep.Fd())) + ` ` + strconv.Itoa(int(other.Fd())) +
		`; do if [ -e /proc/self/fd/$fd ]; then echo open; else echo closed; fi; done`
	out, ws := run(t, Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Inherit: []uintptr{keep.Fd()}})
	if ws.ExitStatus() != 0 || out != "open\nclosed\n" {
		t.Fatalf("exit %v, output %q; want the inherited descriptor open and the other closed", ws, out)
	}
	if _, err := Start(&Proc{Path: "/bin/true", Argv: []string{"true"}, Files: [3]uintptr{0, 1, 2}, Inherit: []uintptr{1}}); err == nil {
		t.Fatal("Start inherited a standard stream number; want EBADF")
	}
}

// TestStart_StopAtExec: a task started for a parallel debugger stops as it execs and is
// left stopped and untraced ("T" in /proc, as Slurm's pdebug_trace_process leaves it),
// writes nothing, and ends of SIGTERM and SIGCONT as any stopped process.
func TestStart_StopAtExec(t *testing.T) {
	pid, r := startPiped(t, &Proc{Path: "/bin/echo", Argv: []string{"echo", "ran"}, StopAtExec: true})
	defer syscall.Kill(pid, syscall.SIGKILL)
	var state []string
	for i := 0; i < 200; i++ { // the SIGSTOP takes effect as the task leaves its trace stop
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		if state = strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(state) > 0 && state[0] == "T" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(state) == 0 || state[0] != "T" {
		t.Errorf("state %q; want T (stopped)", state)
	}
	// SIGTERM first: it is delivered as SIGCONT resumes the task, before it runs anything.
	syscall.Kill(pid, syscall.SIGTERM)
	syscall.Kill(pid, syscall.SIGCONT)
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("after SIGTERM and SIGCONT: %v %v; want ended by SIGTERM", ws, err)
	}
	var out bytes.Buffer
	out.ReadFrom(r)
	if out.Len() != 0 {
		t.Errorf("a stopped task wrote %q", out.String())
	}
}

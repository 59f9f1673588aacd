//go:build linux && cgo

package taskexec

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Resource numbers the syscall package does not name.
const (
	rlimitNproc   = 6
	rlimitMemlock = 8
)

// TestStart_RlimitsSetInTheTaskOnly starts a shell with propagated soft limits and checks it
// sees them, that a limit above the hard one is clamped when asked, that one that cannot be
// set is reported on the task's stderr while the task still runs, and that the caller's own
// limits are untouched.
func TestStart_RlimitsSetInTheTaskOnly(t *testing.T) {
	var nofile, before syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &nofile); err != nil {
		t.Fatal(err)
	}
	before = nofile
	// A second limit with a finite hard limit, for the failure (ulimit flag, resource).
	var fail struct {
		flag string
		res  int
	}
	for _, c := range []struct {
		flag string
		res  int
	}{{"-l", rlimitMemlock}, {"-u", rlimitNproc}} {
		var l syscall.Rlimit
		if syscall.Getrlimit(c.res, &l) == nil && l.Max != ^uint64(0) {
			fail.flag, fail.res = c.flag, c.res
			break
		}
	}
	if fail.flag == "" {
		t.Skip("needs a finite hard MEMLOCK or NPROC limit for the failing case")
	}
	out, ws := run(t, Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", "ulimit -c; ulimit -n; echo ran"},
		Rlimits: []Rlimit{
			{Resource: syscall.RLIMIT_CORE, Cur: 0},
			{Resource: syscall.RLIMIT_NOFILE, Cur: ^uint64(0), Clamp: true},
			{Resource: fail.res, Cur: ^uint64(0), FailMsg: "slurmstepd: error: Can't propagate RLIMIT_X of 'unlimited' from submit host: "},
		}})
	if ws.ExitStatus() != 0 {
		t.Fatalf("exit %v: %q", ws, out)
	}
	want := "slurmstepd: error: Can't propagate RLIMIT_X of 'unlimited' from submit host: Invalid argument\n" +
		"0\n" + strconv.FormatUint(nofile.Max, 10) + "\nran\n"
	if out != want {
		t.Fatalf("task printed %q, want %q", out, want)
	}
	var after syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &after)
	if after != before {
		t.Fatalf("caller's NOFILE limit changed: %+v -> %+v", before, after)
	}
}

// TestStart_RlimitFailureWithoutMessageIsQuiet: a limit that cannot be set and has no
// FailMsg says nothing (a slurm.conf-propagated limit: Slurm logs it only at verbose level).
func TestStart_RlimitFailureWithoutMessageIsQuiet(t *testing.T) {
	out, ws := run(t, Proc{Path: "/bin/sh", Argv: []string{"sh", "-c", "echo ok"},
		Rlimits: []Rlimit{{Resource: syscall.RLIMIT_NOFILE, Cur: ^uint64(0)}}})
	if ws.ExitStatus() != 0 || strings.TrimSpace(out) != "ok" {
		t.Fatalf("exit %v, task printed %q", ws, out)
	}
}

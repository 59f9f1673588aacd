package node

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestRunScripts_GlobOrderStopsAtFirstFailure(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	writeExec(t, filepath.Join(dir, "a.sh"), "#!/bin/sh\necho a >> "+log+"\n")
	writeExec(t, filepath.Join(dir, "b.sh"), "#!/bin/sh\necho b >> "+log+"\necho failing b\nexit 4\n")
	writeExec(t, filepath.Join(dir, "c.sh"), "#!/bin/sh\necho c >> "+log+"\n")
	r := runScripts(filepath.Join(dir, "*.sh"), nil, dir, 0)
	if ws := syscall.WaitStatus(r.status); !ws.Exited() || ws.ExitStatus() != 4 || r.timedOut {
		t.Errorf("status = %v (timed out %v), want exit 4", ws, r.timedOut)
	}
	if r.path != filepath.Join(dir, "b.sh") || r.output != "failing b" {
		t.Errorf("failing script %q output %q", r.path, r.output)
	}
	if b, _ := os.ReadFile(log); string(b) != "a\nb\n" {
		t.Errorf("scripts ran: %q, want a then b and not c", b)
	}
	if r.String() != "status=4:0" {
		t.Errorf("String() = %q", r.String())
	}
}

func TestRunScripts_NoMatchAndNotExecutableFail(t *testing.T) {
	dir := t.TempDir()
	if r := runScripts(filepath.Join(dir, "missing*"), nil, dir, 0); !r.failed() {
		t.Errorf("a pattern matching nothing succeeded")
	}
	p := filepath.Join(dir, "plain")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644)
	if r := runScripts(p, nil, dir, 0); !r.failed() || syscall.WaitStatus(r.status).ExitStatus() != 127 {
		t.Errorf("a non-executable script: status %d, want exit 127", r.status)
	}
	if r := runScripts("relative.sh", nil, dir, 0); !r.failed() {
		t.Errorf("a relative path succeeded")
	}
}

func TestRunScripts_ExactEnvironment(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	writeExec(t, filepath.Join(dir, "p.sh"), "#!/bin/sh\n/usr/bin/env > "+out+"\n")
	if r := runScripts(filepath.Join(dir, "p.sh"), []string{"SLURM_JOB_ID=7"}, dir, 0); r.failed() {
		t.Fatalf("script failed: %v %s", r, r.output)
	}
	b, _ := os.ReadFile(out)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if k, _, _ := strings.Cut(line, "="); k != "SLURM_JOB_ID" && k != "PWD" && k != "SHLVL" && k != "_" {
			t.Errorf("unexpected variable %q in the script's environment", line)
		}
	}
	if !strings.Contains(string(b), "SLURM_JOB_ID=7\n") {
		t.Errorf("environment %q lacks SLURM_JOB_ID=7", b)
	}
}

func TestRunScripts_TimeoutKills(t *testing.T) {
	dir := t.TempDir()
	writeExec(t, filepath.Join(dir, "slow.sh"), "#!/bin/sh\nexec sleep 60\n")
	r := runScripts(filepath.Join(dir, "slow.sh"), nil, dir, time.Second)
	if !r.timedOut || !r.failed() {
		t.Errorf("result %v: want timed out and failed", r)
	}
}

func TestCompressCounts(t *testing.T) {
	if got := compressCounts([]uint32{2, 2, 2, 1}); got != "2(x3),1" {
		t.Errorf("compressCounts = %q", got)
	}
}

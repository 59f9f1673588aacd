// Package testmunge starts a private munged for tests: its own key, socket, pid, seed and log
// files in a directory the test owns, stopped by pid when the test ends. Tests never use a
// shared system or reference munged: its socket may be stale and its key is not theirs.
//
// Only tests import it; it imports nothing of Orbit's.
package testmunge

import (
	"crypto/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// startBound bounds the wait for munged's socket: a guard against a hanging test, never a
// performance expectation.
const startBound = 30 * time.Second

// Start starts munged under dir (created if missing) and returns its socket. The test is
// skipped, naming what is missing, where MUNGE is not installed (testsuite/scripts/
// ensure-deps.sh installs it).
func Start(t testing.TB, dir string) string {
	t.Helper()
	for _, c := range []string{"munge", "unmunge", "munged"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("auth/munge not tested: %s is not installed (apt-get install munge)", c)
		}
	}
	// munged refuses a socket directory others can write to.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 1024)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "munge.key")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "munge.socket")
	munged, _ := exec.LookPath("munged")
	cmd := exec.Command(munged, "--foreground", "--force", "--socket="+sock, "--key-file="+keyFile,
		"--log-file="+filepath.Join(dir, "munged.log"), "--pid-file="+filepath.Join(dir, "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munged.seed"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting munged: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	deadline := time.Now().Add(startBound)
	for {
		// The socket file exists once munged bound it, a moment before it listens: only a
		// connection that is accepted says it is ready.
		if conn, err := net.Dial("unix", sock); err == nil {
			conn.Close()
			return sock
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "munged.log"))
			t.Fatalf("munged exited before listening: %v\n%s", err, log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("munged did not create its socket within %v", startBound)
		}
	}
}

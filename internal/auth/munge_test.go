package auth

import (
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// mungeSocket starts a private munged (its own key, socket, pid and log files in a temp dir)
// and returns its socket; the daemon is stopped by pid when the test ends. A shared system or
// reference munged is never used: its socket may be stale and its key is not ours.
func mungeSocket(t *testing.T) string {
	t.Helper()
	for _, c := range []string{"munge", "unmunge", "munged"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Skipf("auth/munge not tested: %s is not installed (apt-get install munge)", c)
		}
	}
	dir, err := os.MkdirTemp("", "orbit-munge-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
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
	cmd := exec.Command(mustLookPath(t, "munged"), "--foreground", "--force",
		"--socket="+sock, "--key-file="+keyFile,
		"--log-file="+filepath.Join(dir, "munged.log"),
		"--pid-file="+filepath.Join(dir, "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munged.seed"))
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
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st, err := os.Stat(sock); err == nil && st.Mode().Type() == os.ModeSocket {
			return sock
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(filepath.Join(dir, "munged.log"))
			t.Fatalf("munged exited before listening: %v\n%s", err, log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("munged did not create its socket within 10s")
		}
	}
}

func mustLookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("auth/munge not tested: %s is not installed", name)
	}
	return p
}

func TestMunge_SignVerify(t *testing.T) {
	sock := mungeSocket(t)
	s := &MungeSigner{Socket: sock}
	v := &MungeVerifier{Socket: sock}
	d := digestOf("munge body")
	cred, err := s.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(cred, d)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if id.UID != uint32(os.Getuid()) || id.GID != uint32(os.Getgid()) {
		t.Errorf("munge identity uid=%d gid=%d, want %d/%d", id.UID, id.GID, os.Getuid(), os.Getgid())
	}
	if id.IssuedAt == 0 || id.Expiry <= id.IssuedAt {
		t.Errorf("munge identity times issued=%d expiry=%d", id.IssuedAt, id.Expiry)
	}
	if _, err := v.Verify(cred, d); !errors.Is(err, ErrReplayed) {
		t.Errorf("replayed munge credential: %v, want ErrReplayed", err)
	}
	cred2, err := s.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(cred2, digestOf("other")); !errors.Is(err, ErrDigestMismatch) {
		t.Errorf("wrong digest: %v, want ErrDigestMismatch", err)
	}
	if _, err := v.Verify([]byte("MUNGE:garbage:"), d); !errors.Is(err, ErrForged) {
		t.Errorf("garbage munge credential: %v, want ErrForged", err)
	}
	forged := append([]byte(nil), cred...)
	forged[len(forged)/2] ^= 0x01
	if _, err := v.Verify(forged, d); err == nil {
		t.Error("altered munge credential accepted")
	}
}

func TestMunge_NoDaemon(t *testing.T) {
	if _, err := exec.LookPath("munge"); err != nil {
		t.Skip("auth/munge not tested: the munge command is not installed")
	}
	s := &MungeSigner{Socket: t.TempDir() + "/no.socket"}
	if _, err := s.Sign(digestOf("x")); !errors.Is(err, ErrAgent) {
		t.Fatalf("munge with no munged: %v, want ErrAgent", err)
	}
}

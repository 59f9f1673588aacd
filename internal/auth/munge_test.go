package auth

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// referenceMungeSocket is the munged the reference Slurm runs on this machine; the test uses
// it read-only when it exists, else the system default.
const referenceMungeSocket = "/tmp/slurm-anchor/munge/munge.socket.2"

func mungeSocket(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("munge"); err != nil {
		t.Skip("auth/munge not tested: the munge command is not installed")
	}
	if _, err := exec.LookPath("unmunge"); err != nil {
		t.Skip("auth/munge not tested: the unmunge command is not installed")
	}
	for _, p := range []string{os.Getenv("ORBIT_TEST_MUNGE_SOCKET"), referenceMungeSocket, DefaultMungeSocket} {
		if p == "" {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.Mode().Type() == os.ModeSocket {
			return p
		}
	}
	t.Skip("auth/munge not tested: no munged socket found (set ORBIT_TEST_MUNGE_SOCKET)")
	return ""
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

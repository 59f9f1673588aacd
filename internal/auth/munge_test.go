package auth

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testmunge"
)

// mungeSocket starts a private munged for the test and returns its socket.
func mungeSocket(t *testing.T) string {
	t.Helper()
	return testmunge.Start(t, t.TempDir())
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

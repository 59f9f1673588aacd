package auth

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestMungeLaunch_SignVerify(t *testing.T) {
	sock := mungeSocket(t)
	me := uint32(os.Getuid())
	s := &MungeLaunchSigner{Munge: &MungeSigner{Socket: sock}}
	v := &MungeLaunchVerifier{Munge: &MungeVerifier{Socket: sock}, Trusted: []uint32{me}}
	cred, err := s.SignLaunch(LaunchCred{JobID: 7, StepID: 1, UID: 1000, GID: 1000, NodeList: "n[1-3]"})
	if err != nil {
		t.Fatal(err)
	}
	// Every node of the step verifies the same bytes through the same munged.
	for _, node := range []string{"n1", "n2", "n3"} {
		lc, err := v.VerifyLaunch(cred, node)
		if err != nil {
			t.Fatalf("%s: %v", node, err)
		}
		if lc.JobID != 7 || lc.StepID != 1 || lc.UID != 1000 || lc.NodeList != "n[1-3]" {
			t.Fatalf("%s: decoded %+v", node, lc)
		}
	}
	if _, err := v.VerifyLaunch(cred, "n4"); !errors.Is(err, ErrLaunchInvalid) {
		t.Errorf("node outside the list: %v, want ErrLaunchInvalid", err)
	}
	altered := append([]byte(nil), cred...)
	altered[13] ^= 1 // the uid field: a user trying to run as someone else
	if _, err := v.VerifyLaunch(altered, "n1"); !errors.Is(err, ErrLaunchInvalid) {
		t.Errorf("altered field: %v, want ErrLaunchInvalid", err)
	}
	untrusting := &MungeLaunchVerifier{Munge: &MungeVerifier{Socket: sock}, Trusted: []uint32{me + 1}}
	if _, err := untrusting.VerifyLaunch(cred, "n1"); !errors.Is(err, ErrLaunchInvalid) {
		t.Errorf("credential from an untrusted uid: %v, want ErrLaunchInvalid", err)
	}
	late := &MungeLaunchVerifier{Munge: &MungeVerifier{Socket: sock}, Trusted: []uint32{me},
		Now: func() time.Time { return time.Now().Add(time.Hour) }}
	if _, err := late.VerifyLaunch(cred, "n1"); !errors.Is(err, ErrLaunchExpired) {
		t.Errorf("expired credential: %v, want ErrLaunchExpired", err)
	}
	key, err := GenerateKey(t.TempDir() + "/slurm.key")
	if err != nil {
		t.Fatal(err)
	}
	keyCred, err := NewLaunchSigner(key).SignLaunch(LaunchCred{JobID: 7, NodeList: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.VerifyLaunch(keyCred, "n1"); !errors.Is(err, ErrLaunchInvalid) {
		t.Errorf("cred/slurm credential at a cred/munge node: %v, want ErrLaunchInvalid", err)
	}
	for _, bad := range [][]byte{nil, cred[:10], cred[:launchHeaderLen+6]} {
		if _, err := v.VerifyLaunch(bad, "n1"); !errors.Is(err, ErrLaunchInvalid) {
			t.Errorf("truncated credential (%d bytes): %v, want ErrLaunchInvalid", len(bad), err)
		}
	}
}

func TestLaunchSignerFor_UnknownCredType(t *testing.T) {
	if _, err := LaunchSignerFor("cred/none", nil, AuthInfo{}); err == nil {
		t.Error("CredType=cred/none accepted")
	}
	if _, err := LaunchVerifierFor("cred/slurm", nil, AuthInfo{}, nil); err == nil {
		t.Error("cred/slurm without a key accepted")
	}
}

// FuzzSplitMungeLaunch: any bytes a node receives as a cred/munge launch credential are
// either refused with ErrLaunchInvalid or split into fields that decode.
func FuzzSplitMungeLaunch(f *testing.F) {
	lc := LaunchCred{JobID: 1, NodeList: "n[1-2]"}
	body, _ := lc.marshal()
	body[0] = mungeLaunchKind
	f.Add(append(body, "MUNGE:abc:"...))
	f.Add(body)
	f.Add([]byte{mungeLaunchKind})
	f.Fuzz(func(t *testing.T, b []byte) {
		body, tail, err := splitMungeLaunch(b)
		if err != nil {
			if !errors.Is(err, ErrLaunchInvalid) {
				t.Fatalf("error %v does not wrap ErrLaunchInvalid", err)
			}
			return
		}
		if len(tail) == 0 || len(body)+len(tail) != len(b) {
			t.Fatalf("split %d bytes into %d + %d", len(b), len(body), len(tail))
		}
		if _, err := decodeLaunchFields(body); err != nil && !errors.Is(err, ErrLaunchInvalid) {
			t.Fatalf("fields error %v does not wrap ErrLaunchInvalid", err)
		}
	})
}

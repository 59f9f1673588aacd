package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/testmunge"
)

// TestMungeClient_MatchesCommands checks the socket client against the munge and unmunge
// commands both ways: each decodes what the other made, with the same identity.
func TestMungeClient_MatchesCommands(t *testing.T) {
	sock := mungeSocket(t)
	d := digestOf("both ways")
	viaSocket := &MungeSigner{Socket: sock, TTL: 120 * time.Second}
	viaCommand := &MungeSigner{Socket: sock, TTL: 120 * time.Second, Command: "munge"}
	sockV := &MungeVerifier{Socket: sock}
	cmdV := &MungeVerifier{Socket: sock, Command: "unmunge"}
	for _, tc := range []struct {
		name string
		s    *MungeSigner
		v    *MungeVerifier
	}{{"socket→unmunge", viaSocket, cmdV}, {"munge→socket", viaCommand, sockV}} {
		cred, err := tc.s.Sign(d)
		if err != nil {
			t.Fatalf("%s: sign: %v", tc.name, err)
		}
		id, err := tc.v.Verify(cred, d)
		if err != nil {
			t.Fatalf("%s: verify: %v", tc.name, err)
		}
		// The same credential decoded the other way (a replay then) gives the same identity.
		other := cmdV
		if tc.v == cmdV {
			other = sockV
		}
		_, id2, err := other.decode(cred)
		if !errors.Is(err, ErrReplayed) {
			t.Errorf("%s: second decode: %v, want ErrReplayed", tc.name, err)
		}
		if id != id2 {
			t.Errorf("%s: identities differ:\n%+v\n%+v", tc.name, id, id2)
		}
		if id.Expiry-id.IssuedAt != 120 {
			t.Errorf("%s: ttl %d, want 120", tc.name, id.Expiry-id.IssuedAt)
		}
	}
}

func TestMungeClient_BadReplies(t *testing.T) {
	good := append([]byte{0, 0}, 0, 0, 0, 3, 'a', 'b', 'c')
	if rep, err := parseMungeReply(mungeMsgEncRsp, good); err != nil || string(rep.data) != "abc" {
		t.Fatalf("good reply: %+v %v", rep, err)
	}
	for name, b := range map[string][]byte{
		"empty":     {},
		"short":     {0, 5, 'x'},
		"long data": {0, 0, 0, 0, 0, 9, 'a'},
		"trailing":  append(append([]byte{}, good...), 0),
	} {
		if _, err := parseMungeReply(mungeMsgEncRsp, b); !errors.Is(err, errMungeProtocol) {
			t.Errorf("%s: %v, want errMungeProtocol", name, err)
		}
		if _, err := parseMungeReply(mungeMsgDecRsp, b); !errors.Is(err, errMungeProtocol) {
			t.Errorf("%s (decode): %v, want errMungeProtocol", name, err)
		}
	}
}

func FuzzParseMungeReply(f *testing.F) {
	f.Add(uint8(mungeMsgEncRsp), []byte{0, 0, 0, 0, 0, 1, 'x'})
	f.Add(uint8(mungeMsgDecRsp), []byte{17, 2, 'r', 0, 1, 1, 1, 0, 0, 0, 0, 60, 4, 127, 0, 0, 1,
		0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 1, 'p'})
	f.Fuzz(func(t *testing.T, typ uint8, b []byte) {
		rep, err := parseMungeReply(typ, b)
		if err == nil && rep == nil {
			t.Fatal("no reply and no error")
		}
	})
}

// BenchmarkMungeSignVerify times one credential made and checked through munged's socket and
// through the commands.
func BenchmarkMungeSignVerify(b *testing.B) {
	sock := startMungedB(b)
	d := digestOf("bench")
	for _, tc := range []struct {
		name string
		s    *MungeSigner
		v    *MungeVerifier
	}{
		{"socket", &MungeSigner{Socket: sock}, &MungeVerifier{Socket: sock}},
		{"commands", &MungeSigner{Socket: sock, Command: "munge"}, &MungeVerifier{Socket: sock, Command: "unmunge"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				cred, err := tc.s.Sign(d)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tc.v.Verify(cred, d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func startMungedB(b *testing.B) string {
	b.Helper()
	return testmunge.Start(b, b.TempDir())
}

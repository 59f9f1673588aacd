package auth

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func launchPair(t *testing.T, clk *fakeClock) (*LaunchSigner, *LaunchVerifier) {
	k := testKey(t)
	s := NewLaunchSigner(k)
	s.Now = clk.Now
	v := NewLaunchVerifier(k)
	v.Now = clk.Now
	return s, v
}

func TestLaunchCred_Verify(t *testing.T) {
	clk := newFakeClock()
	s, v := launchPair(t, clk)
	cred, err := s.SignLaunch(LaunchCred{JobID: 42, StepID: 0, UID: 1000, GID: 100, NodeList: "node[1-4],gpu7"})
	if err != nil {
		t.Fatal(err)
	}
	for _, node := range []string{"node1", "node4", "gpu7"} {
		lc, err := v.VerifyLaunch(cred, node)
		if err != nil {
			t.Fatalf("%s: %v", node, err)
		}
		want := LaunchCred{JobID: 42, UID: 1000, GID: 100, NodeList: "node[1-4],gpu7",
			IssuedAt: clk.Now().Unix(), Expiry: clk.Now().Add(DefaultCredExpire).Unix()}
		if lc != want {
			t.Errorf("%s: got %+v, want %+v", node, lc, want)
		}
	}
}

func TestLaunchCred_Refused(t *testing.T) {
	good := LaunchCred{JobID: 7, StepID: 1, UID: 1000, GID: 100, NodeList: "node[1-2]"}
	cases := []struct {
		name    string
		make    func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte
		node    string
		want    error
		wantMsg string
	}{
		{"node not in list", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			return mustLaunch(t, s, good)
		}, "node3", ErrLaunchInvalid, "Host node3 not in credential hostlist node[1-2]"},
		{"expired", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			c := mustLaunch(t, s, good)
			clk.Advance(DefaultCredExpire + DefaultSkew + time.Second)
			return c
		}, "node1", ErrLaunchExpired, "Job credential expired"},
		{"forged uid", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			c := mustLaunch(t, s, good)
			c[13] ^= 1
			return c
		}, "node1", ErrLaunchInvalid, "signature"},
		{"forged node list", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			c := mustLaunch(t, s, good)
			c[launchHeaderLen+6] = '3' // node[1-2] -> node[3-2]... still under the MAC
			return c
		}, "node3", ErrLaunchInvalid, "signature"},
		{"other key", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			k, _ := NewKey([]byte("not the controller's key!!"))
			o := NewLaunchSigner(k)
			o.Now = clk.Now
			return mustLaunch(t, o, good)
		}, "node1", ErrLaunchInvalid, "signature"},
		{"auth credential", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			ks := NewKeySigner(s.key, 0, 0)
			ks.Now = clk.Now
			return mustSign(t, ks, digestOf("x"))
		}, "node1", ErrLaunchInvalid, "not a launch credential"},
		{"truncated", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			c := mustLaunch(t, s, good)
			return c[:len(c)-3]
		}, "node1", ErrLaunchInvalid, "does not match"},
		{"malformed node list", func(t *testing.T, s *LaunchSigner, clk *fakeClock) []byte {
			return mustLaunch(t, s, LaunchCred{JobID: 7, NodeList: "node[1-"})
		}, "node1", ErrLaunchInvalid, "not in credential hostlist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			s, v := launchPair(t, clk)
			cred := tc.make(t, s, clk)
			_, err := v.VerifyLaunch(cred, tc.node)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("VerifyLaunch error = %v, want %v containing %q", err, tc.want, tc.wantMsg)
			}
		})
	}
}

func TestLaunchCred_NotAnAuthCredential(t *testing.T) {
	clk := newFakeClock()
	s, _ := launchPair(t, clk)
	cred := mustLaunch(t, s, LaunchCred{JobID: 1, NodeList: "n1"})
	v := NewKeyVerifier(s.key)
	v.Now = clk.Now
	if _, err := v.Verify(cred, digestOf("x")); !errors.Is(err, ErrUnpack) {
		t.Fatalf("launch credential presented as auth credential: %v, want ErrUnpack", err)
	}
}

func TestLaunchCred_EmptyNodeList(t *testing.T) {
	s := NewLaunchSigner(testKey(t))
	if _, err := s.SignLaunch(LaunchCred{JobID: 3}); err == nil {
		t.Fatal("signed a launch credential with no nodes")
	}
}

func mustLaunch(t *testing.T, s *LaunchSigner, lc LaunchCred) []byte {
	t.Helper()
	c, err := s.SignLaunch(lc)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

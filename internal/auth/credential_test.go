package auth

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestKeyVerifier_Accepts(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	d := digestOf("submit job")
	cred, err := s.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(cred, d)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	want := Identity{UID: 1000, GID: 100, Host: "login1", Context: ContextRPC,
		IssuedAt: clk.Now().Unix(), Expiry: clk.Now().Add(DefaultTTL).Unix()}
	if id != want {
		t.Errorf("identity = %+v, want %+v", id, want)
	}
	c, err := DecodeCredential(cred)
	if err != nil {
		t.Fatal(err)
	}
	if c.PayloadDigest != d || c.UID != 1000 || c.Host != "login1" {
		t.Errorf("decoded credential = %+v", c)
	}
}

func TestKeyVerifier_Refuses(t *testing.T) {
	d := digestOf("body")
	cases := []struct {
		name string
		// mutate returns the credential to present and the digest to present it with.
		mutate func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte)
		want   error
	}{
		{"flipped uid byte", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			c[5] ^= 0x01 // uid 1000 -> 1001
			return c, d
		}, ErrForged},
		{"flipped host byte", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			c[credHeaderLen] ^= 0x20
			return c, d
		}, ErrForged},
		{"flipped mac byte", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			c[len(c)-1] ^= 0x80
			return c, d
		}, ErrForged},
		{"flipped digest in credential", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			c[50] ^= 0xff
			return c, d
		}, ErrForged},
		{"other key", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			other, _ := NewKey([]byte("another key, at least 16 bytes"))
			os := NewKeySigner(other, 0, 0)
			os.Now = clk.Now
			return mustSign(t, os, d), d
		}, ErrForged},
		{"launch context", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			ls := *s
			ls.Context = ContextLaunch
			return mustSign(t, &ls, d), d
		}, ErrForged},
		{"expired", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			past := *s
			t0 := clk.Now().Add(-DefaultTTL - DefaultSkew - time.Second)
			past.Now = func() time.Time { return t0 }
			return mustSign(t, &past, d), d
		}, ErrExpired},
		{"issued in the future", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			fut := *s
			t0 := clk.Now().Add(DefaultSkew + time.Minute)
			fut.Now = func() time.Time { return t0 }
			return mustSign(t, &fut, d), d
		}, ErrForged},
		{"lifetime beyond maximum", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			long := *s
			long.TTL = DefaultMaxLifetime + time.Hour
			return mustSign(t, &long, d), d
		}, ErrForged},
		{"wrong digest", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			return mustSign(t, s, d), digestOf("another body")
		}, ErrDigestMismatch},
		{"truncated", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			return c[:len(c)-1], d
		}, ErrUnpack},
		{"extended", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			return append(mustSign(t, s, d), 0), d
		}, ErrUnpack},
		{"empty", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			return nil, d
		}, ErrUnpack},
		{"unknown version", func(t *testing.T, s *KeySigner, clk *fakeClock) ([]byte, [32]byte) {
			c := mustSign(t, s, d)
			c[1] = 9
			return c, d
		}, ErrUnpack},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			s, v := signerVerifier(t, clk)
			cred, dd := tc.mutate(t, s, clk)
			_, err := v.Verify(cred, dd)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify error = %v, want %v", err, tc.want)
			}
			if v.ReplayCacheLen() != 0 {
				t.Errorf("a refused credential was remembered (%d nonces)", v.ReplayCacheLen())
			}
		})
	}
}

func mustSign(t *testing.T, s *KeySigner, d [32]byte) []byte {
	t.Helper()
	c, err := s.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestKeyVerifier_SkewAllowance(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	d := digestOf("x")
	cred := mustSign(t, s, d)
	// Past expiry, but within the skew the verifier allows.
	clk.Advance(DefaultTTL + DefaultSkew)
	if _, err := v.Verify(cred, d); err != nil {
		t.Fatalf("credential within skew refused: %v", err)
	}
	cred2 := mustSign(t, s, d) // issued now; verifier's clock one second behind the skew
	clk.Advance(DefaultTTL + DefaultSkew + time.Second)
	if _, err := v.Verify(cred2, d); !errors.Is(err, ErrExpired) {
		t.Fatalf("credential past expiry+skew: error %v, want ErrExpired", err)
	}
}

func TestKeyVerifier_Replay(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	d := digestOf("cancel 42")
	cred := mustSign(t, s, d)
	if _, err := v.Verify(cred, d); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(cred, d); !errors.Is(err, ErrReplayed) {
		t.Fatalf("second Verify error = %v, want ErrReplayed", err)
	}
	if ErrReplayed.Error() != "Authentication credential replayed" {
		t.Errorf("ErrReplayed text %q", ErrReplayed)
	}
	// A fresh credential for the same body is fine.
	if _, err := v.Verify(mustSign(t, s, d), d); err != nil {
		t.Fatalf("fresh credential refused: %v", err)
	}
	// After expiry the replay is refused as expired, not accepted because it was forgotten.
	clk.Advance(DefaultTTL + DefaultSkew + 2*time.Second)
	if _, err := v.Verify(cred, d); !errors.Is(err, ErrExpired) {
		t.Fatalf("replay after expiry: error %v, want ErrExpired", err)
	}
}

// TestKeyVerifier_ReplayCacheBounded checks that the nonce cache forgets entries once they
// have expired, so a long-running daemon's memory does not grow with traffic.
func TestKeyVerifier_ReplayCacheBounded(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	const perRound, rounds = 500, 6
	peak := 0
	for r := 0; r < rounds; r++ {
		for i := 0; i < perRound; i++ {
			d := digestOf("req")
			if _, err := v.Verify(mustSign(t, s, d), d); err != nil {
				t.Fatalf("round %d: %v", r, err)
			}
		}
		peak = max(peak, v.ReplayCacheLen())
		// Each round's credentials are past expiry+skew by the next round.
		clk.Advance(DefaultTTL + DefaultSkew + time.Second)
	}
	if peak > 2*perRound {
		t.Errorf("replay cache held %d nonces; live credentials never exceed %d", peak, 2*perRound)
	}
	d := digestOf("last")
	if _, err := v.Verify(mustSign(t, s, d), d); err != nil {
		t.Fatal(err)
	}
	if n := v.ReplayCacheLen(); n != 1 {
		t.Errorf("after everything expired the cache holds %d nonces, want 1", n)
	}
}

func TestKeyVerifier_ReplayCacheFull(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	v.SetMaxNonces(3)
	d := digestOf("b")
	for i := 0; i < 3; i++ {
		if _, err := v.Verify(mustSign(t, s, d), d); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := v.Verify(mustSign(t, s, d), d); !errors.Is(err, ErrReplayCacheFull) {
		t.Fatalf("4th credential: error %v, want ErrReplayCacheFull", err)
	}
	clk.Advance(DefaultTTL + DefaultSkew + time.Second)
	if _, err := v.Verify(mustSign(t, s, d), d); err != nil {
		t.Fatalf("after the cache drained: %v", err)
	}
}

func TestErrorTexts(t *testing.T) {
	// Slurm's slurm_errno.c texts for the errors a user or admin may see.
	for err, want := range map[error]string{
		ErrForged:        "Invalid authentication credential",
		ErrExpired:       "Authentication credential expired",
		ErrUnpack:        "Cannot unpack credential",
		ErrLaunchInvalid: "Invalid job credential",
		ErrLaunchExpired: "Job credential expired",
	} {
		if err.Error() != want {
			t.Errorf("error text %q, want %q", err, want)
		}
	}
}

func TestCredential_LongFieldsRefused(t *testing.T) {
	s := NewKeySigner(testKey(t), 1, 1)
	s.Host = string(make([]byte, 256))
	if _, err := s.Sign(digestOf("x")); err == nil {
		t.Fatal("signed a credential with a 256-byte host name")
	}
}

func TestVerifierFor(t *testing.T) {
	dir := t.TempDir()
	keyPath := dir + "/" + KeyFileName
	if _, err := GenerateKey(keyPath); err != nil {
		t.Fatal(err)
	}
	ai, _ := ParseAuthInfo("ttl=7200")
	v, err := VerifierFor(AuthTypeSlurm, keyPath, ai)
	if err != nil {
		t.Fatal(err)
	}
	s, err := SignerFor(AuthTypeSlurm, keyPath, dir+"/sock", ai)
	if err != nil {
		t.Fatal(err)
	}
	d := digestOf("long-lived")
	c, err := s.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(c, d)
	if err != nil {
		t.Fatalf("ttl=7200 credential refused by a verifier built from the same AuthInfo: %v", err)
	}
	if id.Expiry-id.IssuedAt != 7200 {
		t.Errorf("lifetime %d, want 7200", id.Expiry-id.IssuedAt)
	}
	if _, err := VerifierFor("auth/none", keyPath, ai); err == nil || !strings.Contains(err.Error(), "AuthType=auth/none is not supported") {
		t.Errorf("auth/none: %v", err)
	}
}

package auth

import (
	"crypto/sha256"
	"sync"
	"testing"
	"time"
)

// fakeClock is an injectable clock that tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Unix(1_800_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func testKey(t testing.TB) *Key {
	t.Helper()
	k, err := NewKey([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func digestOf(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// signerVerifier returns a signer and verifier sharing key and clock.
func signerVerifier(t testing.TB, clk *fakeClock) (*KeySigner, *KeyVerifier) {
	k := testKey(t)
	s := NewKeySigner(k, 1000, 100)
	s.Host = "login1"
	s.Now = clk.Now
	v := NewKeyVerifier(k)
	v.Now = clk.Now
	return s, v
}

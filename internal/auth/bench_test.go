package auth

import (
	"testing"
	"time"
)

// BenchmarkSignVerify measures one credential's round trip through KeySigner and
// KeyVerifier, replay cache included: the per-RPC cost of authentication.
func BenchmarkSignVerify(b *testing.B) {
	k := testKey(b)
	s := NewKeySigner(k, 1000, 100)
	v := NewKeyVerifier(k)
	// A clock that advances keeps the replay cache at a steady size, as in a live daemon.
	t0 := time.Unix(1_800_000_000, 0)
	var n int64
	clock := func() time.Time { return t0.Add(time.Duration(n/1000) * time.Second) }
	s.Now, v.Now = clock, clock
	d := digestOf("request body")
	b.ReportAllocs()
	for b.Loop() {
		n++
		c, err := s.Sign(d)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Verify(c, d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuthSocket measures a credential fetched through the local auth socket.
func BenchmarkAuthSocket(b *testing.B) {
	dir := b.TempDir()
	srv, err := ListenAuth(dir+"/auth.socket", NewKeySigner(testKey(b), 0, 0), AuthServerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	c := &SocketSigner{Path: srv.Path()}
	d := digestOf("request body")
	for b.Loop() {
		if _, err := c.Sign(d); err != nil {
			b.Fatal(err)
		}
	}
}

package auth

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestKeyVerifier_ConcurrentReplay: when the same credential reaches a verifier on many
// goroutines at once, exactly one is accepted.
func TestKeyVerifier_ConcurrentReplay(t *testing.T) {
	clk := newFakeClock()
	s, v := signerVerifier(t, clk)
	d := digestOf("once")
	cred := mustSign(t, s, d)
	var accepted atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := v.Verify(cred, d); err == nil {
				accepted.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := accepted.Load(); n != 1 {
		t.Fatalf("credential accepted %d times, want once", n)
	}
}

// TestAuthServer_ManyClients: more simultaneous callers than MaxConns are all served.
func TestAuthServer_ManyClients(t *testing.T) {
	srv, v, _ := startServer(t, AuthServerOptions{MaxConns: 3})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := digestOf(fmt.Sprint("client", i))
			c, err := (&SocketSigner{Path: srv.Path()}).Sign(d)
			if err == nil {
				_, err = v.Verify(c, d)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

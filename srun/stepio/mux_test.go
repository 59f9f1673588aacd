package stepio

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// bufCloser is a stdin writer that records what it got and whether it was closed.
type bufCloser struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	closed chan struct{}
	once   sync.Once
}

func newBufCloser() *bufCloser { return &bufCloser{closed: make(chan struct{})} }

func (b *bufCloser) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *bufCloser) Close() error { b.once.Do(func() { close(b.closed) }); return nil }

// TestMux_SharesOneConnection: three shares make one connection (Hello, Join, Join), their
// frames and Done arrive on it, srun's stdin reaches every share's readers once all have
// said where it goes, and the connection closes after the last share.
func TestMux_SharesOneConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	m := NewMux(ln.Addr().String(), []byte("key"), 10*time.Second, 3)
	var shares []*Share
	for _, node := range []uint32{7, 2, 9} {
		s, err := m.Join(node)
		if err != nil {
			t.Fatal(err)
		}
		shares = append(shares, s)
	}
	var c net.Conn
	select {
	case c = <-accepted:
	case <-time.After(10 * time.Second):
		t.Fatal("no connection")
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	// srun's stdin is sent before any share is ready: it must wait, not be lost.
	w := NewWriter(c)
	w.Write(Stdin, 0, []byte("input\n"))
	w.Write(StdinEOF, 0, nil)
	in := []*bufCloser{newBufCloser(), newBufCloser()}
	shares[0].Stdin([]io.WriteCloser{in[0]})
	shares[1].Stdin(nil)
	shares[2].Stdin([]io.WriteCloser{in[1]})
	for i, b := range in {
		select {
		case <-b.closed:
		case <-time.After(30 * time.Second):
			t.Fatalf("stdin %d never closed", i)
		}
		if got := b.buf.String(); got != "input\n" {
			t.Errorf("stdin %d got %q", i, got)
		}
	}
	shares[1].Write(Stdout, 11, []byte("out"))
	for _, s := range shares {
		s.Close()
	}
	shares[0].Close() // twice is once
	r := NewReader(c)
	var got []Frame
	for {
		f, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, f)
	}
	want := []Frame{{Hello, 7, []byte("key")}, {Join, 2, nil}, {Join, 9, nil}, {Stdout, 11, []byte("out")},
		{Done, 7, nil}, {Done, 2, nil}, {Done, 9, nil}}
	if len(got) != len(want) {
		t.Fatalf("frames %v, want %v", got, want)
	}
	for i := range want {
		if got[i].Type != want[i].Type || got[i].Rank != want[i].Rank || !bytes.Equal(got[i].Data, want[i].Data) {
			t.Errorf("frame %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := m.Join(1); err != ErrMuxFull {
		t.Errorf("a fourth share: %v, want ErrMuxFull", err)
	}
}

// TestMux_DialFailureFailsEveryShare: srun gone, each share learns it.
func TestMux_DialFailureFailsEveryShare(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m := NewMux(addr, []byte("k"), 5*time.Second, 2)
	for _, n := range []uint32{0, 1} {
		if _, err := m.Join(n); err == nil {
			t.Fatalf("share %d joined a connection to a closed port", n)
		}
	}
}

// TestMux_Lost: srun closing the connection while a share runs closes Lost; closing it
// after every share said Done (srun reads to the end, then closes: a race with the stepd's
// own close) does not.
func TestMux_Lost(t *testing.T) {
	for _, tc := range []struct {
		name      string
		closeDone int // shares closed (Done sent) before srun closes its end
		lost      bool
	}{
		{"srun killed, both shares running", 0, true},
		{"srun killed, one share running", 1, true},
		{"srun done after both shares", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			accepted := make(chan net.Conn, 1)
			go func() {
				if c, err := ln.Accept(); err == nil {
					accepted <- c
				}
			}()
			m := NewMux(ln.Addr().String(), []byte("key"), 10*time.Second, 2)
			var shares []*Share
			for _, node := range []uint32{0, 1} {
				s, err := m.Join(node)
				if err != nil {
					t.Fatal(err)
				}
				s.Stdin(nil)
				shares = append(shares, s)
			}
			var c net.Conn
			select {
			case c = <-accepted:
			case <-time.After(10 * time.Second):
				t.Fatal("no connection")
			}
			r := NewReader(c)
			for range 2 { // Hello, Join
				if _, err := r.Read(); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range shares[:tc.closeDone] {
				// Counted closing before Done is written: srun may close on seeing Done.
				go s.Close()
				if f, err := r.Read(); err != nil || f.Type != Done {
					t.Fatalf("want Done, got %+v, %v", f, err)
				}
			}
			c.Close()
			// A loss shows at once on loopback; the bound only keeps a broken test from
			// hanging. Its absence is looked for for a second.
			wait := time.Second
			if tc.lost {
				wait = 30 * time.Second
			}
			select {
			case <-m.Lost():
				if !tc.lost {
					t.Fatal("Lost closed after every share ended")
				}
			case <-time.After(wait):
				if tc.lost {
					t.Fatal("Lost not closed when srun went away")
				}
			}
			for _, s := range shares[tc.closeDone:] {
				s.Close()
			}
		})
	}
}

package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// hangGuard bounds how long a test waits for something that must happen; it is a guard
// against a hung test, not a timing assertion.
const hangGuard = 20 * time.Second

// testServer starts a server with the test handlers on network ("tcp" or "unix") and returns
// it with its address. release unblocks handlers waiting on Wait.
type testServer struct {
	*Server
	network, addr string
	release       chan struct{}
	waiting       chan string // the Text of each request that starts waiting
	afterPing     func()      // when set (before dialling), each ping defers it with AfterReply
}

func startServer(t testing.TB, network string, opts ServerOptions) *testServer {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &testServer{Server: NewServer(opts), network: network, release: make(chan struct{}), waiting: make(chan string, 16)}
	s.HandleRPC(MsgPing, func(ctx context.Context, r *Request) (any, error) {
		p := r.Body.(*Ping)
		if s.afterPing != nil {
			r.AfterReply(s.afterPing)
		}
		return &PingReply{Seq: p.Seq, SentNanos: p.SentNanos}, nil
	})
	s.HandleRPC(msgTestEcho, func(ctx context.Context, r *Request) (any, error) {
		e := r.Body.(*testEcho)
		switch {
		case e.Panic:
			panic("handler exploded")
		case e.Fail != 0:
			return nil, Errorf(e.Fail, "refused: %s", e.Text)
		case e.Wait:
			select {
			case s.waiting <- e.Text:
			default:
			}
			select {
			case <-s.release:
			case <-ctx.Done():
			}
		}
		return e, nil
	})
	s.HandleRPC(msgTestPeer, func(ctx context.Context, r *Request) (any, error) {
		out := &testPeer{}
		if r.Peer != nil {
			out.HasPeer, out.UID, out.GID, out.PID = true, r.Peer.UID, r.Peer.GID, r.Peer.PID
		}
		if r.Identity != nil {
			out.AuthUID = r.Identity.UID
		}
		return out, nil
	})
	s.HandleProto(ProtoStream, func(c net.Conn) { io.Copy(c, c) })
	var l net.Listener
	var err error
	if network == "unix" {
		l, err = net.Listen("unix", filepath.Join(t.TempDir(), "wire.sock"))
	} else {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	s.addr = l.Addr().String()
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	t.Cleanup(func() {
		close(s.release)
		s.Close()
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return s
}

func (s *testServer) dial(t testing.TB, opts ClientOptions) *Client {
	t.Helper()
	c, err := Dial(context.Background(), s.network, s.addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// rawConn opens a connection that speaks whatever bytes the test writes.
func (s *testServer) rawConn(t testing.TB) net.Conn {
	t.Helper()
	c, err := net.Dial(s.network, s.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed reads until the server closes c; it fails if the server sends anything else.
func waitClosed(t testing.TB, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(hangGuard))
	b, err := io.ReadAll(c)
	if err != nil && !errors.Is(err, net.ErrClosed) && !isReset(err) {
		t.Fatalf("waiting for the server to close: %v", err)
	}
	if len(b) != 0 {
		t.Fatalf("server sent %x before closing", b)
	}
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout()
}

func ping(t testing.TB, c *Client, seq uint64) {
	t.Helper()
	var rep PingReply
	if err := c.Call(context.Background(), MsgPing, &Ping{Seq: seq, SentNanos: int64(seq) * 3}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Seq != seq || rep.SentNanos != int64(seq)*3 {
		t.Fatalf("reply %+v to ping %d", rep, seq)
	}
}

func TestServer_RoundTrip(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) {
			s := startServer(t, network, ServerOptions{})
			c := s.dial(t, ClientOptions{})
			for seq := uint64(1); seq <= 5; seq++ { // several requests on one connection
				ping(t, c, seq)
			}
			want := sampleEcho()
			var got testEcho
			if err := c.Call(context.Background(), msgTestEcho, want, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&got, want) {
				t.Fatalf("echo: got %+v, want %+v", got, want)
			}
			// The one-shot helper.
			var rep PingReply
			if err := Call(context.Background(), network, s.addr, MsgPing, &Ping{Seq: 9}, &rep, ClientOptions{}); err != nil || rep.Seq != 9 {
				t.Fatalf("one-shot Call: %v %+v", err, rep)
			}
		})
	}
}

func TestServer_ErrorReplies(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	c := s.dial(t, ClientOptions{})
	for _, tc := range []struct {
		name      string
		t         MsgType
		req       any
		wantErrno int32
		wantText  string
	}{
		{"handler error", msgTestEcho, &testEcho{Fail: ErrnoAccessDenied, Text: "x"}, ErrnoAccessDenied, "refused: x"},
		{"no handler", msgTestNone, &testNone{}, ErrnoUnexpectedMsg, "Unexpected message received"},
		{"handler panic", msgTestEcho, &testEcho{Panic: true}, ErrnoSlurmError, "Unspecified error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rep testEcho
			var into any = &rep
			if tc.t == msgTestNone {
				into = nil
			}
			err := c.Call(context.Background(), tc.t, tc.req, into)
			var e *Error
			if !errors.As(err, &e) || e.Errno != tc.wantErrno || e.Error() != tc.wantText {
				t.Fatalf("got %v (%#v), want errno %d %q", err, e, tc.wantErrno, tc.wantText)
			}
			ping(t, c, 1) // the connection still serves after an error reply
		})
	}
}

func TestServer_BadVersionAnswered(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	c := s.rawConn(t)
	body, _ := Marshal(&Ping{Seq: 1})
	c.Write([]byte{byte(ProtoRPC)})
	if err := WriteFrame(c, &Envelope{Version: 99, Type: MsgPing, ReqID: 5, Body: body}); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(hangGuard))
	rep, err := ReadFrame(c, DefaultMaxFrameSize)
	if err != nil {
		t.Fatal(err)
	}
	var e Error
	if rep.Type != MsgError || rep.ReqID != 5 || Unmarshal(rep.Body, &e) != nil || e.Errno != ErrnoProtocolVersion {
		t.Fatalf("reply %+v %+v", rep, e)
	}
}

// TestServer_BadPeersDropped sends what a broken or hostile peer might; each such connection
// is closed without a reply, and a well-behaved client is served meanwhile and afterwards.
func TestServer_BadPeersDropped(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{MaxFrameSize: 1 << 20, ProtoTimeout: 200 * time.Millisecond,
		MessageTimeout: 200 * time.Millisecond, IdleTimeout: 200 * time.Millisecond})
	garbage := append([]byte{byte(ProtoRPC)}, rawFrame([]byte("this is not msgpack at all"))...)
	for _, tc := range []struct {
		name string
		send []byte
	}{
		{"http request", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")},
		{"unknown protocol byte", []byte{0x7f, 0, 0, 0, 1}},
		{"garbage frame", garbage},
		{"length 0xFFFFFFFF", []byte{byte(ProtoRPC), 0xff, 0xff, 0xff, 0xff}},
		{"over the limit", []byte{byte(ProtoRPC), 0, 0x20, 0, 0}},
		{"zero length", []byte{byte(ProtoRPC), 0, 0, 0, 0}},
		{"silent", nil},
		{"silent after the protocol byte", []byte{byte(ProtoRPC)}},
		{"stalls inside a frame", []byte{byte(ProtoRPC), 0, 0, 1, 0, 0x85}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := s.rawConn(t)
			if _, err := c.Write(tc.send); err != nil {
				t.Fatal(err)
			}
			good := s.dial(t, ClientOptions{})
			ping(t, good, 1) // served while the bad peer is connected
			waitClosed(t, c)
			ping(t, s.dial(t, ClientOptions{}), 2)
		})
	}
}

func TestServer_SilentPeerDoesNotBlockOthers(t *testing.T) {
	// Long enough that the silent peers are certainly still connected while the others run.
	s := startServer(t, "tcp", ServerOptions{ProtoTimeout: hangGuard, IdleTimeout: hangGuard})
	for range 3 {
		s.rawConn(t) // never writes a byte
	}
	for seq := uint64(1); seq <= 3; seq++ {
		ping(t, s.dial(t, ClientOptions{}), seq)
	}
}

func TestServer_IdleConnectionClosed(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{IdleTimeout: 100 * time.Millisecond})
	c := s.dial(t, ClientOptions{})
	ping(t, c, 1)
	// Wait for the server to close the idle connection: the next call fails on the transport.
	c.conn.SetReadDeadline(time.Now().Add(hangGuard))
	if n, err := c.rd.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read on idle connection: %d %v, want EOF", n, err)
	}
}

func TestServer_MaxConnsQueues(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{MaxConns: 1})
	first := s.dial(t, ClientOptions{})
	ping(t, first, 1) // first holds the only slot
	done := make(chan error, 1)
	go func() {
		c, err := Dial(context.Background(), "tcp", s.addr, ClientOptions{MessageTimeout: hangGuard})
		if err == nil {
			defer c.Close()
			err = c.Call(context.Background(), MsgPing, &Ping{Seq: 2}, &PingReply{})
		}
		done <- err
	}()
	first.Close() // frees the slot; the queued connection is then accepted and served
	if err := <-done; err != nil {
		t.Fatalf("queued client: %v", err)
	}
}

func TestServer_ConcurrentClients(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	const clients, calls = 50, 100
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Dial(context.Background(), "tcp", s.addr, ClientOptions{})
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			for j := range calls {
				seq := uint64(i*calls + j)
				var rep PingReply
				if err := c.Call(context.Background(), MsgPing, &Ping{Seq: seq}, &rep); err != nil {
					errs <- err
					return
				}
				if rep.Seq != seq {
					errs <- errors.New("reply to another request")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestServer_PeerCred(t *testing.T) {
	for _, tc := range []struct {
		network  string
		wantPeer bool
	}{{"unix", true}, {"tcp", false}} {
		t.Run(tc.network, func(t *testing.T) {
			s := startServer(t, tc.network, ServerOptions{})
			var rep testPeer
			if err := s.dial(t, ClientOptions{}).Call(context.Background(), msgTestPeer, &testPeer{}, &rep); err != nil {
				t.Fatal(err)
			}
			if rep.HasPeer != tc.wantPeer {
				t.Fatalf("peer credentials present: %v, want %v", rep.HasPeer, tc.wantPeer)
			}
			if tc.wantPeer && (rep.UID != uint32(os.Getuid()) || rep.GID != uint32(os.Getgid()) || rep.PID != int32(os.Getpid())) {
				t.Fatalf("SO_PEERCRED %+v, want uid %d gid %d pid %d", rep, os.Getuid(), os.Getgid(), os.Getpid())
			}
		})
	}
}

// digestSigner signs with the digest itself; digestAuth accepts exactly that.
type digestSigner struct{}

func (digestSigner) Sign(d [32]byte) ([]byte, error) { return append([]byte("sig:"), d[:]...), nil }

type digestAuth struct{}

func (digestAuth) Authenticate(ctx context.Context, r *Request) (*Identity, error) {
	d := BodyDigest(r.RawBody)
	if r.Body != nil {
		return nil, errors.New("body decoded before authentication")
	}
	if !bytes.Equal(r.Cred, append([]byte("sig:"), d[:]...)) {
		return nil, errors.New("bad signature")
	}
	return &Identity{UID: 4242}, nil
}

func TestServer_Authenticator(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{Authenticator: digestAuth{}})
	var rep testPeer
	if err := s.dial(t, ClientOptions{Signer: digestSigner{}}).Call(context.Background(), msgTestPeer, &testPeer{}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.AuthUID != 4242 {
		t.Fatalf("identity not passed to the handler: %+v", rep)
	}
	err := s.dial(t, ClientOptions{}).Call(context.Background(), msgTestPeer, &testPeer{}, &testPeer{})
	var e *Error
	if !errors.As(err, &e) || e.Errno != ErrnoAuthentication {
		t.Fatalf("unsigned request: %v, want errno %d", err, ErrnoAuthentication)
	}
}

func TestClient_Deadlines(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	t.Run("MessageTimeout", func(t *testing.T) {
		c := s.dial(t, ClientOptions{MessageTimeout: 100 * time.Millisecond})
		err := c.Call(context.Background(), msgTestEcho, &testEcho{Wait: true}, &testEcho{})
		var e *Error
		if !errors.As(err, &e) || e.Errno != ErrnoSocketTimeout || !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("got %v, want a socket timeout", err)
		}
		// The connection is broken for good afterwards.
		if err2 := c.Call(context.Background(), MsgPing, &Ping{}, &PingReply{}); err2 == nil {
			t.Fatal("call on a broken client succeeded")
		}
	})
	t.Run("context cancelled", func(t *testing.T) {
		c := s.dial(t, ClientOptions{MessageTimeout: hangGuard})
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			// Cancel once the handler is running, so the call is blocked reading its reply.
			for text := range s.waiting {
				if text == "cancel-me" {
					cancel()
					return
				}
			}
		}()
		err := c.Call(ctx, msgTestEcho, &testEcho{Wait: true, Text: "cancel-me"}, &testEcho{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	})
	t.Run("context deadline", func(t *testing.T) {
		c := s.dial(t, ClientOptions{MessageTimeout: hangGuard})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		err := c.Call(ctx, msgTestEcho, &testEcho{Wait: true}, &testEcho{})
		var e *Error
		if !errors.As(err, &e) || e.Errno != ErrnoSocketTimeout {
			t.Fatalf("got %v, want a socket timeout", err)
		}
	})
}

func TestClient_Errors(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	c := s.dial(t, ClientOptions{MaxFrameSize: 100})
	if err := c.Call(context.Background(), MsgPing, &PingReply{}, &PingReply{}); err == nil {
		t.Error("request of the wrong Go type accepted")
	}
	if err := c.Call(context.Background(), MsgPing, &Ping{}, &PingReply{Seq: 1}); !errors.Is(err, ErrNotFresh) {
		t.Errorf("used reply target: %v", err)
	}
	err := c.Call(context.Background(), msgTestEcho, sampleEcho(), &testEcho{})
	var e *Error
	if !errors.As(err, &e) || e.Errno != ErrnoInsaneMsgLength {
		t.Errorf("oversized request: %v", err)
	}
	if err := c.Call(context.Background(), MsgPing, &Ping{}, &testEcho{}); err == nil {
		t.Error("reply of the wrong type accepted")
	}
	ping(t, c, 3) // none of the above broke the connection

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = Dial(context.Background(), "tcp", addr, ClientOptions{})
	if !errors.As(err, &e) || e.Errno != ErrnoConnection || e.Text != "Communication connection failure" {
		t.Errorf("dial to a closed port: %v", err)
	}
}

func TestServer_StreamProto(t *testing.T) {
	s := startServer(t, "unix", ServerOptions{})
	c := s.rawConn(t)
	c.Write(append([]byte{byte(ProtoStream)}, "task output\n"...))
	c.SetReadDeadline(time.Now().Add(hangGuard))
	buf := make([]byte, len("task output\n"))
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "task output\n" {
		t.Fatalf("stream echo: %q %v", buf, err)
	}
}

func TestServer_RegistrationRules(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	ping(t, s.dial(t, ClientOptions{}), 1) // Serve is running
	for name, fn := range map[string]func(){
		"after Serve":       func() { s.HandleRPC(msgTestNone, nil) },
		"unregistered type": func() { NewServer(ServerOptions{}).HandleRPC(60000, nil) },
		"twice": func() {
			n := NewServer(ServerOptions{})
			n.HandleRPC(MsgPing, nil)
			n.HandleRPC(MsgPing, nil)
		},
		"ProtoRPC": func() { NewServer(ServerOptions{}).HandleProto(ProtoRPC, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			fn()
		})
	}
}

func BenchmarkRPCRoundTrip(b *testing.B) {
	s := startServer(b, "tcp", ServerOptions{})
	c := s.dial(b, ClientOptions{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		var rep PingReply
		if err := c.Call(context.Background(), MsgPing, &Ping{Seq: uint64(i)}, &rep); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRPCParallel(b *testing.B) {
	s := startServer(b, "tcp", ServerOptions{})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		c, err := Dial(context.Background(), "tcp", s.addr, ClientOptions{})
		if err != nil {
			b.Error(err)
			return
		}
		defer c.Close()
		for pb.Next() {
			var rep PingReply
			if err := c.Call(context.Background(), MsgPing, &Ping{Seq: 1}, &rep); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// TestServer_AfterReply: work a handler defers with AfterReply runs only once the caller has
// its reply. The deferred function waits for the caller's Call to return; had it run before
// the reply was written, the call could never complete.
func TestServer_AfterReply(t *testing.T) {
	s := startServer(t, "tcp", ServerOptions{})
	returned, ran := make(chan struct{}), make(chan bool, 1)
	s.afterPing = func() {
		select {
		case <-returned:
			ran <- true
		case <-time.After(hangGuard):
			ran <- false
		}
	}
	c := s.dial(t, ClientOptions{})
	ping(t, c, 1)
	close(returned)
	select {
	case ok := <-ran:
		if !ok {
			t.Fatal("the deferred work ran before the caller had its reply")
		}
	case <-time.After(hangGuard):
		t.Fatal("the deferred work never ran")
	}
}

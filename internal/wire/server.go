package wire

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"
)

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = errors.New("wire: server closed")

// HandlerFunc serves one request. It returns the reply message (a pointer to a registered
// struct; nil means MsgOK) or an error: an *Error travels as is, any other error as
// SLURM_ERROR with the error's text. ctx ends after MessageTimeout or when the server closes.
type HandlerFunc func(ctx context.Context, req *Request) (any, error)

// Request is one decoded request as a handler sees it.
type Request struct {
	Type       MsgType
	ReqID      uint64
	RemoteAddr net.Addr
	// Peer is the kernel's identity of the calling process on a Unix socket; nil on TCP.
	Peer *PeerCred
	// Cred is the envelope's credential, as sent.
	Cred []byte
	// RawBody is the encoded message, as sent; a credential signs BodyDigest(RawBody).
	RawBody []byte
	// Body is the decoded message: a pointer to the struct registered for Type. It is nil
	// while the Authenticator runs, so nothing unauthenticated is decoded.
	Body any
	// Identity is what the Authenticator established; nil when the server has none.
	Identity *Identity

	afterReply []func()
}

// AfterReply has fn run once the reply to this request has been written to the caller, or
// could not be: for work the caller must not see begin before it has its answer (a
// requeued job's kill reaches the script that asked for it after scontrol has returned, as
// Slurm's agent sends it).
func (r *Request) AfterReply(fn func()) { r.afterReply = append(r.afterReply, fn) }

// Identity is who sent a request, as established by an Authenticator.
type Identity struct {
	UID  uint32
	GID  uint32
	Host string
}

// Authenticator verifies a request's credential (req.Cred over BodyDigest(req.RawBody), with
// req.Peer for local callers) before its handler runs. A non-nil error refuses the request: an
// *Error is sent as is, any other error as SLURM_PROTOCOL_AUTHENTICATION_ERROR.
type Authenticator interface {
	Authenticate(ctx context.Context, req *Request) (*Identity, error)
}

// Server accepts connections, routes each by its protocol byte, and serves RPC connections
// with the handlers registered before Serve.
type Server struct {
	opts ServerOptions
	log  *slog.Logger
	sem  chan struct{} // one token per connection being served

	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex
	serving   bool // handlers are frozen once true
	closed    bool
	rpc       map[MsgType]HandlerFunc
	protos    map[Proto]ConnHandler
	observe   Observer
	listeners map[net.Listener]struct{}
	conns     map[net.Conn]struct{}
	wg        sync.WaitGroup
}

// NewServer returns a Server with opts (zero fields take their defaults).
func NewServer(opts ServerOptions) *Server {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		opts:      opts,
		log:       opts.Logger,
		sem:       make(chan struct{}, opts.MaxConns),
		ctx:       ctx,
		cancel:    cancel,
		rpc:       map[MsgType]HandlerFunc{},
		protos:    map[Proto]ConnHandler{},
		listeners: map[net.Listener]struct{}{},
		conns:     map[net.Conn]struct{}{},
	}
}

// HandleRPC registers fn for requests of type t. Handlers are registered once, before Serve;
// registering after Serve, twice for one type, or for an unregistered type is a programming
// error and panics.
func (s *Server) HandleRPC(t MsgType, fn HandlerFunc) {
	if _, err := New(t); err != nil {
		panic(fmt.Sprintf("wire.Server.HandleRPC: %v", err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serving {
		panic("wire.Server.HandleRPC: " + t.String() + " registered after Serve")
	}
	if _, dup := s.rpc[t]; dup {
		panic("wire.Server.HandleRPC: " + t.String() + " registered twice")
	}
	s.rpc[t] = fn
}

// Observer is told about every request a handler answered: who sent it, how long the
// handler took and its error (slurmctld's RPC statistics for sdiag).
type Observer func(req *Request, took time.Duration, err error)

// Observe installs fn as the server's Observer. Same rules as HandleRPC: once, before Serve.
func (s *Server) Observe(fn Observer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serving || s.observe != nil {
		panic("wire.Server.Observe: installed after Serve or twice")
	}
	s.observe = fn
}

// Active is the number of connections being served now (Slurm's server thread count).
func (s *Server) Active() int { return len(s.sem) }

// HandleProto registers fn for connections opening with protocol byte p (not ProtoRPC, which
// the server serves itself). Same rules as HandleRPC.
func (s *Server) HandleProto(p Proto, fn ConnHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serving || p == ProtoRPC {
		panic(fmt.Sprintf("wire.Server.HandleProto: protocol %#x registered after Serve or reserved", byte(p)))
	}
	if _, dup := s.protos[p]; dup {
		panic(fmt.Sprintf("wire.Server.HandleProto: protocol %#x registered twice", byte(p)))
	}
	s.protos[p] = fn
}

// Serve accepts connections on l until Close, then returns ErrServerClosed. It may be called
// for several listeners (say TCP and a Unix socket) at once.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrServerClosed
	}
	s.serving = true
	s.listeners[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, l)
		s.mu.Unlock()
	}()

	var backoff time.Duration
	for {
		// Take a slot before accepting: excess connections wait in the kernel's backlog.
		select {
		case s.sem <- struct{}{}:
		case <-s.ctx.Done():
			return ErrServerClosed
		}
		c, err := l.Accept()
		if err != nil {
			<-s.sem
			if s.ctx.Err() != nil {
				return ErrServerClosed
			}
			if !retryableAccept(err) {
				return fmt.Errorf("wire: accept on %s: %w", l.Addr(), err)
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed, retrying", "addr", l.Addr().String(), "err", err, "delay", backoff)
			select {
			case <-time.After(backoff):
			case <-s.ctx.Done():
				return ErrServerClosed
			}
			continue
		}
		backoff = 0
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			<-s.sem
			return ErrServerClosed
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serveConn(c)
	}
}

// retryableAccept reports accept errors that pass (out of descriptors or memory, a peer that
// gave up before we accepted).
func retryableAccept(err error) bool {
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED, syscall.EINTR} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// Close stops every Serve, closes every connection, cancels running handlers' contexts and
// waits for the connection goroutines to finish.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.cancel()
	for l := range s.listeners {
		l.Close()
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// serveConn reads the protocol byte and hands the connection to its protocol.
func (s *Server) serveConn(c net.Conn) {
	defer func() {
		c.Close()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		<-s.sem
		s.wg.Done()
	}()
	remote := addrString(c.RemoteAddr())
	var b [1]byte
	if err := c.SetReadDeadline(time.Now().Add(s.opts.ProtoTimeout)); err != nil {
		return
	}
	if _, err := io.ReadFull(c, b[:]); err != nil {
		s.log.Debug("connection closed before its protocol byte", "remote", remote, "err", err)
		return
	}
	p := Proto(b[0])
	if p == ProtoRPC {
		s.serveRPC(c, remote)
		return
	}
	h := s.protos[p]
	if h == nil {
		s.log.Warn("dropping connection with unknown protocol byte", "remote", remote, "proto", fmt.Sprintf("%#02x", b[0]))
		return
	}
	if err := c.SetDeadline(time.Time{}); err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("connection handler panicked", "remote", remote, "proto", fmt.Sprintf("%#02x", b[0]), "panic", r, "stack", string(debug.Stack()))
		}
	}()
	h(c)
}

// serveRPC answers the requests of one connection, one after another, until the peer closes,
// goes idle or sends something that is not a frame.
func (s *Server) serveRPC(c net.Conn, remote string) {
	peer, err := peerCred(c)
	if err != nil {
		s.log.Warn("dropping connection", "remote", remote, "err", err)
		return
	}
	rd := bufio.NewReader(c)
	for {
		if err := c.SetReadDeadline(time.Now().Add(s.opts.IdleTimeout)); err != nil {
			return
		}
		n, err := readFrameHeader(rd, s.opts.MaxFrameSize)
		if err != nil {
			s.logReadErr(remote, err)
			return
		}
		if err := c.SetReadDeadline(time.Now().Add(s.opts.MessageTimeout)); err != nil {
			return
		}
		env, err := readFramePayload(rd, n)
		if err != nil {
			s.logReadErr(remote, err)
			return
		}
		var after []func()
		frame := s.reply(s.dispatch(c, peer, env, &after))
		err = c.SetWriteDeadline(time.Now().Add(s.opts.MessageTimeout))
		if err == nil {
			if _, err = c.Write(frame); err != nil {
				s.log.Debug("reply not delivered", "remote", remote, "type", env.Type, "err", err)
			}
		}
		for _, fn := range after {
			fn()
		}
		if err != nil {
			return
		}
	}
}

func (s *Server) logReadErr(remote string, err error) {
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, net.ErrClosed):
		s.log.Debug("connection closed", "remote", remote)
	case errors.Is(err, os.ErrDeadlineExceeded):
		s.log.Debug("closing idle or stalled connection", "remote", remote)
	default:
		s.log.Warn("dropping connection", "remote", remote, "err", err)
	}
}

// dispatch turns one request envelope into its reply envelope; *after receives what the
// handler asked to run once the reply is written (Request.AfterReply).
func (s *Server) dispatch(c net.Conn, peer *PeerCred, env *Envelope, after *[]func()) *Envelope {
	if env.Version != ProtocolVersion {
		return errorEnvelope(env, NewError(ErrnoProtocolVersion))
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.MessageTimeout)
	defer cancel()
	req := &Request{
		Type:       env.Type,
		ReqID:      env.ReqID,
		RemoteAddr: c.RemoteAddr(),
		Peer:       peer,
		Cred:       env.Cred,
		RawBody:    env.Body,
	}
	defer func() { *after = req.afterReply }()
	// Only a refused or failed request is logged here, so the request's attributes are
	// built then (reqLog), not for every request: slog's With costs allocations per call.
	log := reqLog{s.log, req}
	if s.opts.Authenticator != nil {
		id, err := s.opts.Authenticator.Authenticate(ctx, req)
		if err != nil {
			log.Warn("request refused by authentication", "err", err)
			return errorEnvelope(env, asError(err, ErrnoAuthentication))
		}
		req.Identity = id
	}
	h := s.rpc[env.Type]
	if h == nil {
		log.Warn("no handler for message type")
		return errorEnvelope(env, NewError(ErrnoUnexpectedMsg))
	}
	body, err := New(env.Type)
	if err == nil {
		err = Unmarshal(env.Body, body)
	}
	if err != nil {
		log.Warn("undecodable request body", "err", err)
		return errorEnvelope(env, NewError(ErrnoReceive))
	}
	req.Body = body
	start := time.Now()
	resp, err := s.call(ctx, h, req, log)
	if s.observe != nil {
		s.observe(req, time.Since(start), err)
	}
	if err != nil {
		return errorEnvelope(env, asError(err, ErrnoSlurmError))
	}
	if resp == nil {
		resp = &OK{}
	}
	t, ok := TypeOf(resp)
	if !ok {
		log.Error("handler returned an unregistered reply type", "reply", fmt.Sprintf("%T", resp))
		return errorEnvelope(env, NewError(ErrnoSlurmError))
	}
	b, err := Marshal(resp)
	if err != nil {
		log.Error("reply not encodable", "err", err)
		return errorEnvelope(env, NewError(ErrnoSlurmError))
	}
	return &Envelope{Version: ProtocolVersion, Type: t, ReqID: env.ReqID, Body: b, room: frameRoom(resp)}
}

// call runs a handler, turning a panic into an error reply so the server keeps serving.
func (s *Server) call(ctx context.Context, h HandlerFunc, req *Request, log reqLog) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("handler panicked", "panic", r, "stack", string(debug.Stack()))
			resp, err = nil, NewError(ErrnoSlurmError)
		}
	}()
	return h(ctx, req)
}

// reqLog logs about one request, naming its peer, type and id.
type reqLog struct {
	log *slog.Logger
	req *Request
}

func (l reqLog) Warn(msg string, args ...any)  { l.emit(slog.LevelWarn, msg, args) }
func (l reqLog) Error(msg string, args ...any) { l.emit(slog.LevelError, msg, args) }

func (l reqLog) emit(level slog.Level, msg string, args []any) {
	if !l.log.Enabled(context.Background(), level) {
		return
	}
	all := append([]any{"remote", addrString(l.req.RemoteAddr), "type", l.req.Type, "req", l.req.ReqID}, args...)
	l.log.Log(context.Background(), level, msg, all...)
}

// reply signs and frames a reply envelope, falling back to an error reply when the reply
// cannot be sent (too large, signer failure).
func (s *Server) reply(env *Envelope) []byte {
	fail := func(e *Error) []byte {
		b, _ := Marshal(e)
		frame, _ := EncodeFrame(&Envelope{Version: ProtocolVersion, Type: MsgError, ReqID: env.ReqID, Body: b})
		return frame
	}
	if s.opts.Signer != nil {
		cred, err := s.opts.Signer.Sign(BodyDigest(env.Body))
		if err != nil {
			s.log.Error("cannot sign reply", "type", env.Type, "err", err)
			return fail(NewError(ErrnoAuthentication))
		}
		env.Cred = cred
	}
	frame, err := EncodeFrame(env)
	if err != nil || uint64(len(frame)-frameHeaderLen) > uint64(s.opts.MaxFrameSize) {
		s.log.Error("reply too large to send", "type", env.Type, "bytes", len(frame), "err", err)
		return fail(NewError(ErrnoInsaneMsgLength))
	}
	return frame
}

// errorEnvelope builds the unsigned error reply to req.
func errorEnvelope(req *Envelope, e *Error) *Envelope {
	b, err := Marshal(&Error{Errno: e.Errno, Text: e.Text, UserMsg: e.UserMsg})
	if err != nil {
		b, _ = Marshal(NewError(ErrnoSlurmError))
	}
	return &Envelope{Version: ProtocolVersion, Type: MsgError, ReqID: req.ReqID, Body: b}
}

// asError keeps an *Error as is and turns any other error into one with errno fallback.
func asError(err error, fallback int32) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Errno: fallback, Text: err.Error()}
}

func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	if s := a.String(); s != "" {
		return s
	}
	return a.Network()
}

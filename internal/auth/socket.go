package auth

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Local auth socket protocol, one request per connection (all integers big-endian):
//
//	request:  u32 length (= 33) | u8 version (1) | [32]byte body digest
//	response: u32 length (1..maxReplyLen) | u8 status | data
//	          status 0: data is the credential; status 1: data is an error text
//
// The request names no uid or gid: the server signs for the identity the kernel reports
// for the connecting process (SO_PEERCRED), so there is nothing for a client to claim.
const (
	sockVersion    = 1
	sockRequestLen = 1 + 32
	maxReplyLen    = 4096
	replyOK        = 0
	replyErr       = 1
)

// DefaultSocketTimeout bounds each auth-socket conversation, on both sides.
const DefaultSocketTimeout = 5 * time.Second

// DefaultMaxConns bounds how many auth-socket connections are served at once.
const DefaultMaxConns = 64

// AuthServer serves the local auth socket: any local process may connect and receive a
// credential signed for its own uid/gid, as learned from SO_PEERCRED.
type AuthServer struct {
	signer   *KeySigner
	ln       *net.UnixListener
	path     string
	timeout  time.Duration
	sem      chan struct{}
	log      *slog.Logger
	wg       sync.WaitGroup
	mu       sync.Mutex
	closed   bool
	closeErr error
}

// AuthServerOptions tunes an AuthServer; zero values take the defaults.
type AuthServerOptions struct {
	Timeout  time.Duration // per connection; DefaultSocketTimeout
	MaxConns int           // DefaultMaxConns
	Logger   *slog.Logger  // slog.Default()
}

// ListenAuth creates the auth socket at path (mode 0666, so every local user can reach it)
// and returns a server that signs with signer. A stale socket left by a dead server is
// replaced; a live one, or any other kind of file, is an error. Call Serve to answer.
func ListenAuth(path string, signer *KeySigner, opts AuthServerOptions) (*AuthServer, error) {
	if signer == nil || signer.key == nil {
		return nil, fmt.Errorf("%s: auth socket %s: no key to sign with", pluginType, path)
	}
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("%s: cannot listen on auth socket %s: %w", pluginType, path, err)
	}
	// Close must not unlink a path that a successor may already own; we remove it ourselves.
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, 0o666); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, fmt.Errorf("%s: cannot make auth socket %s reachable: %w", pluginType, path, err)
	}
	// Local callers only ever get RPC credentials, whatever context the daemon's own
	// signer was set up for.
	rpc := *signer
	rpc.Context = ContextRPC
	s := &AuthServer{signer: &rpc, ln: ln, path: path, timeout: opts.Timeout, log: opts.Logger}
	if s.timeout <= 0 {
		s.timeout = DefaultSocketTimeout
	}
	n := opts.MaxConns
	if n <= 0 {
		n = DefaultMaxConns
	}
	s.sem = make(chan struct{}, n)
	if s.log == nil {
		s.log = slog.Default()
	}
	return s, nil
}

func removeStaleSocket(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: auth socket %s: %w", pluginType, path, err)
	}
	if st.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%s: auth socket path %s exists and is not a socket", pluginType, path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("%s: auth socket %s is in use by another process", pluginType, path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: cannot remove stale auth socket %s: %w", pluginType, path, err)
	}
	return nil
}

// Path is the socket's file name.
func (s *AuthServer) Path() string { return s.path }

// Serve answers connections until Close; it then returns nil. At most MaxConns are served
// at once; further callers wait in the listen backlog.
func (s *AuthServer) Serve() error {
	for {
		s.sem <- struct{}{}
		conn, err := s.ln.AcceptUnix()
		if err != nil {
			<-s.sem
			if s.isClosed() {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			// EMFILE and the like: back off briefly rather than spin.
			s.log.Warn("auth socket accept failed", "socket", s.path, "error", err)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() { <-s.sem }()
			s.handle(conn)
		}()
	}
}

func (s *AuthServer) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close stops accepting, waits for conversations in progress (each ends by its deadline)
// and removes the socket file.
func (s *AuthServer) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return s.closeErr
	}
	s.closed = true
	err := s.ln.Close()
	s.mu.Unlock()
	s.wg.Wait()
	if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) && err == nil {
		err = rerr
	}
	s.mu.Lock()
	s.closeErr = err
	s.mu.Unlock()
	return err
}

func (s *AuthServer) handle(conn *net.UnixConn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(s.timeout))
	uid, gid, pid, err := peerCred(conn)
	if err != nil {
		s.log.Error("auth socket: unable to query kernel for socket peer credential", "error", err)
		return
	}
	digest, err := readRequest(conn)
	if err != nil {
		s.log.Debug("auth socket: bad request", "uid", uid, "pid", pid, "error", err)
		writeReply(conn, replyErr, []byte(err.Error()))
		return
	}
	cred, err := s.signer.SignFor(uid, gid, digest)
	if err != nil {
		s.log.Error("auth socket: cannot sign", "uid", uid, "error", err)
		writeReply(conn, replyErr, []byte(err.Error()))
		return
	}
	if err := writeReply(conn, replyOK, cred); err != nil {
		s.log.Debug("auth socket: reply failed", "uid", uid, "pid", pid, "error", err)
	}
}

// peerCred asks the kernel who is at the other end of conn.
func peerCred(conn *net.UnixConn) (uid, gid uint32, pid int32, err error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return 0, 0, 0, err
	}
	var uc *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		uc, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, 0, 0, err
	}
	if serr != nil {
		return 0, 0, 0, serr
	}
	return uc.Uid, uc.Gid, uc.Pid, nil
}

func readRequest(r io.Reader) ([32]byte, error) {
	var d [32]byte
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return d, fmt.Errorf("reading request length: %w", err)
	}
	if n := binary.BigEndian.Uint32(hdr[:]); n != sockRequestLen {
		return d, fmt.Errorf("request length %d, want %d", n, sockRequestLen)
	}
	var body [sockRequestLen]byte
	if _, err := io.ReadFull(r, body[:]); err != nil {
		return d, fmt.Errorf("reading request: %w", err)
	}
	if body[0] != sockVersion {
		return d, fmt.Errorf("unsupported auth socket protocol version %d", body[0])
	}
	copy(d[:], body[1:])
	return d, nil
}

func writeReply(w io.Writer, status byte, data []byte) error {
	if len(data)+1 > maxReplyLen {
		data = data[:maxReplyLen-1]
	}
	b := make([]byte, 4, 5+len(data))
	binary.BigEndian.PutUint32(b, uint32(1+len(data)))
	b = append(b, status)
	b = append(b, data...)
	_, err := w.Write(b)
	return err
}

// SocketSigner obtains credentials from the local auth socket; it is the Signer of
// commands run by users who cannot read the key.
type SocketSigner struct {
	Path    string
	Timeout time.Duration // DefaultSocketTimeout unless set
}

// Sign asks the auth socket to sign bodyDigest for the calling process's uid/gid.
func (s *SocketSigner) Sign(bodyDigest [32]byte) ([]byte, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultSocketTimeout
	}
	conn, err := net.DialTimeout("unix", s.Path, timeout)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrAgent, s.Path, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(timeout))
	req := make([]byte, 4, 4+sockRequestLen)
	binary.BigEndian.PutUint32(req, sockRequestLen)
	req = append(req, sockVersion)
	req = append(req, bodyDigest[:]...)
	if _, err := conn.Write(req); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrAgent, s.Path, err)
	}
	var hdr [4]byte
	if _, err := io.ReadFull(conn, hdr[:]); err != nil {
		return nil, fmt.Errorf("%w: %s: reading reply: %v", ErrAgent, s.Path, err)
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n < 1 || n > maxReplyLen {
		return nil, fmt.Errorf("%w: %s: reply length %d out of range", ErrAgent, s.Path, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(conn, body); err != nil {
		return nil, fmt.Errorf("%w: %s: reading reply: %v", ErrAgent, s.Path, err)
	}
	switch body[0] {
	case replyOK:
		return body[1:], nil
	case replyErr:
		return nil, fmt.Errorf("%s: auth socket %s refused: %s", pluginType, s.Path, body[1:])
	default:
		return nil, fmt.Errorf("%w: %s: unknown reply status %d", ErrAgent, s.Path, body[0])
	}
}

// NewSigner returns the Signer for this process: a KeySigner for its own uid/gid when it can
// read the key at keyPath (root, SlurmUser), else a SocketSigner using socketPath. A key it
// can read but must not trust (insecure mode, too short) is an error, not a fallback.
func NewSigner(keyPath, socketPath string) (Signer, error) {
	key, err := LoadKey(keyPath)
	if err == nil {
		uid, gid := processIdentity()
		return NewKeySigner(key, uid, gid), nil
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist) {
		if socketPath == "" {
			return nil, fmt.Errorf("%w: cannot read %s and no auth socket is configured", ErrAgent, keyPath)
		}
		return &SocketSigner{Path: socketPath}, nil
	}
	return nil, err
}

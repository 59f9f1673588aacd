package auth

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childSocketEnv makes the test binary act as an auth-socket client: it signs the digest
// "from child" through the socket named by the variable and prints the credential in hex.
const childSocketEnv = "ORBIT_AUTH_TEST_CHILD_SOCKET"

func TestMain(m *testing.M) {
	if path := os.Getenv(childSocketEnv); path != "" {
		cred, err := (&SocketSigner{Path: path}).Sign(digestOf("from child"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(hex.EncodeToString(cred))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startServer runs an AuthServer in a fresh directory that every user may traverse.
func startServer(t *testing.T, opts AuthServerOptions) (*AuthServer, *KeyVerifier, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "orbit-auth-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	key := testKey(t)
	signer := NewKeySigner(key, 0, 0)
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := ListenAuth(filepath.Join(dir, "auth.socket"), signer, opts)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, NewKeyVerifier(key), dir
}

func TestAuthServer_SignsForCaller(t *testing.T) {
	srv, v, _ := startServer(t, AuthServerOptions{})
	st, err := os.Stat(srv.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o666 {
		t.Errorf("auth socket mode %o, want 666", st.Mode().Perm())
	}
	d := digestOf("squeue")
	cred, err := (&SocketSigner{Path: srv.Path()}).Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(cred, d)
	if err != nil {
		t.Fatal(err)
	}
	if id.UID != uint32(os.Getuid()) || id.GID != uint32(os.Getgid()) {
		t.Errorf("credential says uid=%d gid=%d, caller is uid=%d gid=%d", id.UID, id.GID, os.Getuid(), os.Getgid())
	}
}

// TestAuthServer_UnprivilegedCaller runs a client process as nobody (65534) and checks the
// server signed for nobody, not for the server's own uid 0: the identity comes from the
// kernel, and the request has no field in which the client could claim another.
func TestAuthServer_UnprivilegedCaller(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start a client process as uid 65534 (nobody)")
	}
	srv, v, dir := startServer(t, AuthServerOptions{})
	// The test binary sits in a directory private to root; nobody needs a copy it can run.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "auth.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = []string{childSocketEnv + "=" + srv.Path(), "USER=root", "LOGNAME=root"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child as nobody: %v: %s", err, stderr.String())
	}
	cred, err := hex.DecodeString(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.Verify(cred, digestOf("from child"))
	if err != nil {
		t.Fatal(err)
	}
	if id.UID != 65534 || id.GID != 65534 {
		t.Fatalf("credential from nobody's request says uid=%d gid=%d, want 65534/65534", id.UID, id.GID)
	}
}

// rawExchange sends b on a fresh connection and returns what the server answers before it
// closes the connection.
func rawExchange(t *testing.T, path string, b []byte) []byte {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	c.Write(b)
	c.(*net.UnixConn).CloseWrite()
	reply, _ := io.ReadAll(c)
	return reply
}

func frame(n uint32, payload []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, n)
	return append(b, payload...)
}

func TestAuthServer_Garbage(t *testing.T) {
	srv, v, _ := startServer(t, AuthServerOptions{})
	digest := digestOf("d")
	cases := []struct {
		name    string
		send    []byte
		wantErr string // the error reply the server sends
	}{
		{"http", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "request length"},
		{"huge length", frame(1<<31, nil), "request length 2147483648"},
		{"short length", frame(4, []byte{1, 2, 3, 4}), "request length 4"},
		{"bad version", frame(sockRequestLen, append([]byte{7}, digest[:]...)), "unsupported auth socket protocol version 7"},
		{"claims a uid", frame(sockRequestLen+4, append(append([]byte{1}, digest[:]...), 0, 0, 0, 0)), "request length 37"},
		{"truncated", frame(sockRequestLen, []byte{1, 2, 3}), "reading request"},
		{"nothing", nil, "reading request length"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reply := rawExchange(t, srv.Path(), tc.send)
			if len(reply) < 5 || reply[4] != replyErr || !strings.Contains(string(reply[5:]), tc.wantErr) {
				t.Fatalf("reply %q, want an error reply containing %q", reply, tc.wantErr)
			}
			// The server keeps serving well-behaved callers.
			d := digestOf(tc.name)
			cred, err := (&SocketSigner{Path: srv.Path()}).Sign(d)
			if err != nil {
				t.Fatalf("after garbage: %v", err)
			}
			if _, err := v.Verify(cred, d); err != nil {
				t.Fatalf("after garbage: %v", err)
			}
		})
	}
}

// TestAuthServer_Silence: a caller that connects and says nothing neither blocks other
// callers nor holds its connection past the server's deadline.
func TestAuthServer_Silence(t *testing.T) {
	srv, v, _ := startServer(t, AuthServerOptions{Timeout: 300 * time.Millisecond, MaxConns: 2})
	silent, err := net.Dial("unix", srv.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for i := 0; i < 5; i++ {
		d := digestOf(fmt.Sprint("req", i))
		cred, err := (&SocketSigner{Path: srv.Path()}).Sign(d)
		if err != nil {
			t.Fatalf("request %d while a silent peer is connected: %v", i, err)
		}
		if _, err := v.Verify(cred, d); err != nil {
			t.Fatal(err)
		}
	}
	// The server drops the silent peer: reading sees EOF, long before the test's own
	// safety deadline. (Its deadline has passed, so the server does not try to reply.)
	silent.SetReadDeadline(time.Now().Add(time.Minute))
	got, err := io.ReadAll(silent)
	if err != nil {
		t.Fatalf("silent peer was not disconnected: %v", err)
	}
	if len(got) != 0 {
		t.Errorf("silent peer got %q, want nothing", got)
	}
}

func TestListenAuth_ExistingPath(t *testing.T) {
	dir := t.TempDir()
	key := testKey(t)
	signer := NewKeySigner(key, 0, 0)

	// A regular file is never replaced.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o600)
	if _, err := ListenAuth(file, signer, AuthServerOptions{}); err == nil || !strings.Contains(err.Error(), "is not a socket") {
		t.Errorf("ListenAuth on a regular file: %v", err)
	}

	// A stale socket (nobody listening) is replaced.
	stale := filepath.Join(dir, "stale.socket")
	l, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	srv, err := ListenAuth(stale, signer, AuthServerOptions{})
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	go srv.Serve()
	defer srv.Close()

	// A live one is refused.
	if _, err := ListenAuth(stale, signer, AuthServerOptions{}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("ListenAuth on a live socket: %v", err)
	}
}

func TestSocketSigner_NoServer(t *testing.T) {
	_, err := (&SocketSigner{Path: filepath.Join(t.TempDir(), "none")}).Sign(digestOf("x"))
	if !errors.Is(err, ErrAgent) {
		t.Fatalf("error %v, want ErrAgent", err)
	}
}

func TestNewSigner(t *testing.T) {
	dir := t.TempDir()
	keyPath := filepath.Join(dir, KeyFileName)
	if _, err := GenerateKey(keyPath); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "auth.socket")

	s, err := NewSigner(keyPath, sock)
	if err != nil {
		t.Fatal(err)
	}
	if ks, ok := s.(*KeySigner); !ok || ks.UID != uint32(os.Getuid()) {
		t.Errorf("readable key: got %T, want *KeySigner for own uid", s)
	}

	s, err = NewSigner(filepath.Join(dir, "absent.key"), sock)
	if err != nil {
		t.Fatal(err)
	}
	if ss, ok := s.(*SocketSigner); !ok || ss.Path != sock {
		t.Errorf("absent key: got %#v, want SocketSigner on %s", s, sock)
	}

	os.Chmod(keyPath, 0o644)
	if _, err := NewSigner(keyPath, sock); err == nil || !strings.Contains(err.Error(), "insecure") {
		t.Errorf("insecure readable key: error %v, want a refusal", err)
	}
}

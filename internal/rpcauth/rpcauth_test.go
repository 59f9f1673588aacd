package rpcauth_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestAuthenticator_RealServer runs a wire server on loopback with the Authenticator and
// checks that a signed call is served with the signer's identity and that a client with
// another key is refused with SLURM_PROTOCOL_AUTHENTICATION_ERROR.
func TestAuthenticator_RealServer(t *testing.T) {
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "slurm.key")
	if _, err := auth.GenerateKey(keyPath); err != nil {
		t.Fatal(err)
	}
	key, err := auth.LoadKey(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.ServerOptions{Authenticator: rpcauth.Authenticator{V: auth.NewKeyVerifier(key)}})
	var seen *wire.Identity
	srv.HandleRPC(wire.MsgPing, func(_ context.Context, req *wire.Request) (any, error) {
		seen = req.Identity
		p := req.Body.(*wire.Ping)
		return &wire.PingReply{Seq: p.Seq}, nil
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	defer srv.Close()

	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	var reply wire.PingReply
	err = wire.Call(context.Background(), "tcp", l.Addr().String(), wire.MsgPing, &wire.Ping{Seq: 7}, &reply,
		wire.ClientOptions{Signer: auth.NewKeySigner(key, uid, gid)})
	if err != nil {
		t.Fatalf("signed call: %v", err)
	}
	if reply.Seq != 7 || seen == nil || seen.UID != uid || seen.GID != gid {
		t.Fatalf("reply %+v, identity %+v; want seq 7 from %d:%d", reply, seen, uid, gid)
	}

	otherPath := filepath.Join(dir, "other.key")
	if _, err := auth.GenerateKey(otherPath); err != nil {
		t.Fatal(err)
	}
	other, err := auth.LoadKey(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	var reply2 wire.PingReply
	err = wire.Call(context.Background(), "tcp", l.Addr().String(), wire.MsgPing, &wire.Ping{Seq: 8}, &reply2,
		wire.ClientOptions{Signer: auth.NewKeySigner(other, uid, gid)})
	var werr *wire.Error
	if !errors.As(err, &werr) || werr.Errno != wire.ErrnoAuthentication {
		t.Fatalf("call with a foreign key: %v, want errno %d", err, wire.ErrnoAuthentication)
	}
}

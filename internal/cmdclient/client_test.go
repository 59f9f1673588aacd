package cmdclient_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// writeConf writes a minimal slurm.conf naming port as the controller's, and a key beside it.
func writeConf(t *testing.T, port int) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "slurm.conf")
	text := "ClusterName=c1\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=" + strconv.Itoa(port) +
		"\nMessageTimeout=3\nAuthType=auth/slurm\nNodeName=n1 CPUs=1\nPartitionName=debug Nodes=ALL Default=YES\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.GenerateKey(auth.KeyPath(p)); err != nil {
		t.Fatal(err)
	}
	return p
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestClient_Call_ControllerDown(t *testing.T) {
	p := writeConf(t, freePort(t))
	c, err := cmdclient.Load("sbatch", p)
	if err != nil {
		t.Fatal(err)
	}
	slept := 0
	c.Sleep = func(time.Duration) { slept++ }
	err = c.Call(context.Background(), wire.MsgPing, &wire.Ping{}, new(wire.PingReply))
	var e *cmdclient.Error
	if !errors.As(err, &e) || e.Errno != cmdclient.ErrnoControllerConnection {
		t.Fatalf("Call to a dead port = %v, want errno 1800", err)
	}
	if e.Error() != "Unable to contact slurm controller (connect failure)" {
		t.Errorf("text = %q", e.Error())
	}
	if slept != 2 { // MessageTimeout=3: three attempts, two waits
		t.Errorf("waited %d times between attempts, want 2", slept)
	}
	if got := cmdclient.ExitStatus(e.Errno); got != 8 {
		t.Errorf("ExitStatus(1800) = %d, want 8 (scancel's exit status)", got)
	}
}

func TestClient_Call_SignedRoundTrip(t *testing.T) {
	port := freePort(t)
	p := writeConf(t, port)
	key, err := auth.LoadKey(auth.KeyPath(p))
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wire.ServerOptions{Authenticator: rpcauth.Authenticator{V: auth.NewKeyVerifier(key)}})
	srv.HandleRPC(wire.MsgPing, func(_ context.Context, req *wire.Request) (any, error) {
		if req.Identity == nil || req.Identity.UID != uint32(os.Getuid()) {
			return nil, wire.Errorf(wire.ErrnoAccessDenied, "Access/permission denied")
		}
		in := req.Body.(*wire.Ping)
		return &wire.PingReply{Seq: in.Seq}, nil
	})
	srv.HandleRPC(wire.MsgKillJob, func(context.Context, *wire.Request) (any, error) {
		return nil, wire.Errorf(cmdclient.ErrnoInvalidJobID, "Invalid job id specified")
	})
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	c, err := cmdclient.Load("squeue", p)
	if err != nil {
		t.Fatal(err)
	}
	var rep wire.PingReply
	if err := c.Call(context.Background(), wire.MsgPing, &wire.Ping{Seq: 7}, &rep); err != nil || rep.Seq != 7 {
		t.Fatalf("Ping = %+v, %v", rep, err)
	}
	err = c.Call(context.Background(), wire.MsgKillJob, &wire.KillJobRequest{JobID: 9}, new(wire.KillJobReply))
	e := cmdclient.AsError(err)
	if e == nil || e.Errno != cmdclient.ErrnoInvalidJobID || e.Text != "Invalid job id specified" {
		t.Fatalf("peer error = %#v", e)
	}
}

func TestLoad_ConfigErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "slurm.conf")
	os.WriteFile(p, []byte("ClusterName=x\nBogusKey=1\nSlurmctldHost=localhost\n"), 0o644)
	_, err := cmdclient.Load("squeue", p)
	var ce *cmdclient.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "BogusKey") {
		t.Fatalf("Load of a bad file = %v, want a ConfigError naming BogusKey", err)
	}
}

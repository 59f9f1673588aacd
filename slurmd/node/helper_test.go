package node_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// fakeCtld is a small in-test controller: a real wire.Server that records registrations and
// batch completions. The real controller is tested with slurmd end to end in testsuite/;
// this one lets the node daemon be tested before and without it.
type fakeCtld struct {
	t    testing.TB
	addr string
	key  *auth.Key
	dir  string
	conf string

	mu        sync.Mutex
	regs      []wire.NodeRegistration
	completes map[uint32]chan wire.BatchJobComplete
	changed   chan struct{}
	terminate []uint32 // jobs to list in every registration reply
}

// newCluster writes slurm.conf (nodes n[1-nodes], SlurmdSpoolDir with %n) and slurm.key into
// a temp dir and starts the fake controller the config names.
func newCluster(t testing.TB, nodes int) *fakeCtld {
	t.Helper()
	// Not t.TempDir: its parent is closed to other users, and jobs run as "nobody" must
	// reach their script in the spool.
	dir, err := os.MkdirTemp("", "orbit-slurmd-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0755)
	f := &fakeCtld{t: t, dir: dir, completes: map[uint32]chan wire.BatchJobComplete{}, changed: make(chan struct{})}
	if f.key, err = auth.GenerateKey(filepath.Join(dir, "slurm.key")); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr = ln.Addr().String()
	srv := wire.NewServer(wire.ServerOptions{Authenticator: rpcauth.Authenticator{V: auth.NewKeyVerifier(f.key)}})
	srv.HandleRPC(wire.MsgNodeRegistration, func(_ context.Context, req *wire.Request) (any, error) {
		r := req.Body.(*wire.NodeRegistration)
		f.mu.Lock()
		f.regs = append(f.regs, *r)
		term := slices.Clone(f.terminate)
		f.notify()
		f.mu.Unlock()
		return &wire.NodeRegistrationReply{TerminateJobs: term}, nil
	})
	srv.HandleRPC(wire.MsgBatchJobComplete, func(_ context.Context, req *wire.Request) (any, error) {
		c := req.Body.(*wire.BatchJobComplete)
		if req.Identity.UID != 0 && req.Identity.UID != uint32(os.Getuid()) {
			return nil, wire.NewError(wire.ErrnoAccessDenied)
		}
		f.completion(c.JobID) <- *c
		return nil, nil
	})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	_, port, _ := net.SplitHostPort(f.addr)
	// A port for slurmd binaries (in-process daemons listen on port 0 instead).
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, nodePort, _ := net.SplitHostPort(free.Addr().String())
	free.Close()
	f.conf = filepath.Join(dir, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%s
AuthType=auth/slurm
CredType=cred/slurm
AuthInfo=socket=%s/sack.socket
SlurmUser=root
SlurmdTimeout=3
KillWait=2
StateSaveLocation=%s/state
SlurmdSpoolDir=%s/spool/%%n
NodeName=n[1-%d] NodeAddr=127.0.0.1 Port=%s CPUs=4 RealMemory=1000
PartitionName=debug Nodes=ALL Default=YES
`, port, dir, dir, dir, nodes, nodePort)
	if err := os.WriteFile(f.conf, []byte(text), 0644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fakeCtld) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *fakeCtld) completion(job uint32) chan wire.BatchJobComplete {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.completes[job]
	if c == nil {
		c = make(chan wire.BatchJobComplete, 4)
		f.completes[job] = c
	}
	return c
}

// waitComplete returns the first completion report of job.
func (f *fakeCtld) waitComplete(job uint32) wire.BatchJobComplete {
	f.t.Helper()
	select {
	case c := <-f.completion(job):
		return c
	case <-time.After(time.Minute):
		f.t.Fatalf("job %d: no completion reached the controller", job)
		return wire.BatchJobComplete{}
	}
}

// waitReg waits for a registration that satisfies ok.
func (f *fakeCtld) waitReg(what string, ok func(r wire.NodeRegistration) bool) wire.NodeRegistration {
	f.t.Helper()
	deadline := time.After(time.Minute)
	seen := 0
	for {
		f.mu.Lock()
		for ; seen < len(f.regs); seen++ {
			if ok(f.regs[seen]) {
				r := f.regs[seen]
				f.mu.Unlock()
				return r
			}
		}
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			f.t.Fatalf("no registration %s", what)
		}
	}
}

// launch is a batch launch of script for job as the given user, on node, with a valid
// credential.
func (f *fakeCtld) launch(job uint32, node string, uid, gid uint32, script, workDir string) *wire.LaunchBatchJob {
	f.t.Helper()
	cred, err := auth.NewLaunchSigner(f.key).SignLaunch(auth.LaunchCred{JobID: job, StepID: 0xFFFFFFFE, UID: uid, GID: gid, NodeList: node})
	if err != nil {
		f.t.Fatal(err)
	}
	return &wire.LaunchBatchJob{
		NodeName: node, Cred: cred, JobID: job, ArrayTaskID: 0xFFFFFFFE, UserID: uid, GroupID: gid,
		JobName: "job" + strconv.Itoa(int(job)), Partition: "debug", NodeList: node, CPUsPerNode: []uint32{1},
		TimeLimit: 0xFFFFFFFF, WorkDir: workDir, Script: script,
		Environment: []string{"PATH=/usr/bin:/bin", "SLURM_SUBMIT_DIR=" + workDir, "SLURM_SUBMIT_HOST=localhost"},
		ClusterName: "test",
	}
}

// call sends a message to a slurmd as root (or this test's user), as the controller does.
func (f *fakeCtld) call(addr string, t wire.MsgType, msg any) error {
	signer := auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	return f.callAs(addr, t, msg, signer)
}

func (f *fakeCtld) callAs(addr string, t wire.MsgType, msg any, signer wire.Signer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return wire.Call(ctx, "tcp", addr, t, msg, nil, wire.ClientOptions{Signer: signer})
}

// startNode starts an in-process slurmd hosting nodes.
func startNode(t testing.TB, f *fakeCtld, nodes string) *node.Daemon {
	return node.StartTest(t, f.conf, node.Options{NodeNames: nodes, StepdPath: testbin.Path(t, "slurmd/slurmstepd")})
}

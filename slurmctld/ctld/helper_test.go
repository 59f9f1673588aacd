package ctld_test

import (
	"context"
	"errors"
	"net"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// fixture is a controller started in-process with a fake node agent.
type fixture struct {
	t    testing.TB
	c    *ctld.Controller
	conf string
	key  *auth.Key
	node *testNode
}

func newFixture(t testing.TB, tc ctld.TestConfig) *fixture {
	t.Helper()
	c, path := ctld.StartTestCluster(t, tc)
	key, err := auth.LoadKey(auth.KeyPath(path))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, c: c, conf: path, key: key}
	return f
}

// call makes one RPC to the controller as uid.
func (f *fixture) call(uid uint32, typ wire.MsgType, req, resp any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts := wire.ClientOptions{Signer: auth.NewKeySigner(f.key, uid, uid)}
	return wire.Call(ctx, "tcp", f.c.Addr().String(), typ, req, resp, opts)
}

func (f *fixture) submit(uid uint32, d *wire.JobDesc) (uint32, error) {
	rep := new(wire.SubmitBatchJobReply)
	err := f.call(uid, wire.MsgSubmitBatchJob, d, rep)
	return rep.JobID, err
}

func (f *fixture) mustSubmit(d *wire.JobDesc) uint32 {
	f.t.Helper()
	id, err := f.submit(0, d)
	if err != nil {
		f.t.Fatalf("submit: %v", err)
	}
	return id
}

func (f *fixture) job(id uint32) wire.JobInfo {
	f.t.Helper()
	rep := new(wire.JobInfoReply)
	if err := f.call(0, wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{id}}, rep); err != nil {
		f.t.Fatalf("job info: %v", err)
	}
	for _, j := range rep.Jobs { // an array id also names its tasks: pick the record itself
		if j.JobID == id {
			return j
		}
	}
	f.t.Fatalf("job info for %d: no such job among %d", id, len(rep.Jobs))
	return wire.JobInfo{}
}

func (f *fixture) kill(uid, id uint32, sig int32) *wire.KillJobReply {
	f.t.Helper()
	rep := new(wire.KillJobReply)
	if err := f.call(uid, wire.MsgKillJob, &wire.KillJobRequest{JobID: id, ArrayTaskID: wire.NoVal, Signal: sig}, rep); err != nil {
		f.t.Fatalf("kill: %v", err)
	}
	return rep
}

// waitState polls until job id is in state want (base and flags) and returns it.
func (f *fixture) waitState(id uint32, want states.JobState) wire.JobInfo {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		j := f.job(id)
		if states.JobState(j.State) == want {
			return j
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("job %d: state %s reason %s, want %s", id, states.JobState(j.State), states.Reason(j.Reason), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitReason polls until pending job id has reason want.
func (f *fixture) waitReason(id uint32, want states.Reason) wire.JobInfo {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		j := f.job(id)
		if states.Reason(j.Reason) == want && states.JobState(j.State).IsPending() {
			return j
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("job %d: state %s reason %s, want pending with %s", id, states.JobState(j.State), states.Reason(j.Reason), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func script(body string) *wire.JobDesc {
	return &wire.JobDesc{
		Name: "t", Script: "#!/bin/sh\n" + body + "\n", MinNodes: wire.NoVal, NumTasks: wire.NoVal,
		CPUsPerTask: wire.NoVal, NTasksPerNode: wire.NoVal, MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64,
		TimeLimit: wire.NoVal, Priority: wire.NoVal, Requeue: -1, WorkDir: "/tmp",
	}
}

// testNode stands in for slurmd: a real wire.Server that verifies the controller's messages,
// answers MsgLaunchBatchJob with OK and then reports the script's end with
// MsgBatchJobComplete, as slurmstepd would. A script saying "exit N" ends with status N at
// once; a script saying "sleep" runs until the controller terminates it. (The real slurmd and
// slurmstepd are tested end to end with this controller in testsuite/.)
type testNode struct {
	f    *fixture
	srv  *wire.Server
	addr string

	mu       sync.Mutex
	running  map[uint32]string // job → node name, for "sleep" scripts
	launched []uint32
	sent     []*wire.LaunchBatchJob // every launch message, in order (job_record_script_test.go)
	forwards int                    // nodes answered for through broadcasts (node_ping_test.go)
	details  []string               // every terminate's Details, in order (resv_overrun_test.go)
}

var exitRE = regexp.MustCompile(`exit (\d+)`)

func (f *fixture) startNodes(names ...string) *testNode {
	f.t.Helper()
	n := &testNode{f: f, running: map[uint32]string{}}
	n.srv = wire.NewServer(wire.ServerOptions{Authenticator: rpcauth.Authenticator{V: auth.NewKeyVerifier(f.key)}})
	n.srv.HandleRPC(wire.MsgLaunchBatchJob, n.launch)
	n.srv.HandleRPC(wire.MsgTerminateJob, n.terminate)
	n.srv.HandleRPC(wire.MsgSignalJob, func(context.Context, *wire.Request) (any, error) { return nil, nil })
	n.srv.HandleRPC(wire.MsgPing, func(_ context.Context, r *wire.Request) (any, error) { return &wire.PingReply{}, nil })
	n.srv.HandleRPC(wire.MsgForward, n.forwarded(f)) // broadcasts: node_ping_test.go
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.t.Fatal(err)
	}
	n.addr = l.Addr().String()
	go n.srv.Serve(l)
	f.t.Cleanup(func() { n.srv.Close() })
	for _, name := range names {
		n.register(name, nil)
	}
	f.node = n
	return n
}

func (n *testNode) register(name string, running []uint32) *wire.NodeRegistrationReply {
	n.f.t.Helper()
	rep := new(wire.NodeRegistrationReply)
	reg := &wire.NodeRegistration{NodeName: name, Addr: n.addr, CPUs: 4, SlurmdStart: time.Now().Unix(), RunningJobs: running}
	if err := n.f.call(0, wire.MsgNodeRegistration, reg, rep); err != nil {
		n.f.t.Fatalf("register %s: %v", name, err)
	}
	return rep
}

func (n *testNode) launch(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.LaunchBatchJob)
	if _, err := auth.NewLaunchVerifier(n.f.key).VerifyLaunch(m.Cred, m.NodeName); err != nil {
		return nil, wire.Errorf(4004, "Invalid job credential: %v", err)
	}
	n.mu.Lock()
	n.launched = append(n.launched, m.JobID)
	n.sent = append(n.sent, m)
	if regexp.MustCompile(`\bsleep\b`).MatchString(m.Script) {
		n.running[m.JobID] = m.NodeName
		n.mu.Unlock()
		return nil, nil
	}
	n.mu.Unlock()
	status := uint32(0)
	if mm := exitRE.FindStringSubmatch(m.Script); mm != nil {
		v, _ := strconv.Atoi(mm[1])
		status = uint32(v) << 8
	}
	go n.complete(&wire.BatchJobComplete{JobID: m.JobID, NodeName: m.NodeName, WaitStatus: status})
	return nil, nil
}

func (n *testNode) terminate(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.TerminateJob)
	n.mu.Lock()
	if m.Details != "" {
		n.details = append(n.details, m.Details)
	}
	node, ok := n.running[m.JobID]
	delete(n.running, m.JobID)
	n.mu.Unlock()
	if !ok || node != m.NodeName {
		return nil, wire.Errorf(4002, "Job already completed")
	}
	go n.complete(&wire.BatchJobComplete{JobID: m.JobID, NodeName: node, WaitStatus: 15, TimedOut: m.TimedOut, Cancelled: !m.TimedOut})
	return nil, nil
}

// complete reports a script's end, retrying until acknowledged, as slurmstepd does.
func (n *testNode) complete(m *wire.BatchJobComplete) {
	for i := 0; i < 100; i++ {
		if err := n.f.call(0, wire.MsgBatchJobComplete, m, nil); err == nil {
			return
		} else if we := (*wire.Error)(nil); errors.As(err, &we) && errors.Unwrap(we) == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (n *testNode) launches() []uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]uint32(nil), n.launched...)
}

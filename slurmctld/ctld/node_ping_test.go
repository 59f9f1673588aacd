package ctld_test

import (
	"context"
	"net"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// forwarded serves the controller's broadcasts for the test node's names, as slurmd's
// forward.go does: the inner message verified, then answered per node.
func (n *testNode) forwarded(f *fixture) wire.HandlerFunc {
	h := &wire.ForwardHandler{
		Auth: rpcauth.Authenticator{V: auth.NewKeyVerifier(f.key)},
		Local: func(ctx context.Context, node string, r *wire.Request) (any, error) {
			n.mu.Lock()
			n.forwards++
			n.mu.Unlock()
			switch m := r.Body.(type) {
			case *wire.Ping:
				return &wire.PingReply{Seq: m.Seq}, nil
			case *wire.TerminateJob:
				m.NodeName = node
				return n.terminate(ctx, r)
			}
			return nil, nil
		},
	}
	return func(_ context.Context, r *wire.Request) (any, error) { return h.Serve(context.Background(), r) }
}

func (n *testNode) served() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.forwards
}

// closedAddr is a loopback address nobody listens on.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func (f *fixture) nodeStates() map[string]states.NodeState {
	f.t.Helper()
	rep := new(wire.NodeInfoReply)
	if err := f.call(0, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, rep); err != nil {
		f.t.Fatal(err)
	}
	out := map[string]states.NodeState{}
	for _, n := range rep.Nodes {
		out[n.Name] = states.NodeState(n.State)
	}
	return out
}

// TestPingNodes_AnsweredAndSilent pings two nodes served by one test slurmd and one whose
// address answers nothing: one Forward reaches the live slurmd and answers for both its
// nodes, and the silent node becomes NOT_RESPONDING (IDLE*) while the others stay IDLE.
func TestPingNodes_AnsweredAndSilent(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 3})
	node := f.startNodes("n1", "n2")
	dead := &testNode{f: f, addr: closedAddr(t), running: map[uint32]string{}}
	dead.register("n3", nil)
	before := node.served()

	st := f.c.PingNodes()
	if st.Pinged != 3 || st.Failed != 1 || st.Forwards != 1 {
		t.Fatalf("sweep %+v: want 3 pinged, 1 failed, 1 forward served", st)
	}
	if got := node.served() - before; got != 2 {
		t.Fatalf("the test slurmd answered %d pings, want 2", got)
	}
	for name, s := range f.nodeStates() {
		if want := name == "n3"; s.Has(states.NodeNoRespond) != want || s.Base() != states.NodeIdle {
			t.Errorf("%s: state %s", name, s)
		}
	}
	// Once it answers again (its slurmd registers), the flag clears.
	dead.addr = node.addr
	dead.register("n3", nil)
	if s := f.nodeStates()["n3"]; s.Has(states.NodeNoRespond) {
		t.Fatalf("n3 after registering: %s", s)
	}
}

// TestTerminate_OneBroadcastPerJob cancels a job running on 3 nodes: the terminate reaches
// the nodes' slurmd as one broadcast answered for all three.
func TestTerminate_OneBroadcastPerJob(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 3})
	node := f.startNodes("n1", "n2", "n3")
	d := script("sleep 100")
	d.MinNodes = 3
	id := f.mustSubmit(d)
	f.waitState(id, states.JobRunning)
	before := node.served()
	f.kill(0, id, 0)
	f.waitState(id, states.JobCancelled)
	if got := node.served() - before; got != 3 {
		t.Fatalf("terminate answered for %d nodes, want 3", got)
	}
}

// refusingNode is a slurmd that answers every batch launch with an error (as a node that
// cannot start the job would) and every broadcast with success.
func refusingNode(t *testing.T, f *fixture) string {
	srv := wire.NewServer(wire.ServerOptions{Authenticator: rpcauth.Authenticator{V: auth.NewKeyVerifier(f.key)}})
	srv.HandleRPC(wire.MsgLaunchBatchJob, func(context.Context, *wire.Request) (any, error) {
		return nil, wire.Errorf(4020, "Unable to start the job")
	})
	fw := &wire.ForwardHandler{Local: func(context.Context, string, *wire.Request) (any, error) { return nil, nil }}
	srv.HandleRPC(wire.MsgForward, func(_ context.Context, r *wire.Request) (any, error) { return fw.Serve(context.Background(), r) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String()
}

// TestLaunch_RefusedFailsJob: a batch launch the node answers with an error makes the job
// non-startable, as Slurm's agent has it: FAILED, exit code 1:0, reason NonZeroExitCode.
func TestLaunch_RefusedFailsJob(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	n := &testNode{f: f, addr: refusingNode(t, f), running: map[uint32]string{}}
	n.register("n1", nil)
	id := f.mustSubmit(script("true"))
	j := f.waitState(id, states.JobFailed)
	if states.Reason(j.Reason) != states.FailExitCode || j.ExitCode != 1<<8 || j.Restarts != 0 {
		t.Fatalf("job after a refused launch: reason %s, exit %#x, restarts %d; want NonZeroExitCode, 1:0, 0",
			states.Reason(j.Reason), j.ExitCode, j.Restarts)
	}
}

// TestLaunch_UnreachableRequeues: a batch host that cannot be reached is the system's fault:
// the job is requeued (even with --no-requeue, as Slurm's launch agent does) and the node
// becomes NOT_RESPONDING.
func TestLaunch_UnreachableRequeues(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	n := &testNode{f: f, addr: closedAddr(t), running: map[uint32]string{}}
	n.register("n1", nil)
	d := script("true")
	d.Requeue = 0 // --no-requeue
	id := f.mustSubmit(d)
	f.waitFor("the job requeued after its launch failed", func() bool {
		j := f.job(id)
		return states.JobState(j.State).IsPending() && j.Restarts == 1
	})
	if s := f.nodeStates()["n1"]; !s.Has(states.NodeNoRespond) {
		t.Fatalf("n1 after an unreachable launch: %s, want NOT_RESPONDING", s)
	}
}

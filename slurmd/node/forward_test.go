package node_test

import (
	"context"
	"os"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// forwardTree starts 4 slurmds hosting 3 nodes each (n1..n12) and returns them with their
// targets grouped by address, as the controller groups them.
func forwardTree(t *testing.T, f *fakeCtld) ([]*node.Daemon, []wire.ForwardGroup) {
	var ds []*node.Daemon
	var groups []wire.ForwardGroup
	for _, hl := range []string{"n[1-3]", "n[4-6]", "n[7-9]", "n[10-12]"} {
		d := startNode(t, f, hl)
		ds = append(ds, d)
		groups = append(groups, wire.ForwardGroup{Addr: d.Addr(), Nodes: d.Nodes()})
	}
	return ds, groups
}

func (f *fakeCtld) broadcast(t *testing.T, typ wire.MsgType, msg any, signer wire.Signer, groups []wire.ForwardGroup) *wire.ForwardReply {
	t.Helper()
	b, err := wire.NewBroadcast(typ, msg, signer, 2, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	b.Signer = auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return b.Send(ctx, groups)
}

func nodesWhere(rep *wire.ForwardReply, ok func(r wire.ForwardResult) bool) []string {
	var out []string
	for _, r := range rep.Results {
		if ok(r) {
			out = append(out, r.Nodes...)
		}
	}
	sort.Strings(out)
	return out
}

// TestForward_PingDownTheTree pings 12 nodes on 4 slurmds through a tree of width 2 with one
// slurmd dead: the dead slurmd's nodes come back unreached with Slurm's "Communication
// connection failure", every other node answers, and each live slurmd served one Forward.
func TestForward_PingDownTheTree(t *testing.T) {
	f := newCluster(t, 12)
	ds, groups := forwardTree(t, f)
	ds[1].Close() // n[4-6]

	ctl := auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	rep := f.broadcast(t, wire.MsgPing, &wire.Ping{Seq: 3}, ctl, groups)
	dead := nodesWhere(rep, func(r wire.ForwardResult) bool {
		return r.Errno == wire.ErrnoConnection && r.Unreached()
	})
	if !slices.Equal(dead, []string{"n4", "n5", "n6"}) {
		t.Fatalf("unreached %v, want n4 n5 n6 (results %+v)", dead, rep.Results)
	}
	alive := nodesWhere(rep, func(r wire.ForwardResult) bool { return r.Errno == 0 && r.RespType == wire.MsgPingReply })
	if len(alive) != 9 {
		t.Fatalf("%d nodes answered the ping, want 9: %+v", len(alive), rep.Results)
	}
	if rep.Forwards != 3 {
		t.Fatalf("%d forwards served, want 3 (one per live slurmd)", rep.Forwards)
	}
}

// TestForward_InnerCredential shows that a forwarded message is authorized with its original
// sender's credential: signed by an ordinary user, every node refuses a terminate, even
// though each hop is signed by a privileged daemon; and a replayed inner credential is
// refused like a replayed direct call.
func TestForward_InnerCredential(t *testing.T) {
	f := newCluster(t, 12)
	_, groups := forwardTree(t, f)
	user := auth.NewKeySigner(f.key, 4242, 4242)
	rep := f.broadcast(t, wire.MsgTerminateJob, &wire.TerminateJob{JobID: 7}, user, groups)
	if denied := nodesWhere(rep, func(r wire.ForwardResult) bool { return r.Errno == wire.ErrnoAccessDenied }); len(denied) != 12 {
		t.Fatalf("user-signed terminate: %+v, want access denied on all 12 nodes", rep.Results)
	}

	ctl := auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	b, err := wire.NewBroadcast(wire.MsgPing, &wire.Ping{}, ctl, 2, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	b.Signer = ctl
	first := b.Send(context.Background(), groups[:1])
	again := b.Send(context.Background(), groups[:1])
	if len(first.Results) != 1 || first.Results[0].Errno != 0 {
		t.Fatalf("first ping: %+v", first.Results)
	}
	if len(again.Results) != 1 || again.Results[0].Errno != wire.ErrnoAuthentication {
		t.Fatalf("replayed ping: %+v, want authentication refused", again.Results)
	}
}

// TestForward_RegistrationStatus asks nodes of two slurmds to register again through the
// tree: each registers with the controller before its answer comes back.
func TestForward_RegistrationStatus(t *testing.T) {
	f := newCluster(t, 12)
	_, groups := forwardTree(t, f)
	for _, n := range []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9", "n10", "n11", "n12"} {
		f.waitReg(n+" at start", func(r wire.NodeRegistration) bool { return r.NodeName == n })
	}
	f.mu.Lock()
	before := len(f.regs)
	f.mu.Unlock()
	ctl := auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	rep := f.broadcast(t, wire.MsgRegistrationStatus, &wire.RegistrationStatus{}, ctl, groups[:2])
	if ok := nodesWhere(rep, func(r wire.ForwardResult) bool { return r.Errno == 0 }); len(ok) != 6 {
		t.Fatalf("registration requests: %+v, want 6 answered", rep.Results)
	}
	f.mu.Lock()
	var again []string
	for _, r := range f.regs[before:] {
		again = append(again, r.NodeName)
	}
	f.mu.Unlock()
	sort.Strings(again)
	if !slices.Equal(again, []string{"n1", "n2", "n3", "n4", "n5", "n6"}) {
		t.Fatalf("registered again: %v, want n1..n6", again)
	}
}

// askReg asks node (on the slurmd at addr) to register again, as the controller's ping sweep
// does now and then, until a registration satisfying ok arrives: slurmd no longer
// re-registers on its own.
func (f *fakeCtld) askReg(addr, node, what string, ok func(r wire.NodeRegistration) bool) wire.NodeRegistration {
	f.t.Helper()
	ctl := auth.NewKeySigner(f.key, uint32(os.Getuid()), uint32(os.Getgid()))
	deadline := time.Now().Add(time.Minute)
	for {
		f.mu.Lock()
		seen := len(f.regs)
		f.mu.Unlock()
		b, err := wire.NewBroadcast(wire.MsgRegistrationStatus, &wire.RegistrationStatus{}, ctl, 1, 5*time.Second)
		if err != nil {
			f.t.Fatal(err)
		}
		b.Signer = ctl
		b.Send(context.Background(), []wire.ForwardGroup{{Addr: addr, Nodes: []string{node}}})
		f.mu.Lock()
		for _, r := range f.regs[seen:] {
			if ok(r) {
				f.mu.Unlock()
				return r
			}
		}
		f.mu.Unlock()
		if time.Now().After(deadline) {
			f.t.Fatalf("no registration %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

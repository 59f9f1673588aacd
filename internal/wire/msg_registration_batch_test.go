package wire

import (
	"context"
	"net"
	"slices"
	"sort"
	"testing"
	"time"
)

// TestForwardHandler_DropReportsTimedOut serves a Forward for 6 nodes of which Drop names 2
// (the emulation's dead nodes): the 4 others answer, the 2 are reported with Slurm's
// socket-timeout errno once the Forward's budget ends, and each node appears exactly once.
func TestForwardHandler_DropReportsTimedOut(t *testing.T) {
	nodes := []string{"n1", "n2", "n3", "n4", "n5", "n6"}
	dead := []string{"n2", "n5"}
	srv := NewServer(ServerOptions{Authenticator: fakeAuth{}})
	h := &ForwardHandler{
		Auth:   fakeAuth{},
		Signer: fakeSigner{"slurmd"},
		Local: func(_ context.Context, node string, r *Request) (any, error) {
			return &PingReply{Seq: r.Body.(*Ping).Seq}, nil
		},
		Drop: func(n string) bool { return slices.Contains(dead, n) },
	}
	srv.HandleRPC(MsgForward, func(_ context.Context, r *Request) (any, error) { return h.Serve(context.Background(), r) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	b, err := NewBroadcast(MsgPing, &Ping{Seq: 9}, fakeSigner{"ctld"}, 2, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	rep := b.Send(context.Background(), []ForwardGroup{{Addr: l.Addr().String(), Nodes: nodes}})
	var ok, timedOut []string
	for _, r := range rep.Results {
		switch {
		case r.Errno == 0 && r.RespType == MsgPingReply:
			ok = append(ok, r.Nodes...)
		case r.Errno == ErrnoSocketTimeout && r.Unreached():
			timedOut = append(timedOut, r.Nodes...)
		default:
			t.Fatalf("unexpected result %+v", r)
		}
	}
	sort.Strings(ok)
	sort.Strings(timedOut)
	if !slices.Equal(timedOut, dead) {
		t.Errorf("timed out %v, want %v", timedOut, dead)
	}
	if want := []string{"n1", "n3", "n4", "n6"}; !slices.Equal(ok, want) {
		t.Errorf("answered %v, want %v", ok, want)
	}
}

// FuzzDecodeRegistrationBatch: any bytes decode into a batch or fail with an error, never a
// panic, and a decoded batch encodes again.
func FuzzDecodeRegistrationBatch(f *testing.F) {
	good, _ := Marshal(&NodeRegistrationBatch{Nodes: []NodeRegistration{{NodeName: "n1", CPUs: 4, RunningJobs: []uint32{7}}, {NodeName: "n2"}}})
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{0x80})
	f.Add([]byte{0x81, 0xa5, 'n', 'o', 'd', 'e', 's', 0xdd, 0xff, 0xff, 0xff, 0xff})
	rep, _ := Marshal(&NodeRegistrationBatchReply{Results: []NodeRegistrationResult{{Errno: 2018, Text: "x"}}})
	f.Add(rep)
	f.Fuzz(func(t *testing.T, b []byte) {
		m := new(NodeRegistrationBatch)
		if err := Unmarshal(b, m); err != nil {
			return
		}
		if _, err := Marshal(m); err != nil {
			t.Fatalf("re-encoding a decoded batch: %v", err)
		}
		r := new(NodeRegistrationBatchReply)
		if err := Unmarshal(b, r); err == nil {
			if _, err := Marshal(r); err != nil {
				t.Fatalf("re-encoding a decoded reply: %v", err)
			}
		}
	})
}

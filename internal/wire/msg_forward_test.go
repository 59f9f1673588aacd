package wire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func sampleForward() *Forward {
	body, _ := Marshal(&Ping{Seq: 9, SentNanos: 1700000000000000000})
	return &Forward{
		Groups: []ForwardGroup{
			{Addr: "127.0.0.1:6818", Nodes: []string{"n1", "n2"}},
			{Addr: "10.0.0.2:6818", Nodes: []string{"n3"}},
		},
		TreeWidth: 50, HopTimeoutMs: 10000, TimeoutMs: 20000,
		Type: MsgPing, Cred: []byte("cred"), Body: body,
	}
}

// TestForward_Golden pins the encoding of the broadcast family.
func TestForward_Golden(t *testing.T) {
	cases := map[string]any{
		"forward.hex": sampleForward(),
		"forward_reply.hex": &ForwardReply{Results: []ForwardResult{
			{Nodes: []string{"n1", "n2"}, RespType: MsgPingReply, RespBody: []byte{0x80}},
			{Nodes: []string{"n3"}, Errno: ErrnoConnection, Text: "Communication connection failure"},
		}, Forwards: 2, Dials: 2},
		"registration_status.hex": &RegistrationStatus{NodeName: "n7"},
	}
	for name, v := range cases {
		got, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name, got)
		fresh := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if err := Unmarshal(got, fresh); err != nil || !reflect.DeepEqual(fresh, v) {
			t.Fatalf("%s: round trip gave %+v, %v", name, fresh, err)
		}
	}
}

func TestForward_Validate(t *testing.T) {
	good := sampleForward()
	if err := good.Validate(); err != nil {
		t.Fatalf("valid forward refused: %v", err)
	}
	for name, mutate := range map[string]func(f *Forward){
		"nested forward":  func(f *Forward) { f.Type = MsgForward },
		"unknown type":    func(f *Forward) { f.Type = 64999 },
		"width 0":         func(f *Forward) { f.TreeWidth = 0 },
		"no timeout":      func(f *Forward) { f.TimeoutMs = 0 },
		"no groups":       func(f *Forward) { f.Groups = nil },
		"group no addr":   func(f *Forward) { f.Groups[1].Addr = "" },
		"group no nodes":  func(f *Forward) { f.Groups[0].Nodes = nil },
		"empty node name": func(f *Forward) { f.Groups[0].Nodes[1] = "" },
	} {
		f := sampleForward()
		mutate(f)
		if err := f.Validate(); !errors.Is(err, ErrBadForward) {
			t.Errorf("%s: Validate = %v, want ErrBadForward", name, err)
		}
	}
}

func FuzzDecodeForward(f *testing.F) {
	good, _ := Marshal(sampleForward())
	f.Add(good)
	f.Add([]byte{0x80})
	f.Add([]byte{0xde, 0xff, 0xff})
	f.Add(good[:len(good)/2])
	rep, _ := Marshal(&ForwardReply{Results: []ForwardResult{{Nodes: []string{"a"}}}})
	f.Add(rep)
	f.Fuzz(func(t *testing.T, b []byte) {
		fw, err := DecodeForward(b)
		if err == nil {
			if fw.Validate() != nil {
				t.Fatal("DecodeForward returned an invalid forward")
			}
			return
		}
		if !errors.Is(err, ErrBadForward) {
			t.Fatalf("error %v does not wrap ErrBadForward", err)
		}
		// The reply decodes without panicking too.
		Unmarshal(b, new(ForwardReply))
	})
}

func TestSplitTree_AndDepth(t *testing.T) {
	var groups []ForwardGroup
	for i := range 10 {
		groups = append(groups, ForwardGroup{Addr: fmt.Sprint(i), Nodes: []string{fmt.Sprint("n", i)}})
	}
	var sizes []int
	for _, s := range SplitTree(groups, 4) {
		sizes = append(sizes, len(s))
	}
	if !slices.Equal(sizes, []int{3, 3, 2, 2}) {
		t.Fatalf("10 groups at width 4: subtree sizes %v, want [3 3 2 2]", sizes)
	}
	if got := len(SplitTree(groups[:3], 4)); got != 3 {
		t.Fatalf("3 groups at width 4: %d subtrees, want 3", got)
	}
	for _, tc := range []struct{ n, w, want int }{{0, 4, 0}, {1, 4, 1}, {5, 4, 2}, {6, 4, 3}, {21, 4, 3}, {22, 4, 4}, {1000, 50, 3}} {
		if got := TreeDepth(tc.n, tc.w); got != tc.want {
			t.Errorf("TreeDepth(%d, %d) = %d, want %d", tc.n, tc.w, got, tc.want)
		}
	}
}

func TestGroupByAddr(t *testing.T) {
	addr := map[string]string{"a1": "x", "b1": "y", "a2": "x"}
	got := GroupByAddr([]string{"a1", "b1", "a2"}, func(n string) string { return addr[n] })
	want := []ForwardGroup{{Addr: "x", Nodes: []string{"a1", "a2"}}, {Addr: "y", Nodes: []string{"b1"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

// fakeSigner signs with a fixed prefix; fakeAuth accepts only that prefix over the right
// digest: enough to show the inner credential travels untouched.
type fakeSigner struct{ who string }

func (s fakeSigner) Sign(d [32]byte) ([]byte, error) { return append([]byte(s.who+":"), d[:]...), nil }

type fakeAuth struct{}

func (fakeAuth) Authenticate(_ context.Context, r *Request) (*Identity, error) {
	d := BodyDigest(r.RawBody)
	who, sig, ok := strings.Cut(string(r.Cred), ":")
	if !ok || sig != string(d[:]) {
		return nil, NewError(ErrnoAuthentication)
	}
	uid := uint32(1000)
	if who == "ctld" {
		uid = 0
	}
	return &Identity{UID: uid}, nil
}

// treeMember is one daemon of a test tree: it hosts some nodes and counts the Forwards it
// served.
type treeMember struct {
	addr  string
	nodes []string
	seen  atomic.Int32
	srv   *Server
}

func startTreeMember(t *testing.T, nodes []string) *treeMember {
	m := &treeMember{nodes: nodes}
	m.srv = NewServer(ServerOptions{Authenticator: fakeAuth{}})
	h := &ForwardHandler{
		Auth:   fakeAuth{},
		Signer: fakeSigner{"slurmd"},
		Seen:   func(*Forward) { m.seen.Add(1) },
		Local: func(_ context.Context, node string, r *Request) (any, error) {
			if !slices.Contains(m.nodes, node) {
				return nil, Errorf(2018, "Invalid node name specified")
			}
			if r.Identity.UID != 0 {
				return nil, NewError(ErrnoAccessDenied)
			}
			p := r.Body.(*Ping)
			return &PingReply{Seq: p.Seq}, nil
		},
	}
	m.srv.HandleRPC(MsgForward, func(ctx context.Context, r *Request) (any, error) { return h.Serve(context.Background(), r) })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m.addr = l.Addr().String()
	go m.srv.Serve(l)
	t.Cleanup(func() { m.srv.Close() })
	return m
}

// TestBroadcast_Tree sends a ping down a tree of width 2 over 7 daemons (one of them dead)
// hosting 3 nodes each: every node is answered for exactly once, the dead daemon's nodes are
// unreached with Slurm's connection errno, every live daemon served one Forward, and the
// root opened at most TreeWidth connections of its own.
func TestBroadcast_Tree(t *testing.T) {
	var members []*treeMember
	var groups []ForwardGroup
	for i := range 7 {
		nodes := []string{fmt.Sprintf("n%d", 3*i+1), fmt.Sprintf("n%d", 3*i+2), fmt.Sprintf("n%d", 3*i+3)}
		m := startTreeMember(t, nodes)
		members = append(members, m)
		groups = append(groups, ForwardGroup{Addr: m.addr, Nodes: nodes})
	}
	dead := members[3]
	dead.srv.Close()

	b, err := NewBroadcast(MsgPing, &Ping{Seq: 5}, fakeSigner{"ctld"}, 2, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	rep := b.Send(context.Background(), groups)

	var ok, failed []string
	for _, r := range rep.Results {
		switch {
		case r.Errno == 0 && r.RespType == MsgPingReply:
			pr := new(PingReply)
			if err := Unmarshal(r.RespBody, pr); err != nil || pr.Seq != 5 {
				t.Fatalf("ping reply %+v, %v", pr, err)
			}
			ok = append(ok, r.Nodes...)
		case r.Unreached():
			failed = append(failed, r.Nodes...)
		default:
			t.Fatalf("unexpected result %+v", r)
		}
	}
	sort.Strings(failed)
	if !slices.Equal(failed, dead.nodes) {
		t.Fatalf("unreached %v, want the dead daemon's %v", failed, dead.nodes)
	}
	if len(ok) != 18 {
		t.Fatalf("%d nodes answered, want 18: %v", len(ok), ok)
	}
	if rep.Forwards != 6 {
		t.Fatalf("forwards %d, want 6 (one per live daemon)", rep.Forwards)
	}
	for i, m := range members {
		if m != dead && m.seen.Load() != 1 {
			t.Errorf("daemon %d served %d forwards, want 1", i, m.seen.Load())
		}
	}
	if len(rep.Results) != 2 {
		t.Errorf("%d results, want 2 (answers folded by outcome)", len(rep.Results))
	}
}

// TestBroadcast_InnerCredentialChecked shows that a forwarded inner message is verified by
// each node as a direct call would be: a message signed by an ordinary user is refused by the
// node's handler, and a forged one by authentication, on every node of the tree.
func TestBroadcast_InnerCredentialChecked(t *testing.T) {
	var groups []ForwardGroup
	for i := range 3 {
		m := startTreeMember(t, []string{fmt.Sprint("u", i)})
		groups = append(groups, ForwardGroup{Addr: m.addr, Nodes: m.nodes})
	}
	b, err := NewBroadcast(MsgPing, &Ping{Seq: 1}, fakeSigner{"user"}, 1, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	b.Signer = fakeSigner{"ctld"} // the hops are signed by a trusted daemon; the inner message is not
	rep := b.Send(context.Background(), groups)
	if len(rep.Results) != 1 || rep.Results[0].Errno != ErrnoAccessDenied || len(rep.Results[0].Nodes) != 3 {
		t.Fatalf("user-signed inner message: %+v, want access denied on 3 nodes", rep.Results)
	}
	b.Cred = []byte("ctld:forged")
	rep = b.Send(context.Background(), groups)
	if len(rep.Results) != 1 || rep.Results[0].Errno != ErrnoAuthentication || len(rep.Results[0].Nodes) != 3 {
		t.Fatalf("forged inner credential: %+v, want authentication errors on 3 nodes", rep.Results)
	}
}

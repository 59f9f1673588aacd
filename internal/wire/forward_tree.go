package wire

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The forwarding tree, for both ends of a hop: Broadcast sends an inner message to groups of
// nodes (the controller at the root, each slurmd for the rest of its subtree), and
// ForwardHandler serves a Forward on a slurmd. Concurrency is bounded by the tree itself: a
// sender calls at most TreeWidth subtree heads at once, one connection each, whatever the
// number of nodes, so no per-node goroutine or connection exists anywhere.

// Broadcast is one inner message on its way down the tree.
type Broadcast struct {
	Type MsgType
	Cred []byte // the original sender's credential over BodyDigest(Body)
	Body []byte
	// TreeWidth bounds the subtrees (and so the concurrent calls) of each hop.
	TreeWidth int
	// HopTimeout bounds one level of the tree; a subtree of depth d gets d × HopTimeout.
	HopTimeout time.Duration
	// Signer signs each hop's Forward envelope.
	Signer       Signer
	MaxFrameSize uint32
}

// NewBroadcast encodes msg (registered as t) and signs it with signer, whose credential every
// node verifies.
func NewBroadcast(t MsgType, msg any, signer Signer, width int, hop time.Duration) (*Broadcast, error) {
	if mt, ok := TypeOf(msg); !ok || mt != t {
		return nil, fmt.Errorf("wire: broadcast of %s: message is a %T", t, msg)
	}
	body, err := Marshal(msg)
	if err != nil {
		return nil, err
	}
	b := &Broadcast{Type: t, Body: body, TreeWidth: width, HopTimeout: hop, Signer: signer}
	if signer != nil {
		if b.Cred, err = signer.Sign(BodyDigest(body)); err != nil {
			return nil, transportError(ErrnoAuthentication, err)
		}
	}
	return b, nil
}

// GroupByAddr groups node names by the address addrOf gives each, keeping first-seen order of
// addresses and the given order of nodes within each.
func GroupByAddr(nodes []string, addrOf func(string) string) []ForwardGroup {
	idx := map[string]int{}
	var groups []ForwardGroup
	for _, n := range nodes {
		a := addrOf(n)
		i, ok := idx[a]
		if !ok {
			i = len(groups)
			idx[a] = i
			groups = append(groups, ForwardGroup{Addr: a})
		}
		groups[i].Nodes = append(groups[i].Nodes, n)
	}
	return groups
}

// SplitTree cuts groups into at most width subtrees of near-equal size, in order (Slurm's
// route_split_hostlist_treewidth): with no more groups than width, each is its own subtree.
func SplitTree(groups []ForwardGroup, width int) [][]ForwardGroup {
	width = max(width, 1)
	n := len(groups)
	if n == 0 {
		return nil
	}
	k := min(n, width)
	out := make([][]ForwardGroup, 0, k)
	base, extra := n/k, n%k
	for i, at := 0, 0; i < k; i++ {
		size := base
		if i < extra {
			size++
		}
		out = append(out, groups[at:at+size])
		at += size
	}
	return out
}

// TreeDepth is the number of hops a subtree of n groups needs with width: its head, then the
// deepest of the subtrees it splits the rest into.
func TreeDepth(n, width int) int {
	width = max(width, 1)
	d := 0
	for n > 0 {
		d++
		n = (n - 1 + width - 1) / width // the largest subtree of the remaining n-1
	}
	return d
}

// Send delivers b to every node of groups and returns one aggregated reply in which every node
// appears once. It never fails as a whole: nodes that could not be reached carry
// ErrnoConnection (Slurm's "Communication connection failure").
func (b *Broadcast) Send(ctx context.Context, groups []ForwardGroup) *ForwardReply {
	subs := SplitTree(groups, b.TreeWidth)
	replies := make([]*ForwardReply, len(subs))
	var wg sync.WaitGroup
	for i, sub := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = b.sendSubtree(ctx, sub)
		}()
	}
	wg.Wait()
	return MergeReplies(replies...)
}

// sendSubtree sends a subtree to its head. A head that cannot be dialed is reported
// unreached and the next group becomes the head (as Slurm's forward does); a head that fails
// after the connection was made leaves its whole subtree unreached.
func (b *Broadcast) sendSubtree(ctx context.Context, sub []ForwardGroup) *ForwardReply {
	rep := &ForwardReply{}
	hop := b.HopTimeout
	if hop <= 0 {
		hop = DefaultMessageTimeout
	}
	for i := range sub {
		budget := time.Duration(TreeDepth(len(sub)-i, b.TreeWidth)) * hop
		fwd := &Forward{
			Groups: sub[i:], TreeWidth: uint16(min(max(b.TreeWidth, 1), 0xffff)),
			HopTimeoutMs: uint32(hop.Milliseconds()), TimeoutMs: uint32(budget.Milliseconds()),
			Type: b.Type, Cred: b.Cred, Body: b.Body,
		}
		dctx, cancel := context.WithTimeout(ctx, hop)
		c, err := Dial(dctx, "tcp", sub[i].Addr, ClientOptions{MessageTimeout: budget, Signer: b.Signer, MaxFrameSize: b.MaxFrameSize})
		cancel()
		rep.Dials++
		if err != nil {
			rep.Results = append(rep.Results, unreached(sub[i].Nodes, err))
			if ctx.Err() != nil {
				for _, g := range sub[i+1:] {
					rep.Results = append(rep.Results, unreached(g.Nodes, err))
				}
				return rep
			}
			continue
		}
		got := new(ForwardReply)
		err = c.Call(ctx, MsgForward, fwd, got)
		c.Close()
		if err != nil {
			var we *Error
			answered := errors.As(err, &we) && errors.Unwrap(we) == nil
			for _, g := range sub[i:] {
				if answered {
					rep.Results = append(rep.Results, ForwardResult{Nodes: g.Nodes, Errno: we.Errno, Text: we.Text})
				} else {
					rep.Results = append(rep.Results, unreached(g.Nodes, err))
				}
			}
			return rep
		}
		rep.Results = append(rep.Results, got.Results...)
		rep.Forwards += got.Forwards
		rep.Dials += got.Dials
		return rep
	}
	return rep
}

// unreached is the result of nodes a message never reached; the text names the cause.
func unreached(nodes []string, cause error) ForwardResult {
	return ForwardResult{Nodes: nodes, Errno: ErrnoConnection, Text: Strerror(ErrnoConnection) + ": " + cause.Error()}
}

// MergeReplies joins subtree replies into one, folding results with the same outcome into one
// entry so that thousands of nodes that all answered alike cost one result.
func MergeReplies(reps ...*ForwardReply) *ForwardReply {
	out := &ForwardReply{}
	idx := map[string]int{}
	for _, r := range reps {
		if r == nil {
			continue
		}
		out.Forwards += r.Forwards
		out.Dials += r.Dials
		for _, res := range r.Results {
			key := fmt.Sprintf("%d\x00%s\x00%d\x00%x", res.Errno, res.Text, res.RespType, res.RespBody)
			i, ok := idx[key]
			if !ok {
				idx[key] = len(out.Results)
				res.Nodes = append([]string(nil), res.Nodes...)
				out.Results = append(out.Results, res)
				continue
			}
			out.Results[i].Nodes = append(out.Results[i].Nodes, res.Nodes...)
		}
	}
	return out
}

// ForwardHandler serves MsgForward on a daemon that hosts nodes: it answers for the nodes of
// the first group itself (Local, once per node, each with a freshly decoded body) and sends
// the rest of the subtree on with Broadcast.
type ForwardHandler struct {
	// Auth verifies the inner message's credential, as the server verifies a direct call. It
	// runs once per Forward, however many local nodes share the message.
	Auth Authenticator
	// Authorize, if set, vets the sender of the Forward itself (the hop before).
	Authorize func(req *Request) error
	// Local serves the inner request for one hosted node; req.Body is the decoded inner
	// message, req.Identity the inner sender.
	Local func(ctx context.Context, node string, req *Request) (any, error)
	// Signer signs the Forwards this daemon sends on.
	Signer Signer
	// Workers bounds the local nodes served at once (default 16).
	Workers int
	// WorkersFor, if set, overrides Workers for inner messages of type t when it returns
	// more than 0 (a message whose local answer waits on something shared, such as a
	// registration batch, needs more in flight to fill it).
	WorkersFor func(t MsgType) int
	// Seen, if set, is called once per Forward served (a debug counter).
	Seen func(f *Forward)
	// Drop, if set, names local nodes that do not answer (node emulation's dead nodes): they
	// take no worker, and are reported timed out when the Forward's budget ends, as a
	// forwarder reports a child that never answered.
	Drop func(node string) bool
}

// Serve answers one Forward. base is the daemon's life (the server's handler context ends
// after MessageTimeout, shorter than a deep subtree's budget).
func (h *ForwardHandler) Serve(base context.Context, req *Request) (any, error) {
	if h.Authorize != nil {
		if err := h.Authorize(req); err != nil {
			return nil, err
		}
	}
	f, ok := req.Body.(*Forward)
	if !ok {
		return nil, NewError(ErrnoUnexpectedMsg)
	}
	if err := f.Validate(); err != nil {
		return nil, Errorf(ErrnoSlurmError, "%v", err)
	}
	if h.Seen != nil {
		h.Seen(f)
	}
	budget := time.Duration(f.TimeoutMs) * time.Millisecond
	// Answer a little before the sender gives up, so a slow node costs its own result and not
	// the whole subtree's.
	ctx, cancel := context.WithTimeout(base, budget-budget/10)
	defer cancel()

	var remote *ForwardReply
	done := make(chan struct{})
	go func() {
		defer close(done)
		if len(f.Groups) > 1 {
			b := &Broadcast{Type: f.Type, Cred: f.Cred, Body: f.Body, TreeWidth: int(f.TreeWidth),
				HopTimeout: time.Duration(f.HopTimeoutMs) * time.Millisecond, Signer: h.Signer}
			remote = b.Send(ctx, f.Groups[1:])
		}
	}()
	local := h.serveLocal(ctx, req, f)
	<-done
	out := MergeReplies(local, remote)
	out.Forwards++
	return out, nil
}

// serveLocal answers for the nodes of the first group.
func (h *ForwardHandler) serveLocal(ctx context.Context, outer *Request, f *Forward) *ForwardReply {
	nodes := f.Groups[0].Nodes
	var dropped []string
	if h.Drop != nil {
		live := make([]string, 0, len(nodes))
		for _, n := range nodes {
			if h.Drop(n) {
				dropped = append(dropped, n)
			} else {
				live = append(live, n)
			}
		}
		nodes = live
	}
	rep := h.serveNodes(ctx, outer, f, nodes)
	if len(dropped) > 0 {
		<-ctx.Done()
		rep = MergeReplies(rep, &ForwardReply{Results: []ForwardResult{{Nodes: dropped, Errno: ErrnoSocketTimeout, Text: Strerror(ErrnoSocketTimeout)}}})
	}
	return rep
}

// serveNodes answers the inner message for nodes, Workers at a time.
func (h *ForwardHandler) serveNodes(ctx context.Context, outer *Request, f *Forward, nodes []string) *ForwardReply {
	if len(nodes) == 0 {
		return &ForwardReply{}
	}
	inner := &Request{Type: f.Type, ReqID: outer.ReqID, RemoteAddr: outer.RemoteAddr, Cred: f.Cred, RawBody: f.Body}
	if h.Auth != nil {
		id, err := h.Auth.Authenticate(ctx, inner)
		if err != nil {
			e := asError(err, ErrnoAuthentication)
			return &ForwardReply{Results: []ForwardResult{{Nodes: nodes, Errno: e.Errno, Text: e.Error()}}}
		}
		inner.Identity = id
	}
	results := make([]ForwardResult, len(nodes))
	work := make(chan int)
	var wg sync.WaitGroup
	workers := h.Workers
	if h.WorkersFor != nil {
		if w := h.WorkersFor(f.Type); w > 0 {
			workers = w
		}
	}
	if workers <= 0 {
		workers = 16
	}
	for range min(workers, len(nodes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = h.serveOne(ctx, inner, nodes[i])
			}
		}()
	}
	for i := range nodes {
		work <- i
	}
	close(work)
	wg.Wait()
	return MergeReplies(&ForwardReply{Results: results})
}

// serveOne runs Local for one node and turns its answer into a result.
func (h *ForwardHandler) serveOne(ctx context.Context, inner *Request, node string) (res ForwardResult) {
	res.Nodes = []string{node}
	if err := ctx.Err(); err != nil {
		return unreached(res.Nodes, err)
	}
	body, err := New(inner.Type)
	if err == nil {
		err = Unmarshal(inner.RawBody, body)
	}
	if err != nil {
		res.Errno, res.Text = ErrnoReceive, Strerror(ErrnoReceive)
		return res
	}
	r := *inner
	r.Body = body
	resp, err := h.callLocal(ctx, node, &r)
	if err != nil {
		e := asError(err, ErrnoSlurmError)
		res.Errno, res.Text = e.Errno, e.Error()
		return res
	}
	if resp == nil {
		return res
	}
	t, ok := TypeOf(resp)
	if !ok {
		res.Errno, res.Text = ErrnoSlurmError, Strerror(ErrnoSlurmError)
		return res
	}
	if t == MsgOK {
		return res
	}
	if res.RespBody, err = Marshal(resp); err != nil {
		res.Errno, res.Text = ErrnoSlurmError, Strerror(ErrnoSlurmError)
		return res
	}
	res.RespType = t
	return res
}

// callLocal runs Local, turning a panic into an error result as the server does for a
// direct call.
func (h *ForwardHandler) callLocal(ctx context.Context, node string, r *Request) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, Errorf(ErrnoSlurmError, "%s on %s: handler panicked: %v", r.Type, node, p)
		}
	}()
	return h.Local(ctx, node, r)
}

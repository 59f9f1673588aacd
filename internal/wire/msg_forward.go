package wire

import (
	"errors"
	"fmt"
)

// Broadcast messages: one request for many nodes, fanned out down a tree of width TreeWidth
// (Slurm's forward_t in the message header, and the ret_list each hop sends back). The
// controller sends a Forward to the head of each subtree; the head answers for its own
// nodes, sends each of its own subtrees' heads the rest of that subtree, and returns one
// ForwardReply for all of them.
//
// Targets travel grouped by address: one group is one slurmd, which may host thousands of
// emulated nodes and answers for all of them without calling itself. The tree is built over
// groups, not nodes.
//
// The inner message keeps its original sender's credential (Cred over BodyDigest(Body)), so
// each node verifies it as it would verify a direct call; the envelope of the Forward itself
// is signed by whoever sends that hop.

// ForwardGroup is the target nodes served at one address (one slurmd).
type ForwardGroup struct {
	Addr  string   `codec:"addr"`
	Nodes []string `codec:"nodes"`
}

// Forward carries an inner message to the nodes of Groups. Groups[0] is the receiver's own
// group (the sender dialed its address); the rest is the receiver's subtree, which it splits
// into at most TreeWidth subtrees.
type Forward struct {
	Groups    []ForwardGroup `codec:"groups"`
	TreeWidth uint16         `codec:"tree_width"`
	// HopTimeoutMs bounds one hop (Slurm: MessageTimeout per tree level).
	HopTimeoutMs uint32 `codec:"hop_timeout_ms"`
	// TimeoutMs is the receiver's budget for its whole subtree: the sender stops waiting for
	// the reply after it.
	TimeoutMs uint32 `codec:"timeout_ms"`
	// Type, Cred and Body are the inner message as its original sender encoded and signed it.
	Type MsgType `codec:"type"`
	Cred []byte  `codec:"cred"`
	Body []byte  `codec:"body"`
}

// ForwardResult is one outcome shared by Nodes: Errno 0 with the inner reply (RespType 0
// means MsgOK), or the error a node answered, or ErrnoConnection for nodes nobody reached.
type ForwardResult struct {
	Nodes    []string `codec:"nodes"`
	Errno    int32    `codec:"errno"`
	Text     string   `codec:"text,omitempty"`
	RespType MsgType  `codec:"resp_type,omitempty"`
	RespBody []byte   `codec:"resp_body,omitempty"`
}

// ForwardReply is the aggregated answer of a subtree: every target node appears in exactly
// one result. Forwards and Dials count the Forward requests handled and the connections
// opened in the subtree (debug counters tests and benchmarks read).
type ForwardReply struct {
	Results  []ForwardResult `codec:"results"`
	Forwards uint32          `codec:"forwards"`
	Dials    uint32          `codec:"dials"`
}

// RegistrationStatus asks a node to register with the controller again (Slurm's
// REQUEST_NODE_REGISTRATION_STATUS); the node answers MsgOK at once and registers in the
// background. NodeName is filled per node by the node's own slurmd when it arrives in a
// Forward.
type RegistrationStatus struct {
	NodeName string `codec:"node_name"`
}

// HealthCheck asks a node to run HealthCheckProgram (Slurm's REQUEST_HEALTH_CHECK); the node
// answers MsgOK at once and runs it in the background. NodeName is filled per node by the
// node's own slurmd when it arrives in a Forward.
type HealthCheck struct {
	NodeName string `codec:"node_name"`
}

// MaxForwardNodes bounds the target nodes of one Forward (a garbled or hostile request must
// not make a daemon allocate without limit).
const MaxForwardNodes = 1 << 20

// ErrBadForward reports a Forward that cannot be served.
var ErrBadForward = errors.New("invalid forward request")

// Validate checks what a receiver relies on: an inner message type that is registered and not
// itself a Forward, a tree width, timeouts, and non-empty groups of named nodes.
func (f *Forward) Validate() error {
	switch {
	case f.Type == 0 || f.Type == MsgForward:
		return fmt.Errorf("%w: inner message type %d", ErrBadForward, uint16(f.Type))
	case f.TreeWidth == 0:
		return fmt.Errorf("%w: tree width 0", ErrBadForward)
	case f.HopTimeoutMs == 0 || f.TimeoutMs == 0:
		return fmt.Errorf("%w: no timeout", ErrBadForward)
	case len(f.Groups) == 0:
		return fmt.Errorf("%w: no target", ErrBadForward)
	}
	if _, err := New(f.Type); err != nil {
		return fmt.Errorf("%w: %v", ErrBadForward, err)
	}
	total := 0
	for i, g := range f.Groups {
		if g.Addr == "" || len(g.Nodes) == 0 {
			return fmt.Errorf("%w: group %d has no address or no node", ErrBadForward, i)
		}
		for _, n := range g.Nodes {
			if n == "" {
				return fmt.Errorf("%w: empty node name in group %d", ErrBadForward, i)
			}
		}
		if total += len(g.Nodes); total > MaxForwardNodes {
			return fmt.Errorf("%w: more than %d nodes", ErrBadForward, MaxForwardNodes)
		}
	}
	return nil
}

// DecodeForward decodes and validates a Forward body.
func DecodeForward(b []byte) (*Forward, error) {
	f := new(Forward)
	if err := Unmarshal(b, f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadForward, err)
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// Unreached reports a result for nodes the message never reached (as opposed to nodes that
// answered with an error).
func (r *ForwardResult) Unreached() bool {
	switch r.Errno {
	case ErrnoConnection, ErrnoSend, ErrnoReceive, ErrnoSocketTimeout, ErrnoShutdown:
		return true
	}
	return false
}

func init() {
	Register(MsgForward, "REQUEST_FORWARD", func() any { return new(Forward) })
	Register(MsgForwardReply, "RESPONSE_FORWARD", func() any { return new(ForwardReply) })
	Register(MsgRegistrationStatus, "REQUEST_NODE_REGISTRATION_STATUS", func() any { return new(RegistrationStatus) })
	Register(MsgHealthCheck, "REQUEST_HEALTH_CHECK", func() any { return new(HealthCheck) })
}

package node

import (
	"context"

	"github.com/orbit-hpc/orbit/internal/rpcauth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// forwardWorkers bounds the hosted nodes a Forward serves at once: an emulating slurmd
// hosting thousands of nodes answers a broadcast with this many goroutines, not one per node.
const forwardWorkers = 16

// forwarder serves MsgForward (Slurm's message forwarding, forward.c): the controller's
// broadcasts (ping, registration request, terminate, signal) reach this slurmd as a Forward
// whose first group is this daemon's own nodes and whose rest is the subtree this daemon
// passes on, TreeWidth subtree heads at a time. The hosted nodes are answered here, each
// as a direct call would be, with no network call to this daemon itself.
//
// The Forward's sender must be root, SlurmUser or this daemon's user (the controller or
// another slurmd); the inner message keeps the controller's credential, verified once per
// Forward (its nonce is then remembered, so replaying it is refused like a replayed direct
// call), and each handler authorizes its inner sender as usual.
func (d *Daemon) forwarder() wire.HandlerFunc {
	h := &wire.ForwardHandler{
		Auth: rpcauth.Authenticator{V: d.verifier()},
		Authorize: func(req *wire.Request) error {
			if !d.privileged(req) {
				return wire.NewError(wire.ErrnoAccessDenied)
			}
			return nil
		},
		Local:   d.serveForwarded,
		Signer:  d.signer,
		Workers: forwardWorkers,
		Drop:    d.isDead, // emulate.go
		// A registration request waits for its batch (register_batch.go): serve enough
		// at once to fill every batch in flight.
		WorkersFor: func(t wire.MsgType) int {
			if t == wire.MsgRegistrationStatus {
				return registerSenders * registerBatchSize
			}
			return 0
		},
		Seen: func(f *wire.Forward) {
			d.log.Debug("forward", "type", f.Type, "nodes", len(f.Groups[0].Nodes), "subtree_groups", len(f.Groups)-1, "tree_width", f.TreeWidth)
		},
	}
	// d.ctx is set once Start has registered the handlers, before the first request.
	return func(_ context.Context, req *wire.Request) (any, error) { return h.Serve(d.ctx, req) }
}

// serveForwarded answers one forwarded message for one hosted node. Messages that name
// their node get the node's name here: the controller sends one body for every node.
func (d *Daemon) serveForwarded(ctx context.Context, node string, req *wire.Request) (any, error) {
	if d.nodes[node] == nil {
		return nil, errInvalidNode(node)
	}
	switch m := req.Body.(type) {
	case *wire.Ping:
		return d.handlePing(ctx, req)
	case *wire.RegistrationStatus:
		m.NodeName = node
		return d.handleRegistrationStatus(ctx, req)
	case *wire.TerminateJob:
		m.NodeName = node
		return d.handleTerminate(ctx, req)
	case *wire.SignalJob:
		m.NodeName = node
		return d.handleSignal(ctx, req)
	case *wire.HealthCheck:
		m.NodeName = node
		return d.handleHealthCheck(ctx, req)
	case *wire.StepTimeLimit:
		m.NodeName = node
		return d.handleStepTimeLimit(ctx, req) // step_time_limit.go
	}
	return nil, wire.NewError(wire.ErrnoUnexpectedMsg)
}

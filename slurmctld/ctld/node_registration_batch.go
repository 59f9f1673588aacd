package ctld

import (
	"context"
	"errors"
	"sync"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Registration storms (issue 9): a slurmd emulating thousands of nodes registers them in
// batches (wire.NodeRegistrationBatch), one call per batch. Each registration of a batch is
// taken exactly as a single MsgNodeRegistration is (handleNodeRegistration), by a bounded
// number of workers at once: their state changes then share the store's group commits
// instead of waiting one fsync each, and the controller holds one connection per batch
// rather than one per node.

// registrationBatchWorkers bounds the registrations of one batch taken at once.
const registrationBatchWorkers = 64

// handleRegisterBatch serves MsgRegisterBatch: the same authorization as a single
// registration (the sender must be privileged; each registration checks it again), one
// result per registration, in order.
func (c *Controller) handleRegisterBatch(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	b := req.Body.(*wire.NodeRegistrationBatch)
	if len(b.Nodes) > wire.MaxRegistrationBatch {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "registration batch of %d nodes exceeds %d", len(b.Nodes), wire.MaxRegistrationBatch)
	}
	out := &wire.NodeRegistrationBatchReply{Results: make([]wire.NodeRegistrationResult, len(b.Nodes))}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(registrationBatchWorkers, len(b.Nodes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				one := *req
				one.Type, one.Body = wire.MsgNodeRegistration, &b.Nodes[i]
				resp, err := c.handleNodeRegistration(ctx, &one)
				res := &out.Results[i]
				if err != nil {
					e := cErr(err)
					res.Errno, res.Text = e.Errno, e.Error()
					continue
				}
				if r, ok := resp.(*wire.NodeRegistrationReply); ok && r != nil {
					res.Reply = *r
				}
			}
		}()
	}
	for i := range b.Nodes {
		work <- i
	}
	close(work)
	wg.Wait()
	return out, nil
}

// cErr is err as the wire error a caller would have received.
func cErr(err error) *wire.Error {
	var we *wire.Error
	if errors.As(err, &we) {
		return we
	}
	return wire.Errorf(wire.ErrnoSlurmError, "%v", err)
}

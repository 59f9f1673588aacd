package node

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Registration storms (issue 9). A slurmd emulating thousands of nodes registers them in
// batches (wire.NodeRegistrationBatch): at start, and when the controller's sweep asks every
// node to register again (after a controller restart), the forwarded requests, one per
// node, are gathered into batches here instead of each opening its own connection. At most
// registerSenders batches are in flight, each on its own reused connection, so a storm costs
// the controller a handful of connections whatever the number of nodes.

// registerBatchSize bounds the registrations of one batch (well under
// wire.MaxRegistrationBatch, and small enough that a batch is taken within MessageTimeout).
const registerBatchSize = 256

// registerSenders is the number of batches in flight at once.
const registerSenders = 4

// regRequest is one node waiting for its registration to be taken.
type regRequest struct {
	node string
	done chan error // buffered: the sender never blocks on a waiter that gave up
}

// regQueue gathers registrations into batches.
type regQueue struct {
	d    *Daemon
	reqs chan regRequest
}

// startRegQueue starts the batch senders; they stop with the daemon.
func (d *Daemon) startRegQueue() {
	q := &regQueue{d: d, reqs: make(chan regRequest, registerBatchSize*registerSenders)}
	d.regs = q
	for range registerSenders {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			q.sender()
		}()
	}
}

// register queues node's registration and waits until the controller has taken it (nil),
// refused it, or ctx ends.
func (q *regQueue) register(ctx context.Context, node string) error {
	r := regRequest{node: node, done: make(chan error, 1)}
	select {
	case q.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sender sends batches: it waits for one request, then takes whatever else is queued (up
// to registerBatchSize) after a short gathering pause.
func (q *regQueue) sender() {
	d := q.d
	var c *wire.Client
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for {
		var batch []regRequest
		select {
		case <-d.ctx.Done():
			return
		case r := <-q.reqs:
			batch = append(batch, r)
		}
		gather := time.NewTimer(2 * time.Millisecond)
	fill:
		for len(batch) < registerBatchSize {
			select {
			case r := <-q.reqs:
				batch = append(batch, r)
			case <-gather.C:
				break fill
			}
		}
		gather.Stop()
		var errs []error
		c, errs = d.sendRegBatch(c, batch)
		for i, r := range batch {
			r.done <- errs[i]
		}
	}
}

// sendRegBatch sends one batch on c (dialling when c is nil or broken) and returns the
// connection to reuse and one outcome per request. The jobs the controller no longer knows
// on a node are terminated there, as after a single registration.
func (d *Daemon) sendRegBatch(c *wire.Client, batch []regRequest) (*wire.Client, []error) {
	errs := make([]error, len(batch))
	fail := func(err error) (*wire.Client, []error) {
		for i := range errs {
			errs[i] = err
		}
		return nil, errs
	}
	m := &wire.NodeRegistrationBatch{Nodes: make([]wire.NodeRegistration, len(batch))}
	for i, r := range batch {
		m.Nodes[i] = *d.registration(r.node)
	}
	var err error
	reused := c != nil
	if c == nil {
		if c, err = d.dialController(); err != nil {
			return fail(err)
		}
	}
	if d.singleRegs.Load() {
		return d.sendRegSingly(c, batch)
	}
	reply := new(wire.NodeRegistrationBatchReply)
	err = d.callBatch(c, m, reply)
	var we *wire.Error
	answered := errors.As(err, &we) && errors.Unwrap(we) == nil
	if err != nil && reused && !answered {
		// The kept connection may lead to a controller that has since restarted (the storm
		// this batch belongs to is that restart's): registering is safe to repeat, so dial
		// again once.
		c.Close()
		if c, err = d.dialController(); err != nil {
			return fail(err)
		}
		reply = new(wire.NodeRegistrationBatchReply)
		err = d.callBatch(c, m, reply)
		answered = errors.As(err, &we) && errors.Unwrap(we) == nil
	}
	if err != nil {
		if answered && we.Errno == wire.ErrnoUnexpectedMsg {
			// A controller without the batch message: one registration per node, as
			// before, from now on.
			d.singleRegs.Store(true)
			return d.sendRegSingly(c, batch)
		}
		c.Close()
		return fail(err)
	}
	if len(reply.Results) != len(batch) {
		c.Close()
		return fail(errors.New("slurmd: registration batch answered for the wrong number of nodes"))
	}
	for i, res := range reply.Results {
		if res.Errno != 0 {
			errs[i] = wire.Errorf(res.Errno, "%s", res.Text)
			continue
		}
		reg := &m.Nodes[i]
		for _, job := range res.Reply.TerminateJobs {
			if slices.Contains(reg.RunningJobs, job) {
				d.log.Info("controller does not know job as running here; terminating", "node", reg.NodeName, "job", job)
				d.terminate(reg.NodeName, job, false, false, false)
			}
		}
	}
	return c, errs
}

// callBatch makes one batch call on c, bounded by MessageTimeout.
func (d *Daemon) callBatch(c *wire.Client, m *wire.NodeRegistrationBatch, reply *wire.NodeRegistrationBatchReply) error {
	ctx, cancel := context.WithTimeout(d.ctx, d.timeout)
	defer cancel()
	return c.Call(ctx, wire.MsgRegisterBatch, m, reply)
}

// sendRegSingly registers the nodes of batch one call each on c (registerOne).
func (d *Daemon) sendRegSingly(c *wire.Client, batch []regRequest) (*wire.Client, []error) {
	errs := make([]error, len(batch))
	for i, r := range batch {
		var err error
		if c, err = d.registerOne(c, r.node); err != nil {
			errs[i] = err
		}
	}
	return c, errs
}

// registerAllBatched registers every hosted node at start through the batch queue, each
// retried with backoff until it succeeds or the daemon stops; at most registerSenders ×
// registerBatchSize registrations wait at once.
func (d *Daemon) registerAllBatched() {
	sem := make(chan struct{}, registerSenders*registerBatchSize)
	var wg sync.WaitGroup
	for _, name := range d.order {
		if d.isDead(name) {
			continue // emulate.go: a dead node registers when the controller asks, once it answers
		}
		select {
		case sem <- struct{}{}:
		case <-d.ctx.Done():
		}
		if d.ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			backoff := 100 * time.Millisecond
			for d.ctx.Err() == nil {
				err := d.regs.register(d.ctx, name)
				if err == nil {
					return
				}
				d.log.Debug("registration failed, retrying", "node", name, "err", err, "delay", backoff)
				select {
				case <-d.ctx.Done():
				case <-time.After(backoff):
				}
				backoff = min(2*backoff, 10*time.Second)
			}
		}()
	}
	wg.Wait()
}

// bootTimeOnce is bootTime read once: it cannot change while the daemon runs, and a storm
// would read /proc/stat once per node.
var bootTimeOnce = sync.OnceValue(bootTime)

// spoolScan remembers the spool directories last seen holding no job directory, with their
// modification time: a storm re-registers thousands of idle emulated nodes, and one stat
// then replaces listing each one's directory tree (slurmstepd creates its job directory in
// the spool, which changes the spool's time, so a new step is never missed).
type spoolScan struct {
	mu    sync.Mutex
	empty map[string]time.Time
}

var spools = spoolScan{empty: map[string]time.Time{}}

// spoolJobs is runningJobs(spool), skipping the listing of a spool unchanged since it was
// last seen empty.
func spoolJobs(spool string) []uint32 {
	fi, err := os.Stat(spool)
	if err != nil {
		return runningJobs(spool)
	}
	spools.mu.Lock()
	seen, ok := spools.empty[spool]
	spools.mu.Unlock()
	if ok && seen.Equal(fi.ModTime()) {
		return nil
	}
	jobs := runningJobs(spool)
	if ents, err := os.ReadDir(spool); err == nil && !slices.ContainsFunc(ents, func(e os.DirEntry) bool {
		return strings.HasPrefix(e.Name(), "job")
	}) {
		spools.mu.Lock()
		spools.empty[spool] = fi.ModTime()
		spools.mu.Unlock()
	}
	return jobs
}

package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrOutcomeUnknown is returned (wrapping the context's error) when a Commit's context ends
// after its batch was queued. The writer does not look at callers' contexts — a queued batch
// is committed in its turn even if nobody waits for it any more — so the batch may or may not
// be durable: the caller must treat the outcome as unknown (for a job submission: do not tell
// the user "failed", since the job may exist after a restart; do not tell them its id either).
// A context that ends before the batch is queued returns the plain context error instead, and
// then nothing of the batch is ever written.
var ErrOutcomeUnknown = errors.New("store: commit outcome unknown")

// Pending is a queued batch. Its outcome is known once Done is closed.
type Pending struct {
	batch *Batch
	done  chan struct{}
	err   error // written by the writer before done is closed
}

// Done is closed when the batch is durable or has failed.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Wait blocks until the batch is durable (nil) or has failed (its error), or until ctx ends:
// then it returns ErrOutcomeUnknown wrapping ctx.Err(), and the batch may still commit.
func (p *Pending) Wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	default:
	}
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return fmt.Errorf("%w: %w", ErrOutcomeUnknown, ctx.Err())
	}
}

// Commit queues b and returns once it is durable: its transaction is committed and fsync'd,
// so it survives kill -9 and power loss. Batches commit in the order they were queued (FIFO),
// each atomically. A nil error is the only "durable"; see ErrOutcomeUnknown for a context that
// ends while waiting.
func (s *Store) Commit(ctx context.Context, b *Batch) error {
	p, err := s.Enqueue(ctx, b)
	if err != nil {
		return err
	}
	return p.Wait(ctx)
}

// Enqueue queues b for the writer and returns without waiting for durability. The order of
// Enqueue calls is the commit order: a controller that changes its memory under a lock can
// enqueue under that lock, so disk order equals memory order, and wait outside it, so the
// waits of many requests share one group commit. Enqueue blocks only while the queue is full;
// if ctx ends then, it returns ctx.Err() and b is not queued. An invalid batch (see Batch) or
// a closed Store is refused at once.
func (s *Store) Enqueue(ctx context.Context, b *Batch) (*Pending, error) {
	if b == nil {
		return nil, errors.New("store: nil batch")
	}
	if b.err != nil {
		return nil, b.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &Pending{batch: b, done: make(chan struct{})}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	select {
	case s.queue <- p:
		return p, nil
	default:
	}
	select {
	case s.queue <- p:
		return p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run is the writer goroutine: it takes the first waiting batch, gathers whatever else is
// already queued (up to MaxGroupBatches), commits them as one transaction, hands the group
// to the syncer (group.go's syncLoop) and repeats. It never waits for more batches to
// arrive: a lone commit pays no added latency.
//
// It does wait for the syncer, though: at most unsyncedGroups committed groups may wait for
// their fsync (one being synced, one queued behind it). A group written while two are ahead
// of it would only wait for the fsync after theirs anyway, so holding it back costs nothing,
// and the batches that arrive meanwhile join it. Without that bound a busy writer commits a
// group of one or two batches every few hundred microseconds, each transaction rewriting the
// same table and index pages into the log, and the fsyncs slow down under that I/O.
func (s *Store) run() {
	toSync := make(chan written, unsyncedGroups)
	synced := make(chan struct{})
	slots := make(chan struct{}, unsyncedGroups)
	go s.syncLoop(toSync, slots, synced)
	defer func() {
		close(toSync)
		<-synced
		close(s.done)
	}()
	for {
		p, ok := <-s.queue
		if !ok {
			return
		}
		slots <- struct{}{} // freed by the syncer once a group ahead is on disk
		// A fresh slice: the syncer holds the previous group until its fsync.
		group := make([]*Pending, 0, min(len(s.queue)+1, s.opts.MaxGroupBatches))
		group = append(group, p)
	fill:
		for len(group) < s.opts.MaxGroupBatches {
			select {
			case p, ok := <-s.queue:
				if !ok {
					break fill // closed: commit this group, the next receive returns
				}
				group = append(group, p)
			default:
				break fill
			}
		}
		if !s.commitGroup(group, toSync) {
			<-slots // nothing went to the syncer
		}
	}
}

// unsyncedGroups is how many committed groups may wait for their fsync at once (run).
const unsyncedGroups = 2

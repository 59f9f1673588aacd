package scheduler

import (
	"context"
	"errors"
)

// ErrResync is returned by Update when a plugin's mirror cannot take a delta (a gap in Seq, a
// job it does not know): the controller answers with a full Sync.
var ErrResync = errors.New("scheduler: state out of sync; full resync needed")

// Scheduler is what a plugin implements. The controller calls it from one goroutine, in
// order: Sync once (and again after ErrResync or a plugin restart), then any number of
// Update and Schedule calls. Schedule must not block on anything but computation: the
// controller gives each call a deadline and restarts a plugin that misses it.
//
// Implementations keep their own mirror of the state; Schedule computes a plan from that
// mirror at the given time and must not assume the plan was applied until later deltas say
// so (a started job arrives as a JobRunning update).
type Scheduler interface {
	Sync(ctx context.Context, s State) error
	Update(ctx context.Context, d Delta) error
	Schedule(ctx context.Context, now int64) (Plan, error)
}

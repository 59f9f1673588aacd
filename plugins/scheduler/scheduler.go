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

// UpdateScheduler is a Scheduler that takes a delta and makes a plan in one call: Update,
// then Schedule if Update succeeded. The host side of a plugin process (Client) is one, so
// that a scheduling cycle costs one round trip to the plugin, not two; a plugin author
// implements Scheduler only.
type UpdateScheduler interface {
	UpdateSchedule(ctx context.Context, d Delta, now int64) (Plan, error)
}

// UpdateAndSchedule sends d to s and asks it for a plan at now, in one call when s is an
// UpdateScheduler. An error may come from either step: ErrResync asks for a Sync.
func UpdateAndSchedule(ctx context.Context, s Scheduler, d Delta, now int64) (Plan, error) {
	if us, ok := s.(UpdateScheduler); ok {
		return us.UpdateSchedule(ctx, d, now)
	}
	if err := s.Update(ctx, d); err != nil {
		return Plan{}, err
	}
	return s.Schedule(ctx, now)
}

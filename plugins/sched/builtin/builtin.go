package builtin

import (
	"context"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Builtin is the sched/builtin plugin.
type Builtin struct {
	m        scheduler.Mirror
	params   scheduler.Params
	lastFull int64 // when the whole queue was last tested (sched_interval)
}

var _ scheduler.Scheduler = (*Builtin)(nil)

// New is sched/builtin for cfg. Bad SchedulerParameters values fall back to Slurm's defaults,
// as slurmctld does (it logs them; sched/backfill's New reports them).
func New(cfg scheduler.Config) scheduler.Scheduler {
	p, _ := scheduler.ParseParams(cfg.SchedulerParameters)
	return &Builtin{params: p, lastFull: -1}
}

// Sync replaces the mirror.
func (b *Builtin) Sync(_ context.Context, s scheduler.State) error {
	b.m.Sync(s)
	return nil
}

// Update applies a delta to the mirror (ErrResync on a gap).
func (b *Builtin) Update(_ context.Context, d scheduler.Delta) error { return b.m.Update(d) }

// Schedule runs one main pass at now.
func (b *Builtin) Schedule(_ context.Context, now int64) (scheduler.Plan, error) {
	r := Main(Queue(&b.m), b.m.Partition, b.m.Nodes(), b.m.Reservations(), now, PoolOf(&b.m), b.Depth(now))
	return scheduler.Plan{
		Seq:     b.m.Seq(),
		Starts:  r.Starts,
		Reasons: r.Reasons,
		Stats:   scheduler.CycleStats{JobsTested: uint32(r.Tested), DepthReached: boolCount(r.DepthReached)},
	}, nil
}

// Depth is the queue depth of a main pass at now: the whole queue once every sched_interval
// (and on the first pass), default_queue_depth jobs otherwise, as Slurm's schedule() does.
func (b *Builtin) Depth(now int64) int {
	return MainDepth(b.params, &b.lastFull, now)
}

// MainDepth is Depth for any plugin running Main: it updates *lastFull when it grants a full
// pass.
func MainDepth(p scheduler.Params, lastFull *int64, now int64) int {
	if *lastFull < 0 || (p.SchedInterval > 0 && now-*lastFull >= int64(p.SchedInterval)) {
		*lastFull = now
		return 0
	}
	return p.DefaultQueueDepth
}

func boolCount(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

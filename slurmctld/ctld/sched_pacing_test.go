package ctld_test

import (
	"math"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// schedCycles is sdiag's count of main scheduler cycles.
func (f *fixture) schedCycles() uint32 {
	f.t.Helper()
	rep := new(wire.StatsReply)
	if err := f.call(0, wire.MsgStats, &wire.StatsRequest{}, rep); err != nil {
		f.t.Fatalf("stats: %v", err)
	}
	return rep.SchedCycleCount
}

// tickCycles bounds the cycles the periodic pass (every second in tests) may have run in d,
// however the machine's load stretched it.
func tickCycles(d time.Duration) uint32 {
	return uint32(math.Ceil(d.Seconds())) + 1
}

// TestSchedPacing_HeldSubmitsNeedNoCycle: held jobs cannot start, so submitting them wakes no
// scheduling cycle; only the periodic pass runs meanwhile.
func TestSchedPacing_HeldSubmitsNeedNoCycle(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{})
	d := script("true")
	d.Hold = true
	f.mustSubmit(d) // the first cycles (start-up) are behind us once this is durable
	before, start := f.schedCycles(), time.Now()
	for range 40 {
		f.mustSubmit(d)
	}
	took := time.Since(start)
	if got := f.schedCycles() - before; got > tickCycles(took) {
		t.Fatalf("40 held submits in %v ran %d scheduling cycles; want only the periodic ones (at most %d)", took, got, tickCycles(took))
	}
}

// TestSchedPacing_DeferredBurst: with SchedulerParameters=defer and a long batch_sched_delay
// a burst of submits is scheduled by one cycle (the first submit's), not one each; the jobs
// still get their pending reasons from it and the periodic pass.
func TestSchedPacing_DeferredBurst(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Extra: "SchedulerParameters=defer,batch_sched_delay=3600\n"})
	f.mustSubmit(script("true"))
	before, start := f.schedCycles(), time.Now()
	var ids []uint32
	for range 40 {
		ids = append(ids, f.mustSubmit(script("true")))
	}
	took := time.Since(start)
	if got := f.schedCycles() - before; got > tickCycles(took)+1 {
		t.Fatalf("40 deferred submits in %v ran %d scheduling cycles; want at most %d", took, got, tickCycles(took)+1)
	}
	// No node registered: every job waits for resources, told so by a (periodic) cycle.
	f.waitReason(ids[len(ids)-1], states.Reason(f.job(ids[0]).Reason))
}

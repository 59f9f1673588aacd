package backfill

import (
	"context"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// fakeClock is a wall clock that moves one second each time it is read, so that how far a
// pass gets before bf_yield_interval or bf_max_time does not depend on the machine.
func fakeClock() func() time.Time {
	t := time.Unix(0, 0)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

// yieldState: n1 busy for an hour; jobs 2 and 3 need both nodes and get reservations; job 4
// (30 minutes, one node) fits the hole on n2 before them and is backfilled, if the pass
// reaches it.
func yieldState(params string) (*Backfill, scheduler.State) {
	s := holeState(job(3, 90, 2, 4, 60), job(4, 10, 1, 4, 30))
	s.Config.SchedulerParameters = params
	sc, err := New(s.Config)
	if err != nil {
		panic(err)
	}
	b := sc.(*Backfill)
	b.clock = fakeClock()
	_ = b.Sync(context.Background(), s)
	return b, s
}

func mustSchedule(t *testing.T, b *Backfill, now int64) scheduler.Plan {
	t.Helper()
	p, err := b.Schedule(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// With bf_yield_interval at 2.5 s of (fake) work, a pass looks at two jobs per call and
// yields. A job submitted meanwhile changes the state: without bf_continue the pass ends
// there (one sdiag cycle of depth 2) and job 4 is not backfilled; with bf_continue it goes
// on at job 4, which starts in the hole.
func TestBackfill_ContinueAfterYield(t *testing.T) {
	for _, cont := range []bool{false, true} {
		params := "bf_interval=30,bf_max_time=3600,bf_yield_interval=2500000"
		if cont {
			params += ",bf_continue"
		}
		b, _ := yieldState(params)
		p := mustSchedule(t, b, t0)
		if p.Stats.Backfill || len(p.Starts) != 0 || len(p.Reservations) != 2 {
			t.Fatalf("%s: first call should yield after reserving jobs 2 and 3: %+v", params, p)
		}
		newJob := job(9, 1, 1, 4, 600)
		newJob.SubmitTime = t0 + 5
		if err := b.Update(context.Background(), scheduler.Delta{Seq: 2, Now: t0 + 5, Jobs: []scheduler.Job{newJob}}); err != nil {
			t.Fatal(err)
		}
		p = mustSchedule(t, b, t0+5)
		if !p.Stats.Backfill {
			t.Fatalf("%s: the pass should end in the second call: %+v", params, p.Stats)
		}
		st := started(p, 4)
		if cont {
			// Job 9 is not in the list the pass began with (Slurm's job_queue): the next
			// pass looks at it.
			if st == nil || !st.Backfilled || p.Stats.Depth != 3 || p.Stats.DepthTry != 3 {
				t.Errorf("bf_continue: job 4 should be backfilled and the pass look at jobs 2, 3 and 4: starts %+v stats %+v", p.Starts, p.Stats)
			}
		} else {
			if st != nil || p.Stats.Depth != 2 {
				t.Errorf("no bf_continue: the pass should end at the change after 2 jobs: starts %+v stats %+v", p.Starts, p.Stats)
			}
			// The next pass (bf_interval later) starts again from the top and reaches job 4.
			_ = b.Update(context.Background(), scheduler.Delta{Seq: 3, Now: t0 + 35})
			p = mustSchedule(t, b, t0+35)
			if p.Stats.Backfill {
				t.Fatalf("the new pass should yield after 2 jobs again: %+v", p.Stats)
			}
			_ = b.Update(context.Background(), scheduler.Delta{Seq: 4, Now: t0 + 36})
			if p = mustSchedule(t, b, t0+36); started(p, 4) == nil || !p.Stats.Backfill {
				t.Errorf("unchanged state: the yielded pass goes on without bf_continue and starts job 4: %+v", p)
			}
		}
	}
}

// bf_max_time ends a pass (counted as a cycle) at its time even with jobs left; the next
// pass begins at the top of the queue again.
func TestBackfill_MaxTime(t *testing.T) {
	// The clock is read at the pass's start, at the call's start and before each job: the
	// fourth second is reached before job 4.
	b, _ := yieldState("bf_interval=1,bf_max_time=4,bf_yield_interval=10000000")
	p := mustSchedule(t, b, t0)
	if !p.Stats.Backfill || p.Stats.Depth != 2 || started(p, 4) != nil {
		t.Fatalf("bf_max_time=4 (1 s per clock read): pass should end after 2 jobs: starts %+v stats %+v", p.Starts, p.Stats)
	}
	_ = b.Update(context.Background(), scheduler.Delta{Seq: 2, Now: t0 + 1})
	if p = mustSchedule(t, b, t0+1); p.Stats.Depth != 2 || started(p, 4) != nil {
		t.Fatalf("the next pass starts from the top again: starts %+v stats %+v", p.Starts, p.Stats)
	}
}

// The cycle's figures: jobs looked at, jobs node-tested, and the records of Slurm's map.
func TestBackfill_CycleStats(t *testing.T) {
	s := holeState(job(3, 10, 1, 1, 30), job(4, 9, 1, 1, 30))
	s.Config.SchedulerParameters = "bf_interval=1,bf_max_job_user=2"
	p := schedule(t, s)
	// Job 4 is looked at but over bf_max_job_user: depth 3, tried 2. The map: one record,
	// split at job 2's reservation start (t0+1h) and end (t0+2h): 3 records. Running job 1
	// and backfilled job 3 do not have whole nodes and are not in Slurm's map.
	if !p.Stats.Backfill || p.Stats.Depth != 3 || p.Stats.DepthTry != 2 || p.Stats.TableSize != 3 {
		t.Fatalf("stats %+v, want Backfill, Depth 3, DepthTry 2, TableSize 3", p.Stats)
	}
	// An exclusive running job is in the map from its start: an empty first record, then
	// its end splits the window; job 2's reservation starts at that end.
	s = holeState()
	s.Jobs[0].Exclusive = true
	if p = schedule(t, s); p.Stats.TableSize != 4 {
		t.Fatalf("table size %d, want 4 (empty first record, job 1 until t0+1h, job 2, the rest)", p.Stats.TableSize)
	}
}

// TestBackfill_PriorityTier: two partitions over the same two nodes, one busy. The job of
// the higher-tier partition is reserved first though its priority is lower, and the hole
// goes to what fits beside its reservation.
func TestBackfill_PriorityTier(t *testing.T) {
	s := holeState()
	hi := s.Partitions[0]
	hi.Name, hi.PriorityTier = "hi", 2
	s.Partitions[0].PriorityTier = 1
	s.Partitions = append(s.Partitions, hi)
	low := job(3, 1, 2, 4, 60)
	low.Partition = "hi" // priority 1 < job 2's 100, but tier 2
	s.Jobs = append(s.Jobs, low)
	p := schedule(t, s)
	if len(p.Reservations) != 2 || p.Reservations[0].JobID != 3 || p.Reservations[0].StartTime != t0+3600 ||
		p.Reservations[1].JobID != 2 || p.Reservations[1].StartTime != resvEnd(t0+7200) {
		t.Fatalf("the tier-2 job should have the first reservation: %+v", p.Reservations)
	}
}

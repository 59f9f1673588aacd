package schedhost_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/plugins/sched/backfill"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
	"github.com/orbit-hpc/orbit/slurmctld/schedhost"
)

// Issue 6's cycle figure: one scheduling cycle with 10,000 pending jobs on 5,000 nodes, the
// delta of one new job plus Schedule, with sched/backfill linked in-process and over
// go-plugin. "main" cycles run the main pass only (bf_interval not yet due); "backfill"
// cycles advance the clock by bf_interval so every cycle also runs a backfill pass.
const (
	cycleNodes   = 5000
	cyclePending = 10000
	cycleRunning = 4000 // on the first nodes, so the queue is blocked and backfill has work
)

// cycleState is the cluster of the figure: nodes of 4 CPUs, running jobs with an hour left
// on most of them, and pending jobs of 1 to 64 nodes and 10 minutes to a day.
func cycleState() scheduler.State {
	s := scheduler.State{Seq: 1, Now: 1_000_000, Config: scheduler.Config{SchedulerType: "sched/backfill",
		SelectType: "select/cons_tres", SelectTypeParameters: "CR_CPU"}}
	names := make([]string, cycleNodes)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i+1)
		s.Nodes = append(s.Nodes, scheduler.Node{Name: names[i], CPUs: 4, RealMemory: 1000, Usable: true})
	}
	s.Partitions = []scheduler.Partition{{Name: "batch", Nodes: names, Up: true,
		MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite}}
	id := uint32(1)
	for i := 0; i < cycleRunning; i++ {
		s.Jobs = append(s.Jobs, scheduler.Job{ID: id, Partition: "batch", State: scheduler.JobRunning,
			Priority: 1, StartTime: s.Now - 600, TimeLimit: uint32(60 + i%120),
			MinNodes: 1, NumTasks: 4, CPUsPerTask: 1, Nodes: []string{names[i]}, CPUs: []uint32{4}})
		id++
	}
	for i := 0; i < cyclePending; i++ {
		nodes := uint32(1 << (i % 7)) // 1..64
		s.Jobs = append(s.Jobs, scheduler.Job{ID: id, UserID: uint32(1000 + i%50), Partition: "batch",
			State: scheduler.JobPending, Eligible: true, Priority: uint32(1_000_000 - i),
			SubmitTime: s.Now - int64(cyclePending-i), EligibleTime: s.Now - int64(cyclePending-i),
			TimeLimit: uint32(10 + (i*37)%1430), MinNodes: nodes, NumTasks: nodes * 4, CPUsPerTask: 1})
		id++
	}
	return s
}

func BenchmarkScheduleCycle10000(b *testing.B) {
	in := func(b *testing.B, params string) scheduler.Scheduler {
		s, err := backfill.New(scheduler.Config{SchedulerParameters: params})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	plugin := func(b *testing.B, _ string) scheduler.Scheduler {
		exe := testbin.Path(b, "plugins/cmd/sched_backfill")
		h, err := schedhost.Start(schedhost.Options{Type: "sched/backfill", ExtraDirs: []string{filepath.Dir(exe)}})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { h.Close() })
		return h
	}
	for _, where := range []struct {
		name string
		make func(*testing.B, string) scheduler.Scheduler
	}{{"inprocess", in}, {"goplugin", plugin}} {
		for _, pass := range []string{"main", "backfill"} {
			b.Run(where.name+"_"+pass, func(b *testing.B) {
				st := cycleState()
				if pass == "main" {
					st.Config.SchedulerParameters = "bf_interval=-1" // no backfill pass at all
				}
				sched := where.make(b, st.Config.SchedulerParameters)
				ctx := context.Background()
				if err := sched.Sync(ctx, st); err != nil {
					b.Fatal(err)
				}
				now, seq, next := st.Now, st.Seq, uint32(len(st.Jobs)+1)
				if _, err := sched.Schedule(ctx, now); err != nil { // the first backfill pass
					b.Fatal(err)
				}
				step := int64(1)
				if pass == "backfill" {
					step = 30 // bf_interval's default: every cycle is due a backfill pass
				}
				b.ResetTimer()
				for b.Loop() {
					now += step
					seq++
					d := scheduler.Delta{Seq: seq, Now: now, Jobs: []scheduler.Job{{ID: next, Partition: "batch",
						State: scheduler.JobPending, Eligible: true, Priority: 1, SubmitTime: now, EligibleTime: now,
						TimeLimit: 60, MinNodes: 2, NumTasks: 8, CPUsPerTask: 1}}}
					next++
					if err := sched.Update(ctx, d); err != nil {
						b.Fatal(err)
					}
					if _, err := sched.Schedule(ctx, now); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

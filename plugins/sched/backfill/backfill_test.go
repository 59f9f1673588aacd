package backfill

import (
	"context"
	"fmt"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

const t0 = 1_000_000

func cluster(n int, cpus uint32) scheduler.State {
	s := scheduler.State{Seq: 1, Now: t0, Config: scheduler.Config{SelectTypeParameters: "CR_CPU", SchedulerParameters: "bf_interval=1"}}
	p := scheduler.Partition{Name: "p", Up: true, MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("n%d", i)
		s.Nodes = append(s.Nodes, scheduler.Node{Name: name, CPUs: cpus, RealMemory: 1000, Usable: true})
		p.Nodes = append(p.Nodes, name)
	}
	s.Partitions = []scheduler.Partition{p}
	return s
}

func job(id, prio, nodes, cpusPerNode, minutes uint32) scheduler.Job {
	return scheduler.Job{ID: id, UserID: 1000, Partition: "p", Priority: prio, Eligible: true, SubmitTime: t0 - 100 + int64(id),
		EligibleTime: t0 - 100, TimeLimit: minutes, MinNodes: nodes, NumTasks: nodes * cpusPerNode, CPUsPerTask: 1, TasksPerNode: cpusPerNode}
}

func running(id uint32, nodes []string, cpus uint32, started int64, minutes uint32) scheduler.Job {
	j := job(id, 1, uint32(len(nodes)), cpus, minutes)
	j.State, j.StartTime, j.Nodes = scheduler.JobRunning, started, nodes
	for range nodes {
		j.CPUs = append(j.CPUs, cpus)
	}
	return j
}

func schedule(t *testing.T, s scheduler.State) scheduler.Plan {
	t.Helper()
	b, err := New(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	p, err := b.Schedule(context.Background(), s.Now)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func started(p scheduler.Plan, id uint32) *scheduler.Start {
	for i := range p.Starts {
		if p.Starts[i].JobID == id {
			return &p.Starts[i]
		}
	}
	return nil
}

// Two nodes; n1 busy for 60 more minutes. Job 2 needs both nodes, so it waits for n1 and
// reserves both from t0+1h. n2 is a hole until then.
func holeState(extra ...scheduler.Job) scheduler.State {
	s := cluster(2, 4)
	s.Jobs = append(s.Jobs, running(1, []string{"n1"}, 4, t0-3600, 120), job(2, 100, 2, 4, 60))
	s.Jobs = append(s.Jobs, extra...)
	return s
}

func TestBackfill_SmallJobFillsHole(t *testing.T) {
	p := schedule(t, holeState(job(3, 10, 1, 4, 30)))
	st := started(p, 3)
	if st == nil || !st.Backfilled || st.Nodes[0] != "n2" {
		t.Fatalf("job 3 (30 min, fits before t0+1h) not backfilled onto n2: %+v", p.Starts)
	}
	if len(p.Reservations) != 1 || p.Reservations[0].JobID != 2 || p.Reservations[0].StartTime != t0+3600 {
		t.Fatalf("reservation for job 2 at t0+3600 expected, got %+v", p.Reservations)
	}
	for _, r := range p.Reasons {
		if r.JobID == 2 && states.Reason(r.Reason) != states.WaitResources {
			t.Errorf("job 2 reason %v, want Resources", states.Reason(r.Reason))
		}
		if r.JobID == 3 {
			t.Errorf("started job 3 still has reason %v", states.Reason(r.Reason))
		}
	}
}

func TestBackfill_LongJobDoesNotDelay(t *testing.T) {
	p := schedule(t, holeState(job(3, 10, 1, 4, 90)))
	if st := started(p, 3); st != nil {
		t.Fatalf("job 3 (90 min) started and would delay job 2's reservation: %+v", st)
	}
	var r3 *scheduler.Reservation
	for i := range p.Reservations {
		if p.Reservations[i].JobID == 3 {
			r3 = &p.Reservations[i]
		}
	}
	if r3 == nil || r3.StartTime != resvEnd(t0+2*3600) {
		t.Fatalf("job 3 should be reserved after job 2's reservation ends (t0+7200 rounded down to bf_resolution): %+v", p.Reservations)
	}
}

// resvEnd is where a reservation ending at t ends in the backfill map: rounded down to
// bf_resolution (60 s by default), as Slurm's map books it.
func resvEnd(t int64) int64 { return t / 60 * 60 }

func TestBackfill_ReservationsOrdered(t *testing.T) {
	s := cluster(1, 4)
	s.Jobs = []scheduler.Job{running(1, []string{"n1"}, 4, t0, 10)}
	for id := uint32(2); id <= 5; id++ {
		s.Jobs = append(s.Jobs, job(id, 100-id, 1, 4, 10))
	}
	p := schedule(t, s)
	if len(p.Reservations) != 4 {
		t.Fatalf("want 4 reservations, got %+v", p.Reservations)
	}
	for i, r := range p.Reservations {
		want := resvEnd(t0 + 600*int64(i+1)) // behind the previous reservation
		if i == 0 {
			want = t0 + 600 // behind the running job: its true end
		}
		if r.JobID != uint32(i+2) || r.StartTime != want {
			t.Errorf("reservation %d: job %d at %d, want job %d at %d", i, r.JobID, r.StartTime, i+2, want)
		}
	}
}

// A job whose start is past bf_window gets that start time (squeue --start shows it) but
// no resources held for it, as Slurm's backfill: a long job may take the hole it would have
// protected.
func TestBackfill_Window(t *testing.T) {
	s := holeState(job(3, 10, 1, 4, 90))          // 90 minutes on n2: past job 2's start at t0+1h
	s.Config.SchedulerParameters = "bf_window=30" // job 2's start (1h away) is outside
	p := schedule(t, s)
	if len(p.Reservations) != 1 || p.Reservations[0].JobID != 2 || p.Reservations[0].StartTime != t0+3600 ||
		len(p.Reservations[0].Nodes) != 0 {
		t.Fatalf("job 2 past bf_window: reservations %+v, want its start t0+1h and no nodes", p.Reservations)
	}
	if st := started(p, 3); st == nil || st.Nodes[0] != "n2" {
		t.Fatalf("job 3 not started on n2 (nothing is held for job 2): %+v", p.Starts)
	}
}

func TestBackfill_MaxJobUser(t *testing.T) {
	s := holeState(job(3, 10, 1, 1, 30), job(4, 9, 1, 1, 30))
	s.Config.SchedulerParameters = "bf_max_job_user=2"
	p := schedule(t, s)
	if started(p, 3) == nil || started(p, 4) != nil {
		t.Fatalf("bf_max_job_user=2 should test jobs 2 and 3 only: %+v", p.Starts)
	}
}

func TestBackfill_Interval(t *testing.T) {
	s := holeState()
	s.Config.SchedulerParameters = "" // bf_interval=30
	b, _ := New(s.Config)
	_ = b.Sync(context.Background(), s)
	if p, _ := b.Schedule(context.Background(), t0); len(p.Reservations) != 1 {
		t.Fatalf("first call runs a backfill pass: %+v", p)
	}
	_ = b.Update(context.Background(), scheduler.Delta{Seq: 2, Now: t0 + 10, Jobs: []scheduler.Job{job(3, 10, 1, 4, 30)}})
	if p, _ := b.Schedule(context.Background(), t0+10); started(p, 3) != nil {
		t.Fatalf("backfill ran again before bf_interval: %+v", p.Starts)
	}
	_ = b.Update(context.Background(), scheduler.Delta{Seq: 3, Now: t0 + 30})
	if p, _ := b.Schedule(context.Background(), t0+30); started(p, 3) == nil {
		t.Fatalf("backfill did not run after bf_interval: %+v", p.Starts)
	}
}

func TestNew_BadParams(t *testing.T) {
	for _, bad := range []string{"bf_interval=0", "bf_window=abc", "bf_resolution=99999", "bf_max_job_test=0"} {
		if _, err := New(scheduler.Config{SchedulerParameters: bad}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestBackfill_MaxJobTest: with bf_max_job_test=1 only job 2 (blocked, reserved) is tested;
// job 3, which would fill the hole, is past the limit and not looked at.
func TestBackfill_MaxJobTest(t *testing.T) {
	s := holeState(job(3, 10, 1, 4, 30))
	s.Config.SchedulerParameters = "bf_interval=1,bf_max_job_test=1"
	p := schedule(t, s)
	if started(p, 3) != nil || len(p.Reservations) != 1 || p.Reservations[0].JobID != 2 {
		t.Fatalf("bf_max_job_test=1: starts %+v, reservations %+v; want job 2 reserved only", p.Starts, p.Reservations)
	}
	s.Config.SchedulerParameters = "bf_interval=1,bf_max_job_test=2"
	if p := schedule(t, s); started(p, 3) == nil {
		t.Fatalf("bf_max_job_test=2 should reach job 3: %+v", p.Starts)
	}
}

// A job that may run in two partitions is backfilled where it can start first: not in q,
// whose only node n1 is busy for another hour, but now in p's hole on n2.
func TestBackfill_SeveralPartitions(t *testing.T) {
	s := holeState()
	s.Partitions = append(s.Partitions, scheduler.Partition{Name: "q", Nodes: []string{"n1"}, Up: true, MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite})
	j := job(3, 10, 1, 4, 30)
	j.Partition, j.Partitions = "q", []string{"q", "p"}
	s.Jobs = append(s.Jobs, j)
	p := schedule(t, s)
	st := started(p, 3)
	if st == nil || !st.Backfilled || st.Partition != "p" || st.Nodes[0] != "n2" {
		t.Fatalf("job 3 (q or p) not backfilled into p on n2: %+v", p.Starts)
	}
}

// A reservation holds its nodes whole, as Slurm's map books node bitmaps: job 3 would fit
// beside job 2's reserved CPUs, but not on a node reserved for job 2, so it waits until
// job 2's reservation ends (rounded down to bf_resolution) instead of starting now.
func TestBackfill_ReservationHoldsWholeNodes(t *testing.T) {
	s := cluster(1, 4)
	s.Jobs = []scheduler.Job{running(1, []string{"n1"}, 2, t0, 10), job(2, 100, 1, 3, 10), job(3, 10, 1, 1, 30)}
	p := schedule(t, s)
	if st := started(p, 3); st != nil {
		t.Fatalf("job 3 started beside job 2's reservation on n1: %+v", st)
	}
	want := []scheduler.Reservation{{JobID: 2, StartTime: t0 + 600, Nodes: []string{"n1"}},
		{JobID: 3, StartTime: resvEnd(t0 + 1200), Nodes: []string{"n1"}}}
	if fmt.Sprint(p.Reservations) != fmt.Sprint(want) {
		t.Fatalf("reservations %+v, want %+v", p.Reservations, want)
	}
	if fmt.Sprint(p.BackfillEvaluated) != "[2 3]" {
		t.Errorf("BackfillEvaluated %v, want [2 3]", p.BackfillEvaluated)
	}
}

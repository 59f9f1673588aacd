package main

import (
	"testing"

	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

const t0 = 1_000_000

// oneNode is a 4-CPU node running job 1 (all CPUs, 10 minutes), with job 2 (4 CPUs, an
// hour) submitted before job 3 (4 CPUs, 5 minutes): only one of them fits when job 1 ends.
func oneNode() scheduler.State {
	part := scheduler.Partition{Name: "debug", Nodes: []string{"n1"}, Up: true, MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite}
	job := func(id uint32, minutes uint32) scheduler.Job {
		return scheduler.Job{ID: id, UserID: 1000, Partition: "debug", Priority: 100, Eligible: true,
			SubmitTime: t0 + int64(id), EligibleTime: t0 + int64(id), TimeLimit: minutes, MinNodes: 1, NumTasks: 4, CPUsPerTask: 1}
	}
	run := job(1, 10)
	run.State, run.StartTime, run.Nodes, run.CPUs = scheduler.JobRunning, t0, []string{"n1"}, []uint32{4}
	return scheduler.State{Seq: 1, Now: t0 + 10, Config: scheduler.Config{SelectTypeParameters: "CR_CPU"},
		Nodes:      []scheduler.Node{{Name: "n1", CPUs: 4, RealMemory: 1000, Usable: true}},
		Partitions: []scheduler.Partition{part},
		Jobs:       []scheduler.Job{run, job(2, 60), job(3, 5)}}
}

// firstStarted runs the state through the harness until job 1 has ended and returns the
// job started then.
func firstStarted(t *testing.T, s scheduler.Scheduler) uint32 {
	t.Helper()
	h, err := scheduler.NewHarness(s, oneNode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Cycle(); err != nil || len(h.Started) != 0 {
		t.Fatalf("started %+v (err %v) while job 1 holds the node", h.Started, err)
	}
	if _, err := h.Advance(t0 + 600); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Cycle(); err != nil {
		t.Fatal(err)
	}
	if len(h.Rejected) > 0 || len(h.Started) != 1 {
		t.Fatalf("want one start after job 1, got %+v, rejected %v", h.Started, h.Rejected)
	}
	return h.Started[0].JobID
}

func TestSJF_ShortJobOvertakesLongOne(t *testing.T) {
	if got := firstStarted(t, &SJF{}); got != 3 {
		t.Errorf("sched/sjf started job %d, want the 5-minute job 3", got)
	}
	if got := firstStarted(t, builtin.New(scheduler.Config{})); got != 2 {
		t.Errorf("sched/builtin started job %d, want job 2, submitted first", got)
	}
}

func TestSJF_Order(t *testing.T) {
	jobs := []*scheduler.Job{
		{ID: 1, TimeLimit: scheduler.Infinite, Priority: 9},
		{ID: 2, TimeLimit: 30, Priority: 1},
		{ID: 3, TimeLimit: 30, Priority: 5},
		{ID: 4, TimeLimit: 5, Priority: 1},
	}
	var ids []uint32
	for _, j := range Order(jobs) {
		ids = append(ids, j.ID)
	}
	if want := []uint32{4, 3, 2, 1}; len(ids) != 4 || ids[0] != want[0] || ids[1] != want[1] || ids[2] != want[2] || ids[3] != want[3] {
		t.Errorf("order %v, want %v (limit, then priority; no limit last)", ids, want)
	}
}

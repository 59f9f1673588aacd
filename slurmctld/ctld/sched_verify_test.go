package ctld

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// idleScheduler plans nothing: the test drives verifyStart itself.
type idleScheduler struct{}

func (idleScheduler) Sync(context.Context, scheduler.State) error   { return nil }
func (idleScheduler) Update(context.Context, scheduler.Delta) error { return nil }
func (idleScheduler) Schedule(context.Context, int64) (scheduler.Plan, error) {
	return scheduler.Plan{}, nil
}

// verifyController is a controller (not serving) over idle 4-CPU nodes n1, n2 and n3 in
// partition debug (n3 also in partition other), with an in-process scheduler. It never listens,
// so the port in its slurm.conf is never used.
func verifyController(t *testing.T) *Controller {
	t.Helper()
	return idleController(t, TestConfig{Nodes: 2, CPUs: 4,
		Extra: "NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000\nPartitionName=other Nodes=n3 State=UP\n"})
}

// idleController is a controller (not serving) over tc's nodes, all idle, with an
// in-process scheduler that plans nothing.
func idleController(t *testing.T, tc TestConfig) *Controller {
	t.Helper()
	path, err := WriteTestConfig(t.TempDir(), 6817, tc)
	if err != nil {
		t.Fatal(err)
	}
	cfg, key := loadTest(t, path)
	c, err := New(Options{Config: cfg, Key: key, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Scheduler: idleScheduler{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.t.nodes {
		n.rec.State = uint32(states.NodeIdle)
	}
	return c
}

func pendingJob(id uint32) *jobRecord {
	return &jobRecord{JobID: id, Partition: "debug", State: uint32(states.JobPending), Priority: 100,
		TimeLimit: wire.Infinite, MinNodes: 1, NumTasks: 2, CPUsPerTask: 1, desc: packDesc(&wire.JobDesc{})}
}

func TestVerifyStart_RefusesWhatDoesNotHold(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(c *Controller, j *jobRecord)
		start scheduler.Start
		why   string // "" = accepted
	}{
		{"fits", nil, scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, ""},
		{"unknown node", nil, scheduler.Start{Nodes: []string{"nx"}, CPUs: []uint32{2}}, "unknown node nx"},
		{"other partition", func(c *Controller, _ *jobRecord) { c.t.parts["debug"].nodes = []string{"n1", "n2"} },
			scheduler.Start{Nodes: []string{"n3"}, CPUs: []uint32{2}}, "not in partition debug"},
		{"double booked", func(c *Controller, _ *jobRecord) { c.t.nodes["n1"].allocCPUs = 3 },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "over-allocated"},
		{"held", func(_ *Controller, j *jobRecord) { j.Priority = 0 },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "not eligible"},
		{"begin time", func(_ *Controller, j *jobRecord) { j.EligibleTime = 1 << 40 },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "not eligible"},
		{"running", func(_ *Controller, j *jobRecord) { j.State = uint32(states.JobRunning) },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "not pending"},
		{"too few CPUs", nil, scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{1}}, "job needs 2"},
		{"node twice", nil, scheduler.Start{Nodes: []string{"n1", "n1"}, CPUs: []uint32{1, 1}}, "named twice"},
		{"node drained", func(c *Controller, _ *jobRecord) { c.t.nodes["n2"].rec.State |= uint32(states.NodeDrain) },
			scheduler.Start{Nodes: []string{"n2"}, CPUs: []uint32{2}}, "node n2 is"},
		{"nodelist ignored", func(_ *Controller, j *jobRecord) { j.editDesc(func(d *wire.JobDesc) { d.ReqNodes = "n2" }) },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "requested node n2"},
		{"exclude ignored", func(_ *Controller, j *jobRecord) { j.editDesc(func(d *wire.JobDesc) { d.ExcNodes = "n1" }) },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "excluded"},
		{"exclusive partial", func(_ *Controller, j *jobRecord) { j.Exclusive = true },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{2}}, "exclusive job given 2"},
		{"exclusive on busy node", func(c *Controller, j *jobRecord) { j.Exclusive = true; c.t.nodes["n1"].jobs = 1 },
			scheduler.Start{Nodes: []string{"n1"}, CPUs: []uint32{4}}, "runs jobs"},
		{"mismatched lists", nil, scheduler.Start{Nodes: []string{"n1"}, CPUs: nil}, "CPU counts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := verifyController(t)
			c.mu.Lock()
			defer c.mu.Unlock()
			j := pendingJob(5)
			if tc.setup != nil {
				tc.setup(c, j)
			}
			c.t.jobs[j.JobID] = j
			tc.start.JobID = j.JobID
			_, a, err := c.verifyStart(tc.start, 100, c.inUse(), map[uint32]bool{})
			switch {
			case tc.why == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.why == "" && (len(a.nodes) != 1 || a.cpus[0] != 2):
				t.Fatalf("allocation %+v", a)
			case tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why)):
				t.Fatalf("verifyStart = %v, want an error containing %q", err, tc.why)
			}
		})
	}
}

// TestApplyPlan_CountsEarlierStarts: two starts that each fit alone but not together: the
// second is refused because the first was applied.
func TestApplyPlan_CountsEarlierStarts(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	a, b := pendingJob(5), pendingJob(6)
	a.NumTasks, b.NumTasks = 3, 3
	c.t.jobs[5], c.t.jobs[6] = a, b
	starts, _ := c.applyPlan(scheduler.Plan{Starts: []scheduler.Start{
		{JobID: 5, Nodes: []string{"n1"}, CPUs: []uint32{3}},
		{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{3}},
		{JobID: 5, Nodes: []string{"n2"}, CPUs: []uint32{3}},
	}}, sentState{}, 100)
	st5, st6 := c.t.jobs[5].state(), c.t.jobs[6].state()
	alloc := c.t.nodes["n1"].allocCPUs
	c.mu.Unlock()
	for _, s := range starts {
		s.p.Wait(context.Background())
	}
	if len(starts) != 1 || !st5.IsRunning() || !st6.IsPending() || alloc != 3 {
		t.Fatalf("starts=%d job5=%s job6=%s n1 alloc=%d; want only job 5 started with 3 CPUs", len(starts), st5, st6, alloc)
	}
}

// TestVerifyStart_WholeCores: on nodes of two cores of two threads a start is held to whole
// cores: under CR_CPU a one-CPU job still takes a core of the node, so a third such job is
// refused; under CR_Core the job's CPUs become its cores' whatever the plan said, and a
// --hint=nomultithread job given one core for two tasks is refused.
func TestVerifyStart_WholeCores(t *testing.T) {
	for _, mode := range []string{"CR_CPU", "CR_Core"} {
		t.Run(mode, func(t *testing.T) {
			c := idleController(t, TestConfig{Nodes: 1, Shape: "Sockets=1 CoresPerSocket=2 ThreadsPerCore=2", SelectTypeParameters: mode})
			c.mu.Lock()
			defer c.mu.Unlock()
			start := func(id uint32, cpus uint32) (allocation, error) {
				j := pendingJob(id)
				j.NumTasks = 1
				c.t.jobs[id] = j
				_, a, err := c.verifyStart(scheduler.Start{JobID: id, Nodes: []string{"n1"}, CPUs: []uint32{cpus}}, 100, c.inUse(), map[uint32]bool{})
				if err == nil {
					j.Nodes, j.CPUsPerNode, j.State = a.nodes, a.cpus, uint32(states.JobRunning)
					c.t.hold(j)
				}
				return a, err
			}
			j := pendingJob(9) // -n2 --hint=nomultithread
			j.editDesc(func(d *wire.JobDesc) { d.ThreadsPerCore = 1 })
			c.t.jobs[9] = j
			_, a, err := c.verifyStart(scheduler.Start{JobID: 9, Nodes: []string{"n1"}, CPUs: []uint32{2}}, 100, c.inUse(), map[uint32]bool{})
			switch {
			case mode == "CR_Core" && (err == nil || !strings.Contains(err.Error(), "room for 1 tasks")):
				t.Errorf("two nomultithread tasks given one core: %v, want refused", err)
			case mode == "CR_CPU" && err != nil:
				t.Errorf("two nomultithread tasks given 2 CPUs (two cores under CR_CPU): %v", err)
			case mode == "CR_CPU":
				j.Nodes, j.CPUsPerNode = a.nodes, a.cpus
				if got := c.t.heldOn(j, c.t.nodes["n1"], a.cpus[0]); got != 4 {
					t.Errorf("two nomultithread tasks under CR_CPU hold %d CPUs of the node, want 4", got)
				}
			}
			delete(c.t.jobs, 9)
			want := uint32(1)
			if mode == "CR_Core" {
				want = 2
			}
			for id := uint32(1); id <= 2; id++ {
				a, err := start(id, 1)
				if err != nil || a.cpus[0] != want {
					t.Fatalf("one-task job %d: %v, CPUs %v; want %d", id, err, a.cpus, want)
				}
				if got := c.t.nodes["n1"].allocCPUs; got != 2*id {
					t.Errorf("after job %d the node holds %d CPUs, want %d", id, got, 2*id)
				}
			}
			if _, err := start(3, 1); err == nil || !strings.Contains(err.Error(), "over-allocated") {
				t.Errorf("a third one-task job on two cores: %v, want over-allocated", err)
			}
			c.t.release(c.t.jobs[1])
			if got := c.t.nodes["n1"].allocCPUs; got != 2 {
				t.Errorf("after releasing job 1 the node holds %d CPUs, want 2", got)
			}
		})
	}
}

// TestNodeOrAlias: scontrol update NodeName= takes a node's name or its NodeHostname (the
// first node with it: every node here is on localhost), as Slurm's find_node_record.
func TestNodeOrAlias(t *testing.T) {
	c := verifyController(t)
	for name, want := range map[string]string{"n1": "n1", "n3": "n3", "localhost": "n1", "nope": ""} {
		got := ""
		if n := c.t.nodeOrAlias(name); n != nil {
			got = n.conf.Name
		}
		if got != want {
			t.Errorf("nodeOrAlias(%q) = %q, want %q", name, got, want)
		}
	}
}

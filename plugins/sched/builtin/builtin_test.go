package builtin

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func nodes(n int, cpus uint32, mem uint64) []scheduler.Node {
	var ns []scheduler.Node
	for i := 1; i <= n; i++ {
		ns = append(ns, scheduler.Node{Name: fmt.Sprintf("n%d", i), CPUs: cpus, RealMemory: mem, Usable: true})
	}
	return ns
}

func pend(id, prio uint32, part string, tasks uint32) scheduler.Job {
	return scheduler.Job{ID: id, Priority: prio, Partition: part, State: scheduler.JobPending, Eligible: true,
		SubmitTime: int64(id), MinNodes: 1, NumTasks: tasks, CPUsPerTask: 1, TimeLimit: 10}
}

// multi is a pending job that may start in p1 or p2.
func multi(id, prio, tasks uint32) scheduler.Job {
	j := pend(id, prio, "p1", tasks)
	j.Partitions = []string{"p1", "p2"}
	return j
}

func state(ns []scheduler.Node, parts map[string][]string, jobs ...scheduler.Job) scheduler.State {
	s := scheduler.State{Seq: 1, Now: 1000, Nodes: ns, Jobs: jobs, Config: scheduler.Config{SelectTypeParameters: "CR_CPU"}}
	for _, name := range []string{"p1", "p2"} {
		if pn, ok := parts[name]; ok {
			s.Partitions = append(s.Partitions, scheduler.Partition{Name: name, Nodes: pn, Up: true, MaxTime: scheduler.Infinite, MaxNodes: scheduler.Infinite})
		}
	}
	return s
}

// outcome renders a plan as "start 3 n1:2 n2:1" and "reason 4 Priority" lines.
func outcome(p scheduler.Plan) []string {
	var out []string
	for _, s := range p.Starts {
		line := fmt.Sprintf("start %d", s.JobID)
		for i, n := range s.Nodes {
			line += fmt.Sprintf(" %s:%d", n, s.CPUs[i])
		}
		if s.Partition != "" {
			line += " in " + s.Partition
		}
		out = append(out, line)
	}
	for _, r := range p.Reasons {
		line := fmt.Sprintf("reason %d %s", r.JobID, states.Reason(r.Reason))
		if r.Desc != "" {
			line += " (" + r.Desc + ")"
		}
		out = append(out, line)
	}
	return out
}

func TestBuiltin_Schedule_Order(t *testing.T) {
	two := map[string][]string{"p1": {"n1", "n2"}}
	split := map[string][]string{"p1": {"n1"}, "p2": {"n2"}}
	running := scheduler.Job{ID: 1, State: scheduler.JobRunning, Partition: "p1", Priority: 1, StartTime: 900, TimeLimit: 10,
		Nodes: []string{"n1"}, CPUs: []uint32{4}, NumTasks: 4, MinNodes: 1, CPUsPerTask: 1}
	both := map[string][]string{"p1": {"n1", "n2"}, "p2": {"n1", "n2"}}
	onN1 := pend(2, 30, "p1", 4)
	onN1.ReqNodes = []string{"n1"}
	held := pend(9, 0, "p1", 1)
	held.Eligible = false
	held.Reason = uint32(states.WaitHeld)
	excl := pend(5, 10, "p1", 1)
	excl.Exclusive = true
	req := pend(6, 10, "p1", 1)
	req.ReqNodes = []string{"n2"}
	exc := pend(7, 10, "p1", 1)
	exc.ExcNodes = []string{"n1"}
	tpn := pend(8, 10, "p1", 4)
	tpn.TasksPerNode = 2
	tpn.MinNodes = 2
	tpnOver := pend(8, 10, "p1", 3) // -n3 --ntasks-per-node=2: two tasks on each of its nodes
	tpnOver.TasksPerNode = 2
	drained := nodes(4, 4, 0)
	drained[1].Usable = false // n2 drained
	four := map[string][]string{"p1": {"n1", "n2", "n3", "n4"}}
	onN2 := pend(2, 30, "p1", 1)
	onN2.ReqNodes = []string{"n2"}
	n2n3 := pend(3, 20, "p1", 2)
	n2n3.ReqNodes, n2n3.MinNodes = []string{"n2", "n3"}, 2
	allFour := pend(4, 30, "p1", 4)
	allFour.MinNodes = 4
	threeN2 := pend(5, 20, "p1", 3)
	threeN2.ReqNodes, threeN2.MinNodes = []string{"n2"}, 3
	wideOnN1 := pend(3, 20, "p1", 4) // -N2 --ntasks-per-node=2 -w n1 behind a job waiting on n1
	wideOnN1.ReqNodes, wideOnN1.MinNodes, wideOnN1.TasksPerNode = []string{"n1"}, 2, 2
	big := pend(4, 10, "p1", 100)
	cases := []struct {
		name string
		s    scheduler.State
		want []string
	}{
		{"fill in priority order", state(nodes(2, 4, 0), two, pend(2, 10, "p1", 3), pend(3, 20, "p1", 3)),
			// A plain -n job aims at one node: n2 holds it whole, as Slurm 22.05 placed a -n64
			// job on an idle node past one with a single CPU left (selection TestSelect_NodeCountLimit).
			[]string{"start 3 n1:3", "start 2 n2:3"}},
		{"first blocked gets Resources, later Priority", state(nodes(2, 4, 0), two, pend(2, 30, "p1", 8), pend(3, 20, "p1", 1), pend(4, 10, "p1", 1)),
			[]string{"start 2 n1:4 n2:4", "reason 3 Resources", "reason 4 Priority"}},
		{"blocked partition does not block another", state(nodes(2, 4, 0), split, running, pend(2, 30, "p1", 1), pend(3, 20, "p2", 2)),
			[]string{"start 3 n2:2", "reason 2 Resources"}},
		{"ties by submit time then id", state(nodes(1, 2, 0), two, pend(3, 10, "p1", 1), pend(2, 10, "p1", 1), pend(4, 10, "p1", 1)),
			[]string{"start 2 n1:1", "start 3 n1:1", "reason 4 Resources"}},
		{"ineligible jobs are left to the controller", state(nodes(2, 4, 0), two, held, pend(2, 1, "p1", 1)),
			[]string{"start 2 n1:1"}},
		{"exclusive takes a whole idle node", state(nodes(2, 4, 0), two, running, excl),
			[]string{"start 5 n2:4"}},
		{"nodelist first", state(nodes(2, 4, 0), two, req), []string{"start 6 n2:1"}},
		{"exclude never", state(nodes(2, 4, 0), two, exc), []string{"start 7 n2:1"}},
		{"ntasks-per-node caps a node", state(nodes(2, 4, 0), two, tpn), []string{"start 8 n1:2 n2:2"}},
		{"ntasks-per-node on every node", state(nodes(2, 4, 0), two, tpnOver), []string{"start 8 n1:2 n2:2"}},
		{"a node without room for ntasks-per-node is passed over", state(nodes(2, 4, 0), two, running, tpnOver),
			[]string{"reason 8 Resources"}},
		// Recorded on Slurm 22.05 with n2 drained: -w n2 and -N2 -w n[2-3] wait with
		// ReqNodeNotAvail naming n2, a -N4 job with Resources and the partition's text (and
		// blocks the partition), a later -N3 -w n2 job keeps ReqNodeNotAvail.
		{"required node drained", state(drained, four, onN2, n2n3),
			[]string{"reason 2 ReqNodeNotAvail (ReqNodeNotAvail, UnavailableNodes:n2)", "reason 3 ReqNodeNotAvail (ReqNodeNotAvail, UnavailableNodes:n2)"}},
		{"a drained node makes a whole-partition job short of nodes", state(drained, four, allFour, threeN2, pend(6, 10, "p1", 1)),
			[]string{"reason 4 Resources (" + states.DescNodesReserved + ")", "reason 5 ReqNodeNotAvail (ReqNodeNotAvail, UnavailableNodes:n2)", "reason 6 Priority"}},
		// Recorded too: behind a -w n1 job waiting for room there, -N2 -w n1 names n1 as
		// unavailable (withheld for the first).
		{"required node withheld for an earlier job", state(nodes(4, 4, 0), four, running, onN1, wideOnN1),
			[]string{"reason 2 Resources", "reason 3 ReqNodeNotAvail (ReqNodeNotAvail, UnavailableNodes:n1)"}},
		{"never fits is PartitionConfig, does not block", state(nodes(2, 4, 0), two, big, pend(2, 1, "p1", 1)),
			[]string{"start 2 n1:1", "reason 4 PartitionConfig"}},
		{"several partitions: starts in the first with room", state(nodes(2, 4, 0), split, running, multi(2, 10, 2)),
			[]string{"start 2 n2:2 in p2"}},
		{"several partitions: in order", state(nodes(2, 4, 0), split, multi(2, 10, 2)),
			[]string{"start 2 n1:2"}},
		{"a blocked partition's nodes are withheld from other partitions", state(nodes(2, 4, 0), both, running, pend(2, 30, "p1", 8), pend(3, 20, "p2", 1)),
			[]string{"reason 2 Resources", "reason 3 Resources (" + states.DescNodesReserved + ")"}},
		{"a --nodelist job withholds only its nodes", state(nodes(2, 4, 0), both, running, onN1, pend(3, 20, "p2", 1)),
			[]string{"start 3 n2:1", "reason 2 Resources"}},
		{"several partitions: the last one's reason", state(nodes(2, 4, 0), split, running, pend(3, 30, "p2", 4), multi(2, 20, 2), multi(4, 10, 1)),
			[]string{"start 3 n2:4", "reason 2 Resources", "reason 4 Priority"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := New(c.s.Config)
			if err := b.Sync(context.Background(), c.s); err != nil {
				t.Fatal(err)
			}
			p, err := b.Schedule(context.Background(), c.s.Now)
			if err != nil {
				t.Fatal(err)
			}
			if got := outcome(p); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestBuiltin_Schedule_Memory(t *testing.T) {
	j := pend(2, 10, "p1", 4)
	j.MemPerCPU = 300
	for _, c := range []struct {
		params string
		want   []string
	}{
		{"CR_CPU", []string{"start 2 n1:4"}},              // memory not counted
		{"CR_CPU_Memory", []string{"start 2 n1:3 n2:1"}},  // 1000 MiB holds 3 tasks
		{"CR_Core_Memory", []string{"start 2 n1:3 n2:1"}}, // same without threads
		{"CR_Memory", []string{"start 2 n1:3 n2:1"}},      // CPUs shared, memory counted
	} {
		s := state(nodes(2, 4, 1000), map[string][]string{"p1": {"n1", "n2"}}, j)
		s.Config.SelectTypeParameters = c.params
		b := New(s.Config)
		_ = b.Sync(context.Background(), s)
		p, _ := b.Schedule(context.Background(), s.Now)
		if got := outcome(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q want %q", c.params, got, c.want)
		}
	}
}

func TestBuiltin_Schedule_CRMemorySharesCPUs(t *testing.T) {
	running := scheduler.Job{ID: 1, State: scheduler.JobRunning, Partition: "p1", Nodes: []string{"n1"}, CPUs: []uint32{4}, Mem: 100}
	j := pend(2, 10, "p1", 4)
	j.MemPerNode = 500
	s := state(nodes(1, 4, 1000), map[string][]string{"p1": {"n1"}}, running, j)
	for params, want := range map[string][]string{
		"CR_Memory":     {"start 2 n1:4"},
		"CR_CPU_Memory": {"reason 2 Resources"},
	} {
		s.Config.SelectTypeParameters = params
		b := New(s.Config)
		_ = b.Sync(context.Background(), s)
		p, _ := b.Schedule(context.Background(), s.Now)
		if got := outcome(p); !slices.Equal(got, want) {
			t.Errorf("%s: got %q want %q", params, got, want)
		}
	}
}

// TestBuiltin_PriorityTier: two partitions over the same node; the job of the partition with
// the higher PriorityTier is considered first and starts though its priority is lower, as
// Slurm's sort_job_queue2 orders the queue by tier before priority.
func TestBuiltin_PriorityTier(t *testing.T) {
	s := state(nodes(1, 4, 1000), map[string][]string{"p1": {"n1"}, "p2": {"n1"}},
		pend(1, 1000, "p1", 4), pend(2, 10, "p2", 4))
	s.Partitions[0].PriorityTier, s.Partitions[1].PriorityTier = 1, 2
	b := New(s.Config)
	if err := b.Sync(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	p, err := b.Schedule(context.Background(), s.Now)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outcome(p), []string{"start 2 n1:4", "reason 1 Resources"}; !slices.Equal(got, want) {
		t.Fatalf("tier 2 job should start before the tier 1 job: got %q, want %q", got, want)
	}
	// Same tiers: priority decides again.
	s.Partitions[1].PriorityTier = 1
	b = New(s.Config)
	_ = b.Sync(context.Background(), s)
	p, _ = b.Schedule(context.Background(), s.Now)
	if got, want := outcome(p), []string{"start 1 n1:4", "reason 2 Resources"}; !slices.Equal(got, want) {
		t.Fatalf("equal tiers: got %q, want %q", got, want)
	}
}

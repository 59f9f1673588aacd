package selection

import (
	"testing"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// htNode is a node of 2 sockets of 4 cores of 2 threads: 16 CPUs, 8 cores.
func htNode(name string) scheduler.Node {
	return scheduler.Node{Name: name, CPUs: 16, ThreadsPerCore: 2, RealMemory: 4000, Usable: true}
}

// TestSelect_WholeCores: on a node with two threads per core a job takes whole cores, as the
// reference Slurm 22.05 showed for each request (squeue %C, scontrol's NumCPUs, sinfo's
// allocated CPUs) under CR_Core and CR_CPU.
func TestSelect_WholeCores(t *testing.T) {
	type req struct{ n, c, tpn, ntpc, tpc, minCPUs uint32 }
	for _, tc := range []struct {
		name       string
		r          req
		core       uint32 // CR_Core: NumCPUs (= what the node loses)
		cpu, held  uint32 // CR_CPU: NumCPUs, what the node loses
		fitsAtMost int    // how many such jobs fit on the idle node together (0: skip)
	}{
		{"-n1", req{n: 1}, 2, 1, 2, 8},
		{"-n3", req{n: 3}, 4, 3, 4, 0},
		{"-n5", req{n: 5}, 6, 5, 6, 0},
		{"-n9", req{n: 9}, 10, 9, 10, 0},
		{"-n1 -c3", req{n: 1, c: 3}, 4, 3, 4, 0},
		{"-n2 --ntasks-per-node=2", req{n: 2, tpn: 2}, 2, 2, 2, 0},
		{"-n1 --hint=nomultithread", req{n: 1, tpc: 1}, 2, 1, 2, 0},
		{"-n2 --hint=nomultithread", req{n: 2, tpc: 1}, 4, 2, 4, 4},
		{"-n2 -c2 --hint=nomultithread", req{n: 2, c: 2, tpc: 1}, 8, 4, 8, 0},
		{"-n8 --hint=nomultithread", req{n: 8, tpc: 1}, 16, 8, 16, 1},
		{"-n3 --ntasks-per-core=1", req{n: 3, ntpc: 1}, 6, 3, 6, 0},
		{"-n2 --ntasks-per-core=2", req{n: 2, ntpc: 2}, 2, 2, 2, 0},
		{"-n2 -c3 --ntasks-per-core=1", req{n: 2, c: 3, ntpc: 1}, 8, 6, 8, 0},
		{"-n1 --mincpus=3", req{n: 1, minCPUs: 3}, 4, 3, 4, 0},
		{"-n1 --threads-per-core=2", req{n: 1, tpc: 2}, 2, 1, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := []scheduler.Node{htNode("n1")}
			j := &scheduler.Job{ID: 1, Partition: "p", MinNodes: 1, NumTasks: tc.r.n, CPUsPerTask: max(tc.r.c, 1),
				TasksPerNode: tc.r.tpn, NTasksPerCore: tc.r.ntpc, ThreadsPerCore: tc.r.tpc, MinCPUs: tc.r.minCPUs}
			core := NewPool(ParseMode("select/cons_tres", "CR_Core"), nodes)
			a, ok := core.Select(j, part(nodes))
			if !ok || a.CPUs[0] != tc.core || a.Held != nil {
				t.Fatalf("CR_Core: got CPUs %v held %v (ok %v), want %d", a.CPUs, a.Held, ok, tc.core)
			}
			core.Take(a, false)
			if got := core.Node("n1").AllocCPUs; got != tc.core {
				t.Errorf("CR_Core: node holds %d CPUs, want %d", got, tc.core)
			}
			cpu := NewPool(ParseMode("select/cons_tres", "CR_CPU"), nodes)
			a, ok = cpu.Select(j, part(nodes))
			if !ok || a.CPUs[0] != tc.cpu {
				t.Fatalf("CR_CPU: got CPUs %v (ok %v), want %d", a.CPUs, ok, tc.cpu)
			}
			cpu.Take(a, false)
			if got := cpu.Node("n1").AllocCPUs; got != tc.held {
				t.Errorf("CR_CPU: node holds %d CPUs, want %d", got, tc.held)
			}
			// A running job of that shape, as the controller shows it, books the same.
			again := NewPool(ParseMode("select/cons_tres", "CR_CPU"), nodes)
			run := *j
			run.Nodes, run.CPUs = []string{"n1"}, []uint32{tc.cpu}
			again.TakeJob(&run)
			if got := again.Node("n1").AllocCPUs; got != tc.held {
				t.Errorf("CR_CPU running job: node holds %d CPUs, want %d", got, tc.held)
			}
			if tc.fitsAtMost == 0 {
				return
			}
			for _, mode := range []string{"CR_Core", "CR_CPU"} {
				p := NewPool(ParseMode("select/cons_tres", mode), nodes)
				n := 0
				for ; n <= tc.fitsAtMost; n++ {
					a, ok := p.Select(j, part(nodes))
					if !ok {
						break
					}
					p.Take(a, false)
				}
				if n != tc.fitsAtMost {
					t.Errorf("%s: %d such jobs fit together, want %d", mode, n, tc.fitsAtMost)
				}
			}
		})
	}
}

// TestSelect_WholeCoresRefused: a job needing more cores than the node has, or more threads
// per core than it has, does not fit (Slurm refuses `-n9 --hint=nomultithread` on 8 cores).
func TestSelect_WholeCoresRefused(t *testing.T) {
	nodes := []scheduler.Node{htNode("n1")}
	p := NewPool(ParseMode("select/cons_tres", "CR_Core"), nodes)
	for _, j := range []*scheduler.Job{
		{ID: 1, MinNodes: 1, NumTasks: 9, CPUsPerTask: 1, ThreadsPerCore: 1},
		{ID: 2, MinNodes: 1, NumTasks: 1, CPUsPerTask: 16, ThreadsPerCore: 1},
		{ID: 3, MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, ThreadsPerCore: 4},
	} {
		if a, ok := p.Select(j, part(nodes)); ok {
			t.Errorf("job %+v fits: %+v", j, a)
		}
	}
}

// TestSelect_WholeCoresMemory: --mem-per-cpu counts the CPUs of the whole cores, but only
// the threads a --threads-per-core job uses (the reference: `-n1` 200M, `-n3` 400M,
// `-n2 --hint=nomultithread` 200M at 100M per CPU).
func TestSelect_WholeCoresMemory(t *testing.T) {
	nodes := []scheduler.Node{htNode("n1")}
	for _, tc := range []struct {
		n, tpc uint32
		mem    uint64
	}{{1, 0, 200}, {3, 0, 400}, {2, 1, 200}} {
		p := NewPool(ParseMode("select/cons_tres", "CR_Core_Memory"), nodes)
		j := &scheduler.Job{ID: 1, MinNodes: 1, NumTasks: tc.n, CPUsPerTask: 1, ThreadsPerCore: tc.tpc, MemPerCPU: 100}
		if a, ok := p.Select(j, part(nodes)); !ok || a.Mem != tc.mem {
			t.Errorf("-n%d threads-per-core %d: mem %d (ok %v), want %d", tc.n, tc.tpc, a.Mem, ok, tc.mem)
		}
	}
	// 1000M free at 100M per CPU: five -n1 jobs (two CPUs each) fill it.
	small := []scheduler.Node{{Name: "n1", CPUs: 16, ThreadsPerCore: 2, RealMemory: 1000, Usable: true}}
	p := NewPool(ParseMode("select/cons_tres", "CR_Core_Memory"), small)
	j := &scheduler.Job{ID: 1, MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, MemPerCPU: 100}
	n := 0
	for ; n < 8; n++ {
		a, ok := p.Select(j, part(small))
		if !ok {
			break
		}
		p.Take(a, false)
	}
	if n != 5 {
		t.Errorf("%d one-task jobs of 100M per CPU fit in 1000M, want 5", n)
	}
}

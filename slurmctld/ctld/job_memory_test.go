package ctld_test

import (
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

const memParts = "PartitionName=dmem Nodes=n1 DefMemPerCPU=1000 MaxMemPerCPU=2000\n" +
	"PartitionName=nmem Nodes=n1 DefMemPerNode=5000 MaxMemPerNode=8000\n"

// TestMemory_DefaultsAndLimits: partitions' DefMemPerCPU/DefMemPerNode and MaxMemPerCPU/
// MaxMemPerNode as Slurm 22.05 applies them to a job (values recorded from the reference:
// scontrol show job's CPUs/Task, MinMemoryCPU/MinMemoryNode and MinCPUsNode).
func TestMemory_DefaultsAndLimits(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 64, RealMemory: 257000, Extra: memParts})
	type want struct {
		cpt, minCPUs, numCPUs uint32
		perCPU, perNode       uint64
	}
	for _, c := range []struct {
		name string
		edit func(d *wire.JobDesc)
		want want
	}{
		{"DefMemPerCPU", func(d *wire.JobDesc) { d.Partition = "dmem" }, want{1, 1, 1, 1000, 0}},
		{"mem-per-cpu over MaxMemPerCPU: spread over CPUs", func(d *wire.JobDesc) { d.Partition, d.MemPerCPU = "dmem", 3000 }, want{2, 2, 2, 1500, 0}},
		{"the same with -n 2", func(d *wire.JobDesc) { d.Partition, d.MemPerCPU, d.NumTasks = "dmem", 3000, 2 }, want{2, 1, 4, 1500, 0}},
		{"mem under MaxMemPerCPU: CPUs per node", func(d *wire.JobDesc) { d.Partition, d.MemPerNode = "dmem", 10240 }, want{1, 6, 1, 0, 10240}},
		{"the same with --ntasks-per-node=2", func(d *wire.JobDesc) { d.Partition, d.MemPerNode, d.NTasksPerNode = "dmem", 10240, 2 }, want{3, 6, 6, 0, 10240}},
		{"DefMemPerNode", func(d *wire.JobDesc) { d.Partition = "nmem" }, want{1, 1, 1, 0, 5000}},
		{"mem-per-cpu under MaxMemPerNode", func(d *wire.JobDesc) { d.Partition, d.MemPerCPU = "nmem", 3000 }, want{1, 1, 1, 3000, 0}},
	} {
		d := script("exit 0")
		d.Hold = true
		c.edit(d)
		id := f.mustSubmit(d)
		j := f.job(id)
		got := want{j.CPUsPerTask, j.MinCPUsNode, j.NumCPUs, j.MemPerCPU, j.MemPerNode}
		if got != c.want {
			t.Errorf("%s: cpus/task, MinCPUsNode, NumCPUs, MinMemoryCPU, MinMemoryNode = %v, want %v", c.name, got, c.want)
		}
	}
	// Over MaxMemPerNode, however counted: pending with MaxMemPerLimit.
	for _, edit := range []func(d *wire.JobDesc){
		func(d *wire.JobDesc) { d.Partition, d.MemPerNode = "nmem", 9000 },
		func(d *wire.JobDesc) { d.Partition, d.MemPerCPU, d.CPUsPerTask = "nmem", 3000, 4 },
	} {
		d := script("exit 0")
		edit(d)
		f.waitReason(f.mustSubmit(d), states.WaitPnMemLimit)
	}
}

// TestMemory_EnforcePartLimits: under EnforcePartLimits a request over the limit is refused
// at submit with ESLURM_INVALID_TASK_MEMORY; one the limit can adjust is not.
func TestMemory_EnforcePartLimits(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 64, RealMemory: 257000, Extra: "EnforcePartLimits=ALL\n" + memParts})
	d := script("exit 0")
	d.Partition, d.MemPerNode = "nmem", 9000
	if _, err := f.submit(0, d); errnoOf(err) != 2044 {
		t.Errorf("--mem=9000 over MaxMemPerNode=8000: %v, want errno 2044", err)
	}
	d = script("exit 0")
	d.Partition, d.MemPerCPU, d.Hold = "dmem", 3000, true
	if _, err := f.submit(0, d); err != nil {
		t.Errorf("--mem-per-cpu=3000 over MaxMemPerCPU=2000 (spread over CPUs): %v", err)
	}
}

// TestMemory_WholeNodeWithoutRequest: where memory is a consumable resource and no default
// applies, a job asking for no memory needs a whole node's memory, as Slurm's select plugin
// allocates it: it shows no request (MinMemoryNode=0) but the node's memory in its TRES, a
// second such job waits for the node (Resources), and so does one asking for no memory
// while another job holds some of the node's memory.
func TestMemory_WholeNodeWithoutRequest(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 8, RealMemory: 4000, Extra: "SelectTypeParameters=CR_Core_Memory\n"})
	f.startNodes("n1")
	first := f.mustSubmit(script("sleep 100"))
	j := f.waitState(first, states.JobRunning)
	if j.MemPerNode != 0 || !strings.Contains(j.TRES, "mem=4000M") {
		t.Errorf("job without memory: MinMemoryNode %d, TRES %q; want 0 and the node's 4000M", j.MemPerNode, j.TRES)
	}
	second := f.mustSubmit(script("sleep 100"))
	if j := f.waitReason(second, states.WaitResources); len(j.NodeList) != 0 {
		t.Errorf("a second job without memory shares the node: %+v", j)
	}
	f.kill(0, first, 0)
	f.waitState(second, states.JobRunning)
	f.kill(0, second, 0)

	some := script("sleep 100")
	some.MemPerNode = 1000
	withMem := f.mustSubmit(some)
	f.waitState(withMem, states.JobRunning)
	whole := f.mustSubmit(script("sleep 100"))
	f.waitReason(whole, states.WaitResources)
}

package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestSchedule_SeveralPartitions: a job submitted to several partitions (-p a,b) starts in
// the first, in order, whose limits it meets and that has room, shows that partition once
// running (the list while pending), and without --time takes the time limit of the one it
// runs in, as Slurm 22.05 does.
func TestSchedule_SeveralPartitions(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Extra: "PartitionName=small Nodes=n1 MaxTime=10\n"})
	submit := func(parts string, limit uint32) uint32 {
		d := script("sleep 1000")
		d.Partition, d.TimeLimit = parts, limit
		return f.mustSubmit(d)
	}
	over := submit("small,debug", 20)  // over small's MaxTime: debug
	within := submit("small,debug", 5) // small has room
	noTime := submit("small,debug", wire.NoVal)
	debugFirst := submit("debug,small", wire.NoVal)
	if j := f.job(over); j.Partition != "small,debug" {
		t.Errorf("pending job of two partitions shows %q, want small,debug", j.Partition)
	}
	f.startNodes("n1", "n2")
	for _, c := range []struct {
		id    uint32
		part  string
		limit uint32
	}{{over, "debug", 20}, {within, "small", 5}, {noTime, "small", 10}, {debugFirst, "debug", wire.Infinite}} {
		j := f.waitState(c.id, states.JobRunning)
		if j.Partition != c.part || j.TimeLimit != c.limit {
			t.Errorf("job %d runs in %s with limit %d, want %s with %d", c.id, j.Partition, j.TimeLimit, c.part, c.limit)
		}
	}
}

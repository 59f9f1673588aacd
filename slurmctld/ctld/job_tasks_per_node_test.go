package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestJobTasksPerNode: a job with --ntasks-per-node runs that many tasks on every node it
// gets, and its task count follows (Slurm 22.05's build_node_details; recorded on the
// reference: -N1-3 --ntasks-per-node=2 ran NumNodes=2 NumCPUs=4 NumTasks=4, -n3
// --ntasks-per-node=2 NumCPUs=4 NumTasks=4, -N2-4 --ntasks-per-node=3 NumTasks=12, and with
// -O the CPUs stay one per node while NumTasks is 4).
func TestJobTasksPerNode(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 8})
	f.startNodes("n1", "n2", "n3", "n4")
	for _, c := range []struct {
		name                      string
		minNodes, maxNodes, tasks uint32
		perNode                   uint32
		overcommit                bool
		nodes, cpus, numTasks     uint32
	}{
		{"-N1-3 --ntasks-per-node=2", 1, 3, 0, 2, false, 2, 4, 4},
		{"-n3 --ntasks-per-node=2", 0, 0, 3, 2, false, 2, 4, 4},
		{"-N2-4 --ntasks-per-node=3", 2, 4, 0, 3, false, 4, 12, 12},
		{"-N1-3 --ntasks-per-node=2 -O", 1, 3, 0, 2, true, 2, 2, 4},
	} {
		d := script("true")
		if c.minNodes > 0 {
			d.MinNodes, d.MaxNodes = c.minNodes, c.maxNodes
		}
		if c.tasks > 0 {
			d.NumTasks = c.tasks
		}
		d.NTasksPerNode, d.Overcommit = c.perNode, c.overcommit
		j := f.waitState(f.mustSubmit(d), states.JobComplete)
		if j.NumNodes != c.nodes || j.NumCPUs != c.cpus || j.NumTasks != c.numTasks {
			t.Errorf("%s: NumNodes=%d NumCPUs=%d NumTasks=%d (%s); want %d, %d, %d", c.name,
				j.NumNodes, j.NumCPUs, j.NumTasks, j.NodeList, c.nodes, c.cpus, c.numTasks)
		}
	}
}

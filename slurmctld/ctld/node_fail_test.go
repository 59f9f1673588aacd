package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestNoKill_JobKeepsItsOtherNodes: as Slurm's kill_running_job_by_node_name, a --no-kill
// job that loses a node other than its batch host goes on without it, holding only the
// nodes it has left; a job without --no-kill ends NODE_FAIL; a --no-kill job that loses its
// batch host ends too.
func TestNoKill_JobKeepsItsOtherNodes(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 2})
	f.startNodes("n1", "n2", "n3", "n4")
	submit := func(noKill bool, nodes string) uint32 {
		d := script("sleep")
		d.MinNodes, d.ReqNodes, d.NoKill, d.Requeue = 2, nodes, noKill, 0
		id := f.mustSubmit(d)
		f.waitState(id, states.JobRunning)
		return id
	}
	down := func(node string) {
		t.Helper()
		if err := f.call(0, wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: node, State: "DOWN", Reason: "test"}, new(wire.OK)); err != nil {
			t.Fatalf("set %s DOWN: %v", node, err)
		}
	}
	keeps := submit(true, "n[1-2]")
	plain := submit(false, "n[3-4]")
	down("n2")
	down("n4")
	if j := f.job(keeps); states.JobState(j.State) != states.JobRunning || j.NodeList != "n1" || j.NumNodes != 1 {
		t.Errorf("--no-kill job after losing n2: %s on %q (%d nodes), want RUNNING on n1",
			states.JobState(j.State), j.NodeList, j.NumNodes)
	}
	f.waitState(plain, states.JobNodeFail)

	down("n1") // the batch host: nothing left to go on with
	f.waitState(keeps, states.JobNodeFail)
}

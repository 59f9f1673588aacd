package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestOvercommit: -O places the job as one task per node (cpus-per-task CPUs there, as
// Slurm's min_cpus of one per node gives), however many tasks it asks for; it shows those
// tasks, and one CPU per node while pending; its steps may run more tasks than its CPUs,
// except an --exact one. Without -O the same job could never run on the node.
func TestOvercommit(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	d := script("sleep 100")
	d.NumTasks, d.CPUsPerTask, d.Overcommit = 10, 2, true
	id := f.mustSubmit(d)
	if j := f.job(id); j.NumTasks != 10 || j.NumCPUs != 1 {
		t.Errorf("pending -O -n 10 -c 2: NumTasks=%d NumCPUs=%d; want 10 and 1", j.NumTasks, j.NumCPUs)
	}
	f.startNodes("n1") // pending until its node registers
	j := f.waitState(id, states.JobRunning)
	if j.NumCPUs != 2 || j.NumTasks != 10 {
		t.Errorf("running -O -n 10 -c 2: NumCPUs=%d NumTasks=%d; want 2 and 10", j.NumCPUs, j.NumTasks)
	}
	step := func(r wire.StepCreateRequest) (*wire.StepCreateReply, error) {
		r.JobID = id
		var rep wire.StepCreateReply
		err := f.call(0, wire.MsgStepCreate, &r, &rep)
		return &rep, err
	}
	rep, err := step(wire.StepCreateRequest{NumTasks: 7, CPUsPerTask: 1, Overcommit: true})
	if err != nil || rep.NumTasks != 7 || len(rep.Nodes) != 1 {
		t.Errorf("-O step of 7 tasks on 2 CPUs: %v, %+v", err, rep)
	}
	if _, err := step(wire.StepCreateRequest{NumTasks: 7, CPUsPerTask: 1, Overcommit: true, Exact: true, Overlap: true}); err == nil {
		t.Error("an --exact step of 7 tasks on 2 CPUs was created; Slurm does not overcommit it")
	}
	if _, err := step(wire.StepCreateRequest{NumTasks: 7, CPUsPerTask: 1, Overlap: true}); err == nil {
		t.Error("a step of 7 tasks on 2 CPUs without -O was created")
	}
}

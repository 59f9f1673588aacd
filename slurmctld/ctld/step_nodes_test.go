package ctld_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// TestJobNodeRange: a job of -N1-3 that gave no task count gets as many nodes as are free
// within its range (sbatch -N1-3 ran on three nodes of the reference, NumTasks=3); with -n2
// it gets no more nodes than tasks.
func TestJobNodeRange(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 4})
	f.startNodes("n1", "n2", "n3", "n4")
	d := script("sleep 100")
	d.MinNodes, d.MaxNodes = 1, 3
	j := f.waitState(f.mustSubmit(d), states.JobRunning)
	if j.NumNodes != 3 || j.NumTasks != 3 {
		t.Errorf("-N1-3: NumNodes=%d NumTasks=%d (%s); want 3 and 3", j.NumNodes, j.NumTasks, j.NodeList)
	}
	d = script("sleep 100")
	d.MinNodes, d.MaxNodes, d.NumTasks = 1, 3, 2
	if j := f.waitState(f.mustSubmit(d), states.JobRunning); j.NumNodes != 2 || j.NumTasks != 2 {
		t.Errorf("-N1-3 -n2: NumNodes=%d NumTasks=%d; want 2 and 2", j.NumNodes, j.NumTasks)
	}
}

// TestStepNodes: a step inside an allocation of four nodes excludes -x's nodes (an unknown
// name is "Invalid node name specified"), spans -N's maximum where the job has the nodes,
// and runs on a --nodelist's nodes plus the job's first others up to -N, as Slurm 22.05's
// step_mgr did on the reference (srun -w n2 -N2 ran on n[1-2]).
func TestStepNodes(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 4})
	f.startNodes("n1", "n2", "n3", "n4")
	d := script("sleep 100")
	d.MinNodes, d.NTasksPerNode = 4, 4
	id := f.mustSubmit(d)
	f.waitState(id, states.JobRunning)
	step := func(r wire.StepCreateRequest) ([]string, error) {
		r.JobID, r.CPUsPerTask, r.Overlap = id, 1, true
		var rep wire.StepCreateReply
		err := f.call(0, wire.MsgStepCreate, &r, &rep)
		return rep.Nodes, err
	}
	for _, c := range []struct {
		name string
		req  wire.StepCreateRequest
		want []string
	}{
		{"-x n1 -n3", wire.StepCreateRequest{NumTasks: 3, MinNodes: 3, ExcNodes: "n1"}, []string{"n2", "n3", "n4"}},
		{"-N1-2 -n2", wire.StepCreateRequest{NumTasks: 2, MinNodes: 1, MaxNodes: 2}, []string{"n1", "n2"}},
		{"-N1-3 -n2 (no more nodes than tasks)", wire.StepCreateRequest{NumTasks: 2, MinNodes: 1, MaxNodes: 3}, []string{"n1", "n2"}},
		{"-w n2 -N2", wire.StepCreateRequest{NumTasks: 2, MinNodes: 2, NodeList: "n2"}, []string{"n1", "n2"}},
		{"-w n3 -N3 -x n1", wire.StepCreateRequest{NumTasks: 3, MinNodes: 3, NodeList: "n3", ExcNodes: "n1"}, []string{"n2", "n3", "n4"}},
	} {
		got, err := step(c.req)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: nodes %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	// --constraint: the job's nodes with every listed feature; other forms, or too few such
	// nodes, keep the step waiting (busy), as on the reference.
	for nodes, feat := range map[string]string{"n2": "gpu", "n3": "big,gpu"} {
		if err := f.call(0, wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: nodes, Features: &feat}, new(wire.OK)); err != nil {
			t.Fatalf("update %s AvailableFeatures=%s: %v", nodes, feat, err)
		}
	}
	for _, c := range []struct {
		features string
		nodes    uint32
		want     []string
	}{
		{"gpu", 1, []string{"n2"}},
		{"gpu", 2, []string{"n2", "n3"}},
		{"big&gpu", 1, []string{"n3"}},
		{"gpu,big", 1, []string{"n3"}},
		{"gpu", 3, nil},
		{"gpu|big", 1, nil},
		{"[gpu|big]", 1, nil},
	} {
		got, err := step(wire.StepCreateRequest{NumTasks: c.nodes, MinNodes: c.nodes, Features: c.features})
		if c.want == nil {
			if !isErrno(err, wire.ErrnoNodesBusy) {
				t.Errorf("-C %s -N%d: %v %v; want Requested nodes are busy", c.features, c.nodes, got, err)
			}
		} else if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("-C %s -N%d: nodes %v, %v; want %v", c.features, c.nodes, got, err, c.want)
		}
	}
	_, err := step(wire.StepCreateRequest{NumTasks: 1, MinNodes: 1, ExcNodes: "vm"})
	var we *wire.Error
	if !errors.As(err, &we) || we.Text != "Invalid node name specified" {
		t.Errorf("-x naming no node: %v; want Invalid node name specified", err)
	}
}

// isErrno says whether err is a Slurm error with that errno.
func isErrno(err error, errno int32) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Errno == errno
}

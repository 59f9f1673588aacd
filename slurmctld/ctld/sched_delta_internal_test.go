package ctld

import (
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestSentStateDelta: a delta carries exactly the jobs that are new, whose record was
// replaced or whose verdict changed, each converted as a Sync would show it, and names the
// jobs the plugin no longer schedules; jobs the plugin was shown unchanged are not resent.
func TestSentStateDelta(t *testing.T) {
	pend := func(id uint32, name string) *jobRecord {
		return &jobRecord{JobID: id, State: uint32(states.JobPending), Partition: "debug", MinNodes: 1,
			TimeLimit: 10, desc: packDesc(descNamed(name))}
	}
	run := func(id uint32) *jobRecord {
		return &jobRecord{JobID: id, State: uint32(states.JobRunning), Partition: "debug", MinNodes: 1,
			TimeLimit: 10, Nodes: []string{"n1"}, CPUsPerNode: []uint32{2}, desc: packDesc(descNamed("run"))}
	}
	a, b, c, d := pend(1, "a"), pend(2, "b"), run(3), pend(4, "d")
	prev := sentState{jobs: []sentJob{
		{rec: a, reason: states.WaitNoReason, pending: true},
		{rec: b, reason: states.WaitHeldUser, pending: true},
		{rec: c},
		{rec: d, pending: true},
	}}
	b2 := b.clone()
	b2.Priority = 7
	e := pend(9, "e")
	cur := sentState{jobs: []sentJob{
		{rec: a, reason: states.WaitNoReason, pending: true},   // unchanged
		{rec: b2, reason: states.WaitHeldUser, pending: true},  // record replaced
		{rec: d, reason: states.WaitDependency, pending: true}, // verdict changed
		{rec: e, pending: true},                                // new
	}} // 3 gone
	got := prev.delta(cur, 5, 100)
	if got.Seq != 5 || got.Now != 100 {
		t.Errorf("delta seq/now = %d/%d, want 5/100", got.Seq, got.Now)
	}
	var ids []uint32
	for _, j := range got.Jobs {
		ids = append(ids, j.ID)
	}
	if !slices.Equal(ids, []uint32{2, 4, 9}) {
		t.Errorf("delta jobs = %v, want [2 4 9]", ids)
	}
	if !slices.Equal(got.JobsGone, []uint32{3}) {
		t.Errorf("delta gone = %v, want [3]", got.JobsGone)
	}
	sync := cur.state(scheduler.Config{}, 6, 100)
	byID := map[uint32]scheduler.Job{}
	for _, j := range sync.Jobs {
		byID[j.ID] = j
	}
	if len(sync.Jobs) != 4 {
		t.Fatalf("sync has %d jobs, want 4", len(sync.Jobs))
	}
	for _, j := range got.Jobs {
		if s := byID[j.ID]; s.Name != j.Name || s.Priority != j.Priority || s.Reason != j.Reason || s.Eligible != j.Eligible {
			t.Errorf("job %d: delta shows %+v, sync %+v", j.ID, j, s)
		}
	}
	if j := byID[4]; j.Eligible || j.Reason != uint32(states.WaitDependency) || j.State != scheduler.JobPending {
		t.Errorf("job 4 = %+v, want pending on Dependency", j)
	}
	if j := byID[9]; !j.Eligible || j.Name != "e" {
		t.Errorf("job 9 = %+v, want eligible, named e", j)
	}
	if got := cur.delta(cur, 7, 100); len(got.Jobs) != 0 || len(got.JobsGone) != 0 {
		t.Errorf("delta of an unchanged state = %+v, want empty", got)
	}
}

// descNamed is a job description with only a name.
func descNamed(name string) *wire.JobDesc { return &wire.JobDesc{Name: name} }

package selection

import (
	"testing"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestSelect_ExclusiveUser: as the reference showed with two users on one node: a
// --exclusive=user job keeps other users' jobs off its node (its own user's still fit), and
// does not go where another user's job runs; once it ends the node serves everyone again.
func TestSelect_ExclusiveUser(t *testing.T) {
	nodes := []scheduler.Node{gresNode("n1", 8)}
	p := NewPool(Mode{CPUs: true}, nodes)
	job := func(id, uid uint32, excl bool) *scheduler.Job {
		return &scheduler.Job{ID: id, UserID: uid, Partition: "p", MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, ExclusiveUser: excl}
	}
	owner := job(1, 100, true)
	a, ok := p.Select(owner, part(nodes))
	if !ok {
		t.Fatal("a user-exclusive job does not fit an idle node")
	}
	p.Take(a, false)
	if f := p.Node("n1"); f.OwnerJobs != 1 || f.Owner != 100 {
		t.Errorf("node owner %d (%d jobs), want 100", f.Owner, f.OwnerJobs)
	}
	if _, ok := p.Select(job(2, 200, false), part(nodes)); ok {
		t.Error("another user's job joined a user-exclusive job's node")
	}
	mine := job(3, 100, false)
	b, ok := p.Select(mine, part(nodes))
	if !ok {
		t.Fatal("the owner's own job does not fit beside its user-exclusive job")
	}
	p.Take(b, false)
	p.Release(a, false)
	other, ok := p.Select(job(4, 200, false), part(nodes))
	if !ok {
		t.Fatal("another user's job does not fit once the user-exclusive job ended")
	}
	p.Take(other, false)
	if _, ok := p.Select(job(5, 100, true), part(nodes)); ok {
		t.Error("a user-exclusive job went to a node where another user's job runs")
	}
	p.Release(other, false)
	if _, ok := p.Select(job(6, 100, true), part(nodes)); !ok {
		t.Error("a user-exclusive job does not fit a node holding only its user's jobs")
	}
	// A running job of the view books the same.
	q := NewPool(Mode{CPUs: true}, nodes)
	run := *owner
	run.Nodes, run.CPUs = []string{"n1"}, []uint32{1}
	q.TakeJob(&run)
	if _, ok := q.Select(job(7, 200, false), part(nodes)); ok {
		t.Error("another user's job joined a running user-exclusive job's node")
	}
}

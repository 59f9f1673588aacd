package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// allocDesc is an srun-style allocation request (no script) for one node.
func allocDesc() *wire.AllocateJobDesc {
	d := script("")
	d.Script = ""
	d.MinNodes = 1
	return &wire.AllocateJobDesc{Job: *d}
}

// allocInfo is srun's look at its allocation (MsgJobAllocInfo).
func (f *fixture) allocInfo(uid, id uint32) wire.JobAllocInfo {
	f.t.Helper()
	var info wire.JobAllocInfo
	if err := f.call(uid, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: id}, &info); err != nil {
		f.t.Fatalf("alloc info: %v", err)
	}
	return info
}

// TestAllocate_AnsweredStarted: on a cluster with free resources the allocation request is
// answered once the scheduling cycle that starts the job has run, so srun's first look finds
// the job RUNNING on its nodes (as Slurm's allocate RPC answers with the nodes) instead of
// PENDING and a poll interval to wait. sched_min_interval puts each allocation's cycle off
// after the previous release's cycle: answering before the cycle would be seen at once.
func TestAllocate_AnsweredStarted(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4, Extra: "SchedulerParameters=sched_min_interval=200000\n"})
	f.startNodes("n1", "n2")
	const uid = 1234
	for i := range 3 {
		var rep wire.AllocateJobReply
		if err := f.call(uid, wire.MsgAllocateJob, allocDesc(), &rep); err != nil {
			t.Fatalf("allocate %d: %v", i, err)
		}
		info := f.allocInfo(uid, rep.JobID)
		if st := states.JobState(info.State); !st.IsRunning() || len(info.Nodes) != 1 {
			t.Fatalf("allocation %d at srun's first look: state %v nodes %v; want RUNNING on one node",
				rep.JobID, st, info.Nodes)
		}
		if err := f.call(uid, wire.MsgCompleteJobAlloc, &wire.CompleteJobAlloc{JobID: rep.JobID}, nil); err != nil {
			t.Fatalf("release %d: %v", rep.JobID, err)
		}
	}
}

// TestAllocate_HeldAnsweredPending: an allocation that cannot start (held) is still answered
// (after the cycle that judged it), PENDING, for srun to wait on.
func TestAllocate_HeldAnsweredPending(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	f.startNodes("n1")
	d := allocDesc()
	d.Job.Hold = true
	var rep wire.AllocateJobReply
	if err := f.call(1234, wire.MsgAllocateJob, d, &rep); err != nil {
		t.Fatalf("allocate: %v", err)
	}
	if st := states.JobState(f.allocInfo(1234, rep.JobID).State); !st.IsPending() {
		t.Fatalf("held allocation: state %v, want PENDING", st)
	}
}

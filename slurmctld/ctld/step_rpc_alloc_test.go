package ctld_test

import (
	"strconv"
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
		if !rep.Started {
			t.Fatalf("allocation %d on an idle cluster answered as not started", rep.JobID)
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
	if st := states.JobState(f.allocInfo(1234, rep.JobID).State); !st.IsPending() || rep.Started {
		t.Fatalf("held allocation: state %v, answered started %v; want PENDING, not started", st, rep.Started)
	}
}

// TestAllocate_BehindHigherPriorityAnsweredQueued: as Slurm's _top_priority decides, an
// allocation with a runnable higher-priority job pending in its partition is not started by
// the allocate RPC: it is answered not started (srun and salloc then say "queued and waiting
// for resources") and the scheduler starts it afterwards, since it fits where the other job
// does not. A higher-priority job that is held or waits on a dependency does not count.
func TestAllocate_BehindHigherPriorityAnsweredQueued(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	f.startNodes("n1")
	held := script("sleep")
	held.Hold = true
	f.mustSubmit(held)
	dependent := script("sleep")
	dependent.Dependency = "afterok:" + strconv.Itoa(int(f.mustSubmit(held)))
	f.mustSubmit(dependent)

	var rep wire.AllocateJobReply
	if err := f.call(1234, wire.MsgAllocateJob, allocDesc(), &rep); err != nil {
		t.Fatalf("allocate: %v", err)
	}
	if !rep.Started {
		t.Fatalf("allocation behind only held and dependent jobs answered as not started")
	}

	big := script("sleep") // more CPUs than the partition has: pending, runnable by policy
	big.NumTasks = 100
	bigID := f.mustSubmit(big)
	f.waitReason(bigID, states.WaitPartConfig)
	var behind wire.AllocateJobReply
	if err := f.call(1234, wire.MsgAllocateJob, allocDesc(), &behind); err != nil {
		t.Fatalf("allocate: %v", err)
	}
	if behind.Started {
		t.Fatalf("allocation behind a higher-priority pending job answered as started")
	}
	f.waitState(behind.JobID, states.JobRunning)
}

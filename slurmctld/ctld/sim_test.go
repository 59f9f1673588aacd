package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

func simDesc(name string, nodes, limit uint32) *wire.JobDesc {
	return &wire.JobDesc{Name: name, MinNodes: nodes, MaxNodes: nodes, NumTasks: nodes, CPUsPerTask: 1,
		MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64, TimeLimit: limit, TimeMin: wire.NoVal,
		Priority: wire.NoVal, Shared: int32(jobspec.SharedNone), Requeue: -1, KillInvalid: -1, Script: "#!/bin/sh\n"}
}

// TestSim_VirtualTime drives the controller through a day of virtual time in no wall time:
// on 2 nodes, A (1 node, 1-minute limit, runs 100 s) is killed at its limit, TIMEOUT at 60;
// B (2 nodes) must wait for it and completes 60..70; C, submitted after B, asks for a
// partition that does not exist and is refused at submit, as sbatch would be. An hour later
// (past MinJobAge=300) both are purged from memory.
func TestSim_VirtualTime(t *testing.T) {
	cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=t\nSlurmctldHost=localhost\nSchedulerType=sched/builtin\n"+
		"NodeName=n[1-2] CPUs=1 State=UNKNOWN\nPartitionName=p Nodes=n[1-2] Default=YES MaxTime=UNLIMITED State=UP\n"))
	if err != nil {
		t.Fatal(err)
	}
	const t0 = 1_000_000_000
	sim, err := ctld.NewSim(cfg, ctld.SimOptions{Start: t0})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	a, err := sim.Submit(simDesc("A", 1, 1), 1000, 1000, 100, t0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.Submit(simDesc("B", 2, 10), 1000, 1000, 10, t0)
	if err != nil {
		t.Fatal(err)
	}
	bad := simDesc("C", 1, 10)
	bad.Partition = "nosuch"
	if _, err := sim.Submit(bad, 1000, 1000, 10, t0); err == nil {
		t.Error("a job for an unknown partition was accepted")
	}
	st, err := sim.Cycle(t0)
	if err != nil || len(st) != 1 || st[0].JobID != a || st[0].Start != t0 {
		t.Fatalf("first cycle started %+v (%v), want job %d at %d", st, err, a, t0)
	}
	next, ok := sim.NextEvent()
	if !ok || next != t0+60 {
		t.Fatalf("next event %d %v, want A's limit at %d", next, ok, t0+60)
	}
	ended, err := sim.Advance(next)
	if err != nil || len(ended) != 1 || ended[0] != (ctld.SimEnd{JobID: a, End: t0 + 60, State: "TIMEOUT"}) {
		t.Fatalf("at A's limit: %+v (%v)", ended, err)
	}
	if !sim.Wanted() {
		t.Error("a job end did not wake the scheduler")
	}
	st, err = sim.Cycle(next)
	if err != nil || len(st) != 1 || st[0].JobID != b || len(st[0].Nodes) != 2 {
		t.Fatalf("after A: started %+v (%v), want B on both nodes", st, err)
	}
	ended, err = sim.Advance(t0 + 70)
	if err != nil || len(ended) != 1 || ended[0] != (ctld.SimEnd{JobID: b, End: t0 + 70, State: "COMPLETED"}) {
		t.Fatalf("B's end: %+v (%v)", ended, err)
	}
	jobs := sim.Jobs()
	if len(jobs) != 2 || jobs[0].State != "TIMEOUT" || jobs[1].State != "COMPLETED" || jobs[1].Start != t0+60 {
		t.Errorf("jobs %+v", jobs)
	}
	if _, ok := sim.NextEvent(); ok {
		t.Error("an event is due with no job running")
	}
	if _, err := sim.Advance(t0 + 3600); err != nil {
		t.Fatal(err)
	}
	if jobs := sim.Jobs(); len(jobs) != 0 {
		t.Errorf("after MinJobAge the controller still holds %+v", jobs)
	}
}

package ctld_test

import (
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// shareJob submits a "sleep" job of tasks tasks to partition part, with --nodelist nodes
// and --exclusive (whole nodes) or --oversubscribe as shared says (jobspec.SharedUnset for
// neither).
func (f *fixture) shareJob(part string, minNodes, tasks uint32, nodes string, shared jobspec.Shared) uint32 {
	d := script("sleep 1000")
	d.Partition, d.ReqNodes, d.Shared = part, nodes, int32(shared)
	if minNodes > 0 {
		d.MinNodes = minNodes
	}
	if tasks > 0 {
		d.NumTasks = tasks
	}
	return f.mustSubmit(d)
}

// allocCPUs is each node's CPUAlloc as scontrol show node and sinfo's %C show it.
func (f *fixture) allocCPUs() map[string]uint32 {
	f.t.Helper()
	rep := new(wire.NodeInfoReply)
	if err := f.call(0, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, rep); err != nil {
		f.t.Fatal(err)
	}
	out := map[string]uint32{}
	for _, n := range rep.Nodes {
		out[n.Name] = n.AllocCPUs
	}
	return out
}

// TestOverSubscribe_ForceRows: under OverSubscribe=FORCE:2 two jobs may hold a CPU. As on
// the reference (four nodes of 64 CPUs): -n60 ran on n1, -n10 -w n1 on n[1-2] (n1's four
// idle CPUs, then n2), -n200 on n[1-4] (no room in idle CPUs nor in the first row: the
// second), -n60 on n3 (free in the first row); CPUAlloc was 64, 64, 64 and 8. A -n256 job
// then waits, and a job of another partition, which does not share, keeps off nodes where
// jobs share CPUs; when the second row empties, -n256 takes it.
func TestOverSubscribe_ForceRows(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 64,
		Extra: "PartitionName=share Nodes=ALL OverSubscribe=FORCE:2\nPartitionName=plain Nodes=n[1-2]\n"})
	f.startNodes("n1", "n2", "n3", "n4")
	var ids []uint32
	for _, c := range []struct {
		what  string
		tasks uint32
		nodes string
		want  string
	}{
		{"-n60", 60, "", "n1"},
		{"-n10 -w n1", 10, "n1", "n[1-2]"},
		{"-n200", 200, "", "n[1-4]"},
		{"-n60 again", 60, "", "n3"},
	} {
		id := f.shareJob("share", 0, c.tasks, c.nodes, jobspec.SharedUnset)
		ids = append(ids, id)
		if got := f.waitState(id, states.JobRunning); got.NodeList != c.want {
			t.Fatalf("%s runs on %s, want %s", c.what, got.NodeList, c.want)
		}
	}
	want := map[string]uint32{"n1": 64, "n2": 64, "n3": 64, "n4": 8}
	for name, cpus := range f.allocCPUs() {
		if cpus != want[name] {
			t.Errorf("%s CPUAlloc=%d, want %d", name, cpus, want[name])
		}
	}
	if st := f.nodeStates()["n4"]; st.Base() != states.NodeMixed {
		t.Errorf("n4 is %v, want MIXED", st)
	}
	big := f.shareJob("share", 0, 256, "", jobspec.SharedUnset)
	f.waitReason(big, states.WaitResources)
	plain := f.shareJob("plain", 0, 1, "", jobspec.SharedUnset)
	f.waitReason(plain, states.WaitResources)

	// Once the -n200 job has gone, its row is empty: -n256 takes it whole beside the first
	// row's 130 CPUs, and the plain job stays off the nodes where they share.
	f.kill(0, ids[2], 9)
	if got := f.waitState(big, states.JobRunning); got.NodeList != "n[1-4]" {
		t.Errorf("-n256 runs on %s", got.NodeList)
	}
	for name, cpus := range f.allocCPUs() {
		if cpus != 64 {
			t.Errorf("%s CPUAlloc=%d, want 64", name, cpus)
		}
	}
	if got := f.job(plain); !states.JobState(got.State).IsPending() {
		t.Errorf("the plain job started on %s, where jobs of partition share hold every CPU", got.NodeList)
	}
}

// TestOverSubscribe_ExclusiveAndYes: an --exclusive job under FORCE takes whole nodes of
// its row, not nodes nobody holds (reference: beside a -n1 job on n1, --exclusive -N4 ran on
// n[1-4], then --exclusive -N1 on n2 and -n64 on n3). Under YES:2 only --oversubscribe jobs
// share, and never with a job that does not (reference: a plain -n256 job kept an
// --oversubscribe -n256 one pending, Resources).
func TestOverSubscribe_ExclusiveAndYes(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 64,
		Extra: "PartitionName=force Nodes=ALL OverSubscribe=FORCE:2\nPartitionName=yes Nodes=ALL OverSubscribe=YES:2\n"})
	f.startNodes("n1", "n2", "n3", "n4")
	var ids []uint32
	for _, c := range []struct {
		what         string
		nodes, tasks uint32
		shared       jobspec.Shared
		want         string
	}{
		{"-n1", 0, 1, jobspec.SharedUnset, "n1"},
		{"--exclusive -N4", 4, 0, jobspec.SharedNone, "n[1-4]"},
		{"--exclusive -N1", 1, 0, jobspec.SharedNone, "n2"},
		{"-n64", 0, 64, jobspec.SharedUnset, "n3"},
	} {
		id := f.shareJob("force", c.nodes, c.tasks, "", c.shared)
		ids = append(ids, id)
		if got := f.waitState(id, states.JobRunning); got.NodeList != c.want {
			t.Fatalf("%s runs on %s, want %s", c.what, got.NodeList, c.want)
		}
	}
	for _, id := range ids {
		f.kill(0, id, 9)
		f.waitState(id, states.JobCancelled)
	}

	plain := f.shareJob("yes", 0, 256, "", jobspec.SharedUnset)
	f.waitState(plain, states.JobRunning)
	over := f.shareJob("yes", 0, 256, "", jobspec.SharedOK)
	if got := f.waitReason(over, states.WaitResources); got.OverSubscribe != "YES" {
		t.Errorf("--oversubscribe job shows OverSubscribe=%s", got.OverSubscribe)
	}
	f.kill(0, plain, 9)
	f.waitState(over, states.JobRunning)
	both := f.shareJob("yes", 0, 256, "", jobspec.SharedOK)
	f.waitState(both, states.JobRunning)
	third := f.shareJob("yes", 0, 1, "", jobspec.SharedOK)
	f.waitReason(third, states.WaitResources)
}

// TestOverSubscribe_Restart: jobs sharing CPUs under an OverSubscribe=FORCE:2 set with
// scontrol update share them again after a restart (the partition's override comes back
// after the jobs): two -n8 jobs on two nodes of 4 CPUs run, a third waits, and when one
// ends the third runs.
func TestOverSubscribe_Restart(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4})
	share := uint16(0x8000 | 2) // FORCE:2
	if err := f.call(0, wire.MsgUpdatePartition, &wire.UpdatePartitionRequest{Name: "debug", MaxShare: &share, MaxTime: wire.NoVal}, nil); err != nil {
		t.Fatal(err)
	}
	f.startNodes("n1", "n2")
	a := f.shareJob("", 0, 8, "", jobspec.SharedUnset)
	b := f.shareJob("", 0, 8, "", jobspec.SharedUnset)
	f.waitState(a, states.JobRunning)
	f.waitState(b, states.JobRunning)
	f.c.Close()
	g := &fixture{t: t, key: f.key, conf: f.conf}
	g.c = ctld.StartTest(t, f.conf)
	g.startNodes("n1", "n2")
	third := g.shareJob("", 0, 1, "", jobspec.SharedUnset)
	g.waitReason(third, states.WaitResources)
	for name, cpus := range g.allocCPUs() {
		if cpus != 4 {
			t.Errorf("%s CPUAlloc=%d after the restart, want 4", name, cpus)
		}
	}
	g.kill(0, a, 9)
	g.waitState(third, states.JobRunning)
}

package ctld_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

func (f *fixture) willRun(d *wire.JobDesc) (*wire.JobWillRunReply, error) {
	rep := new(wire.JobWillRunReply)
	err := f.call(0, wire.MsgJobWillRun, &wire.JobWillRunRequest{Job: *d}, rep)
	return rep, err
}

func wireErrno(err error) int32 {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Errno
	}
	return -1
}

// TestWillRun_AnswersWithoutSubmitting: sbatch --test-only on idle nodes starts now on the
// first node; the test stores no job but uses up the id the job would have had, as Slurm's
// job_allocate does; refusals carry a submission's errors.
func TestWillRun_AnswersWithoutSubmitting(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4, Now: func() time.Time { return now }})
	f.startNodes("n1", "n2")
	d := script("true")
	d.NumTasks = 2
	rep, err := f.willRun(d)
	if err != nil {
		t.Fatalf("will-run: %v", err)
	}
	if rep.StartTime != now.Unix() || rep.NodeList != "n1" || rep.ProcCnt != 2 || rep.Partition != "debug" {
		t.Errorf("will-run: %+v, want start %d on n1 with 2 CPUs in debug", rep, now.Unix())
	}
	again, err := f.willRun(script("true"))
	if err != nil || again.JobID != rep.JobID+1 {
		t.Errorf("second will-run: id %d (%v), want %d", again.JobID, err, rep.JobID+1)
	}
	if id := f.mustSubmit(script("true")); id != rep.JobID+2 {
		t.Errorf("submit after two tests got id %d, want %d", id, rep.JobID+2)
	}
	infos := new(wire.JobInfoReply)
	if err := f.call(0, wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{rep.JobID, again.JobID}}, infos); err == nil && len(infos.Jobs) != 0 {
		t.Errorf("a test left jobs behind: %+v", infos.Jobs)
	}

	bad := script("true")
	bad.Partition = "nosuch"
	if _, err := f.willRun(bad); wireErrno(err) != 2000 {
		t.Errorf("invalid partition: %v, want errno 2000", err)
	}
	wide := script("true")
	wide.MinNodes = 3
	if _, err := f.willRun(wide); wireErrno(err) != 2014 {
		t.Errorf("3 nodes of 2: %v, want errno 2014 (Requested node configuration is not available)", err)
	}
	big := script("true")
	big.NumTasks = 9
	if _, err := f.willRun(big); wireErrno(err) != 2014 {
		t.Errorf("9 CPUs of 8: %v, want errno 2014", err)
	}
}

// TestWillRun_BusyNodesBeginAndQueue: with the nodes busy the answer is the end of the
// running job whose end frees room; a begin time is the earliest start; pending jobs of at
// least the tested job's priority push the start by their CPU-minutes over the partition's
// CPUs (Slurm's _delayed_job_start_time).
func TestWillRun_BusyNodesBeginAndQueue(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4, Now: func() time.Time { return now }})
	f.startNodes("n1", "n2")
	long := script("sleep 1000")
	long.NumTasks, long.TimeLimit = 4, 30
	short := script("sleep 1000")
	short.NumTasks, short.TimeLimit = 4, 10
	f.waitState(f.mustSubmit(long), states.JobRunning)  // n1 until now+30min
	f.waitState(f.mustSubmit(short), states.JobRunning) // n2 until now+10min

	d := script("true")
	d.NumTasks = 3
	rep, err := f.willRun(d)
	if err != nil {
		t.Fatalf("will-run: %v", err)
	}
	if rep.StartTime != now.Unix()+600 || rep.NodeList != "n2" || rep.ProcCnt != 3 {
		t.Errorf("busy nodes: %+v, want start %d on n2 with 3 CPUs", rep, now.Unix()+600)
	}
	d.NumTasks = 8
	if rep, err = f.willRun(d); err != nil || rep.StartTime != now.Unix()+1800 || rep.NodeList != "n[1-2]" {
		t.Errorf("both nodes: %+v %v, want start %d on n[1-2]", rep, err, now.Unix()+1800)
	}

	later := script("true")
	later.NumTasks = 3
	later.BeginTime = now.Unix() + 7200
	if rep, err = f.willRun(later); err != nil || rep.StartTime != later.BeginTime {
		t.Errorf("begin time: %+v %v, want start %d", rep, err, later.BeginTime)
	}

	// A pending job ahead (5 minutes on one node of 4 CPUs = 20 CPU-minutes over 8 CPUs,
	// 2 minutes in Slurm's integer arithmetic) delays the answer by 120 s.
	ahead := script("true")
	ahead.TimeLimit = 5
	ahead.BeginTime = now.Unix() + 3600
	f.mustSubmit(ahead)
	d.NumTasks = 3
	if rep, err = f.willRun(d); err != nil || rep.StartTime != now.Unix()+600+120 {
		t.Errorf("queue ahead: %+v %v, want start %d", rep, err, now.Unix()+600+120)
	}
}

// TestWillRun_UnholdableWithoutExplanation: a test of a job asking memory, --tmp or CPUs per
// node no node has is refused as any job no node can hold, without the explanation a
// submission gets ("sbatch: error: ... can not be satisfied"): Slurm finds these while
// placing a job, which a test does not do through the submission path.
func TestWillRun_UnholdableWithoutExplanation(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4, RealMemory: 1000})
	mem, tmp, cpus := script("true"), script("true"), script("true")
	mem.MemPerNode, tmp.TmpDiskMB, cpus.MinCPUs = 2000, 10, 8
	for name, d := range map[string]*wire.JobDesc{"--mem": mem, "--tmp": tmp, "--mincpus": cpus} {
		_, err := f.willRun(d)
		var we *wire.Error
		if !errors.As(err, &we) || we.Errno != 2014 || we.UserMsg != "" {
			t.Errorf("test of %s no node has: %#v, want errno 2014 and no explanation", name, err)
		}
	}
}

// TestWillRun_NodeChoice: --test-only chooses nodes as the scheduler's selection does
// (select/cons_tres's): beside a job leaving n1 one CPU, a plain -n job that one node can
// hold is answered with the smallest node that holds it (n2, first of the equals), not with
// n1 and n2 in order; a job no single node holds fills nodes in order.
func TestWillRun_NodeChoice(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 3, CPUs: 4})
	f.startNodes("n1", "n2", "n3")
	busy := script("sleep 1000")
	busy.NumTasks = 3
	f.waitState(f.mustSubmit(busy), states.JobRunning)
	for _, c := range []struct {
		tasks uint32
		nodes string
	}{{4, "n2"}, {5, "n[1-2]"}} {
		d := script("true")
		d.NumTasks = c.tasks
		rep, err := f.willRun(d)
		if err != nil || rep.NodeList != c.nodes {
			t.Errorf("-n%d: %q (%v), want %s", c.tasks, rep.NodeList, err, c.nodes)
		}
	}
}

// TestWillRun_NamedNodes: a job naming nodes is tested on those nodes alone (Slurm's
// job_start_data): -N2 -w n2 cannot start ("Requested node configuration is not
// available"), where its submission would run on n[2-3]; -n4 -w n2 starts on n2. Matched
// on the reference with four nodes.
func TestWillRun_NamedNodes(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 3, CPUs: 4})
	f.startNodes("n1", "n2", "n3")
	d := script("true")
	d.MinNodes, d.NumTasks, d.ReqNodes = 2, 2, "n2"
	if rep, err := f.willRun(d); err == nil || !strings.Contains(err.Error(), "Requested node configuration is not available") {
		t.Errorf("-N2 -w n2: %+v %v, want refused", rep, err)
	}
	d.MinNodes, d.NumTasks = 1, 4
	if rep, err := f.willRun(d); err != nil || rep.NodeList != "n2" {
		t.Errorf("-n4 -w n2: %+v %v, want n2", rep, err)
	}
	run := script("sleep 1000") // still running when looked at
	run.MinNodes, run.NumTasks, run.ReqNodes = 2, 2, "n2"
	id := f.mustSubmit(run)
	if j := f.waitState(id, states.JobRunning); j.NodeList != "n[2-3]" {
		t.Errorf("-N2 -w n2 submitted: runs on %s, want n[2-3] (up from the named node)", j.NodeList)
	}
}

// TestWillRun_EndsWithinWindow: running jobs ending within 30 s of one another end together
// in the answer (Slurm's _will_run_test time_window): beside two jobs ending 10 s apart on
// n1 and n2, a two-node job is answered with both nodes at the later end, not with n1 and
// n3 at the earlier one; a job without a time limit ends a year after its start.
func TestWillRun_EndsWithinWindow(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 3, CPUs: 4, Now: clk.now})
	f.startNodes("n1", "n2", "n3")
	first := script("sleep 1000")
	first.NumTasks, first.TimeLimit = 4, 10
	a := f.waitState(f.mustSubmit(first), states.JobRunning) // n1
	clk.advance(10 * time.Second)
	b := f.waitState(f.mustSubmit(first), states.JobRunning) // n2, ends 10 s later
	if a.NodeList != "n1" || b.NodeList != "n2" {
		t.Fatalf("running on %s and %s; want n1 and n2", a.NodeList, b.NodeList)
	}
	d := script("true")
	d.MinNodes, d.NumTasks = 2, 8
	rep, err := f.willRun(d)
	if err != nil || rep.StartTime != b.StartTime+600 || rep.NodeList != "n[1-2]" {
		t.Errorf("two nodes: %+v %v, want start %d (the later end) on n[1-2]", rep, err, b.StartTime+600)
	}
	forever := script("sleep 1000")
	forever.NumTasks = 4
	c := f.waitState(f.mustSubmit(forever), states.JobRunning) // n3, no time limit
	d.MinNodes, d.NumTasks = 3, 12
	if rep, err = f.willRun(d); err != nil || c.NodeList != "n3" || rep.StartTime != c.StartTime+365*24*3600 {
		t.Errorf("three nodes: %+v %v, want start %d (a year after the unlimited job's start)", rep, err, c.StartTime+365*24*3600)
	}
}

// TestWillRun_ZeroNodes: a batch job's -N0, which a submission refuses, is tested as Slurm
// tests it: alone, as a job of no nodes that could start now ("using 0 processors on nodes
// in partition debug"); with tasks, as one node. An allocation's -N0 is refused.
func TestWillRun_ZeroNodes(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4, Now: func() time.Time { return now }})
	f.startNodes("n1", "n2")
	d := script("true")
	d.MinNodes, d.MaxNodes = 0, 0
	rep, err := f.willRun(d)
	if err != nil || rep.StartTime != now.Unix() || rep.ProcCnt != 0 || rep.NodeList != "" || rep.Partition != "debug" {
		t.Errorf("-N0: %+v %v, want a start now on no nodes in debug", rep, err)
	}
	d.NumTasks = 2
	if rep, err = f.willRun(d); err != nil || rep.NodeList != "n1" || rep.ProcCnt != 2 {
		t.Errorf("-N0 -n2: %+v %v, want 2 CPUs on n1", rep, err)
	}
	d.Script = "" // srun --test-only
	if _, err := f.willRun(d); wireErrno(err) != 2006 {
		t.Errorf("srun -N0: %v, want errno 2006 (Node count specification invalid)", err)
	}
}

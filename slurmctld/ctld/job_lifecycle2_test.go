package ctld_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// jobs returns every record of job or array id.
func (f *fixture) jobs(id uint32) []wire.JobInfo {
	f.t.Helper()
	rep := new(wire.JobInfoReply)
	if err := f.call(0, wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{id}}, rep); err != nil {
		f.t.Fatalf("job info: %v", err)
	}
	return rep.Jobs
}

func (f *fixture) update(uid, id, task uint32, action uint16) *wire.UpdateJobReply {
	f.t.Helper()
	rep := new(wire.UpdateJobReply)
	if err := f.call(uid, wire.MsgUpdateJob, &wire.UpdateJobRequest{JobID: id, ArrayTaskID: task, Action: action}, rep); err != nil {
		f.t.Fatalf("update: %v", err)
	}
	return rep
}

// waitFor polls cond until it holds.
func (f *fixture) waitFor(what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestArray_SubmitErrors(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, Extra: "MaxArraySize=100\n"})
	for _, spec := range []string{"1-100", "5-2", "x", "1-9:0", "%2"} {
		d := script("true")
		d.ArraySpec = spec
		_, err := f.submit(0, d)
		if err == nil || !strings.Contains(err.Error(), "Invalid job array specification") {
			t.Errorf("--array=%s: err %v, want Invalid job array specification", spec, err)
		}
	}
}

func TestArray_SplitThrottleAndIDs(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4})
	d := script("sleep 100")
	d.ArraySpec = "1-9:2%2"
	id := f.mustSubmit(d)
	j := f.waitReason(id, states.WaitResources)
	if j.ArrayJobID != id || j.ArrayTaskID != wire.NoVal || j.ArrayTaskStr != "1,3,5,7,9%2" || j.ArrayMaxTasks != 2 {
		t.Fatalf("array record: %d %d %q %d", j.ArrayJobID, j.ArrayTaskID, j.ArrayTaskStr, j.ArrayMaxTasks)
	}
	f.startNodes("n1", "n2")
	// Two tasks start, each split off with the next job id; the rest waits on the throttle.
	j = f.waitReason(id, states.WaitArrayTaskLimit)
	if j.ArrayTaskStr != "5,7,9%2" {
		t.Errorf("array record after two starts: %q, want 5,7,9%%2", j.ArrayTaskStr)
	}
	var got [][2]uint32
	for _, r := range f.jobs(id) {
		if r.JobID != id {
			got = append(got, [2]uint32{r.JobID, r.ArrayTaskID})
		}
	}
	if want := [][2]uint32{{id + 1, 1}, {id + 2, 3}}; !slices.Equal(got, want) {
		t.Errorf("tasks (job id, index): %v, want %v", got, want)
	}
	// Cancel one pending task alone, then one running task: the throttle lets 5 start.
	if rep := f.killTask(id, 7); rep.Errno != 0 {
		t.Fatalf("cancel %d_7: %s", id, rep.Text)
	}
	if rep := f.killTask(id, 1); rep.Errno != 0 {
		t.Fatalf("cancel %d_1: %s", id, rep.Text)
	}
	f.waitFor("task 5 running", func() bool {
		for _, r := range f.jobs(id) {
			if r.ArrayTaskID == 5 && states.JobState(r.State) == states.JobRunning {
				return true
			}
		}
		return false
	})
	// The cancelled pending index left the array's list with no record of its own, as
	// Slurm's job_str_signal clears its bit.
	for _, r := range f.jobs(id) {
		if r.ArrayTaskID == 7 || r.JobID == id && r.ArrayTaskStr != "9%2" {
			t.Errorf("after cancelling pending task 7: record %d index %d %q", r.JobID, r.ArrayTaskID, r.ArrayTaskStr)
		}
	}
	// The environment of a task: the controller adds COUNT/MIN/MAX/STEP.
	// Whole array cancel: every record ends; the last pending index keeps the array id.
	if rep := f.kill(0, id, 0); rep.Errno != 0 {
		t.Fatalf("cancel array: %s", rep.Text)
	}
	f.waitFor("every task ended", func() bool {
		for _, r := range f.jobs(id) {
			if !states.JobState(r.State).IsFinished() || states.JobState(r.State).IsCompleting() {
				return false
			}
		}
		return true
	})
}

func (f *fixture) killTask(id, task uint32) *wire.KillJobReply {
	f.t.Helper()
	rep := new(wire.KillJobReply)
	if err := f.call(0, wire.MsgKillJob, &wire.KillJobRequest{JobID: id, ArrayTaskID: task}, rep); err != nil {
		f.t.Fatalf("kill: %v", err)
	}
	return rep
}

func TestArray_LastTaskKeepsArrayID(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	f.startNodes("n1")
	d := script("true")
	d.ArraySpec = "0-2"
	id := f.mustSubmit(d)
	f.waitFor("three completed tasks", func() bool {
		n := 0
		for _, r := range f.jobs(id) {
			if states.JobState(r.State) == states.JobComplete {
				n++
			}
		}
		return n == 3
	})
	byIdx := map[uint32]uint32{}
	for _, r := range f.jobs(id) {
		byIdx[r.ArrayTaskID] = r.JobID
	}
	if byIdx[2] != id || byIdx[0] == id || byIdx[1] == id {
		t.Errorf("task ids %v: want the last task (2) to keep the array id %d", byIdx, id)
	}
}

// TestArray_CancelEveryPendingTask: cancelling an array's pending tasks one by one makes no
// record for any of them; when the last goes, the array's record itself is CANCELLED with
// no task index (Slurm 22.05's reference shows ArrayTaskId=4294967294 and squeue the bare id).
func TestArray_CancelEveryPendingTask(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	d := script("true")
	d.ArraySpec = "0-2"
	d.Hold = true
	id := f.mustSubmit(d)
	for _, task := range []uint32{0, 2, 1} {
		if rep := f.killTask(id, task); rep.Errno != 0 {
			t.Fatalf("cancel %d_%d: %s", id, task, rep.Text)
		}
		if rep := f.killTask(id, task); rep.Errno != 2017 {
			t.Errorf("cancel %d_%d again: errno %d, want 2017 (no such task)", id, task, rep.Errno)
		}
	}
	recs := f.jobs(id)
	if len(recs) != 1 || recs[0].JobID != id || states.JobState(recs[0].State) != states.JobCancelled ||
		recs[0].ArrayTaskID != wire.NoVal || recs[0].ArrayTaskStr != "" {
		t.Errorf("records after cancelling every task: %+v", recs)
	}
}

func TestDependency_ReasonsAndText(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	f.startNodes("n1")
	run := f.mustSubmit(script("sleep 100"))
	failed := f.mustSubmit(script("exit 2"))
	f.waitState(run, states.JobRunning)
	f.waitState(failed, states.JobFailed)
	tests := []struct {
		dep    string
		reason states.Reason
		text   string
	}{
		{"afterok:%R", states.WaitDependency, "afterok:%R(unfulfilled)"},
		{"afterok:%F", states.WaitDepInvalid, "afterok:%F(failed)"},
		{"afterany:%R:%F", states.WaitDependency, "afterany:%R(unfulfilled)"},
		{"after:%R+5", states.WaitDependency, "after:%R+5(unfulfilled)"},
		{"afternotok:%R?afterok:%F", states.WaitDependency, "afternotok:%R(unfulfilled)?afterok:%F(failed)"},
		{"%R", states.WaitDependency, "afterany:%R(unfulfilled)"},
		{"afternotok:%F", states.WaitNoReason, ""},
		{"afterok:999999", states.WaitNoReason, ""},
	}
	r := strings.NewReplacer("%R", itoa(run), "%F", itoa(failed))
	for _, tt := range tests {
		d := script("sleep 100")
		d.Name = "dep"
		d.Dependency = r.Replace(tt.dep)
		id := f.mustSubmit(d)
		if tt.reason == states.WaitNoReason {
			f.waitState(id, states.JobRunning) // satisfied: it runs beside the sleeper
		} else {
			f.waitReason(id, tt.reason)
		}
		if j := f.job(id); j.Dependency != r.Replace(tt.text) {
			t.Errorf("%s: Dependency=%q, want %q", d.Dependency, j.Dependency, r.Replace(tt.text))
		}
		f.kill(0, id, 0)
	}
	// An unmet dependency is the reason before a begin time still ahead (Slurm's
	// job_independent tests it first; matched on the reference).
	later := script("true")
	later.Dependency, later.BeginTime = "afterany:"+itoa(run), time.Now().Unix()+3600
	f.waitReason(f.mustSubmit(later), states.WaitDependency)
	// --kill-on-invalid-dep=yes cancels instead.
	d := script("true")
	d.Dependency = "afterok:" + itoa(failed)
	d.KillInvalid = 1
	id := f.mustSubmit(d)
	j := f.waitState(id, states.JobCancelled)
	if states.Reason(j.Reason) != states.WaitDepInvalid {
		t.Errorf("kill-on-invalid-dep: reason %s", states.Reason(j.Reason))
	}
	// A dependent job runs once its parent completes.
	child := script("true")
	child.Dependency = "afterok:" + itoa(run)
	cid := f.mustSubmit(child)
	f.waitReason(cid, states.WaitDependency)
	f.kill(0, run, 0) // cancelled: afterok can never be met
	f.waitReason(cid, states.WaitDepInvalid)
	ok := f.mustSubmit(script("true"))
	f.waitState(ok, states.JobComplete)
	child2 := script("true")
	child2.Dependency = "afterok:" + itoa(ok)
	f.waitState(f.mustSubmit(child2), states.JobComplete)
	if _, err := f.submit(0, func() *wire.JobDesc { d := script("true"); d.Dependency = "afterfoo:1"; return d }()); err == nil || !strings.Contains(err.Error(), "Job dependency problem") {
		t.Errorf("bad dependency: %v", err)
	}
}

func TestDependency_ArrayTasksAndSingleton(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	d := script("sleep 100")
	d.ArraySpec = "1-3"
	arr := f.mustSubmit(d)
	for _, tt := range []struct{ dep, text string }{
		{"afterok:%A_*", "afterok:%A_*(unfulfilled)"},
		{"afterok:%A_2", "afterok:%A_2(unfulfilled)"},
		{"aftercorr:%A", "aftercorr:%A_*(unfulfilled)"},
		{"afterany:%A", "afterany:%A_*(unfulfilled)"},
	} {
		c := script("true")
		c.Dependency = strings.ReplaceAll(tt.dep, "%A", itoa(arr))
		id := f.mustSubmit(c)
		j := f.waitReason(id, states.WaitDependency)
		if want := strings.ReplaceAll(tt.text, "%A", itoa(arr)); j.Dependency != want {
			t.Errorf("%s: Dependency=%q, want %q", c.Dependency, j.Dependency, want)
		}
	}
	a := script("sleep 100")
	a.Name = "solo"
	first := f.mustSubmit(a)
	second := f.mustSubmit(func() *wire.JobDesc { d := script("true"); d.Name = "solo"; d.Dependency = "singleton"; return d }())
	j := f.waitReason(second, states.WaitDependency)
	if j.Dependency != "singleton(unfulfilled)" {
		t.Errorf("singleton: %q", j.Dependency)
	}
	f.kill(0, first, 0)
	f.startNodes("n1")
	f.waitState(second, states.JobComplete)
}

func TestHold_ReleaseUserAdmin(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	d := script("true")
	d.BeginTime = time.Now().Add(time.Hour).Unix()
	id := f.mustSubmit(d)
	f.waitReason(id, states.WaitTime)
	prio := f.job(id).Priority
	steps := []struct {
		uid    uint32
		action uint16
		errno  int32
		reason states.Reason
	}{
		{0, wire.JobActionHold, 0, states.WaitHeld},
		{0, wire.JobActionRelease, 0, states.WaitTime},
		{0, wire.JobActionUserHold, 0, states.WaitHeldUser},
		{4242, wire.JobActionRelease, 2010, states.WaitHeldUser},
		{0, wire.JobActionRequeue, 2024, states.WaitHeldUser},
		{0, wire.JobActionRelease, 0, states.WaitTime},
	}
	for i, s := range steps {
		rep := f.update(s.uid, id, wire.NoVal, s.action)
		if rep.Errno != s.errno {
			t.Fatalf("step %d: errno %d %q, want %d", i, rep.Errno, rep.Text, s.errno)
		}
		f.waitReason(id, s.reason)
	}
	if j := f.job(id); j.Priority == 0 || j.Priority >= prio {
		t.Errorf("released job priority %d, want a new one below %d", j.Priority, prio)
	}
	if rep := f.update(0, 999999, wire.NoVal, wire.JobActionHold); rep.Errno != 2017 {
		t.Errorf("hold of unknown job: %d", rep.Errno)
	}
	// One pending array task held alone is split off.
	a := script("true")
	a.ArraySpec = "1-3"
	a.Hold = true
	arr := f.mustSubmit(a)
	if rep := f.update(0, arr, wire.NoVal, wire.JobActionRelease); rep.Errno != 0 {
		t.Fatalf("release array: %s", rep.Text)
	}
	if rep := f.update(0, arr, 2, wire.JobActionHold); rep.Errno != 0 {
		t.Fatalf("hold %d_2: %s", arr, rep.Text)
	}
	var held []uint32
	for _, r := range f.jobs(arr) {
		if r.Priority == 0 {
			held = append(held, r.ArrayTaskID)
		}
	}
	if !slices.Equal(held, []uint32{2}) {
		t.Errorf("held tasks %v, want [2]", held)
	}
}

func TestRequeue_RunningAndNodeFail(t *testing.T) {
	clk := &fakeClock{}
	f := newFixture(t, ctld.TestConfig{Nodes: 2, Now: clk.now, Extra: "SlurmdTimeout=10\n"})
	f.startNodes("n1", "n2")
	id := f.mustSubmit(script("sleep 100"))
	f.waitState(id, states.JobRunning)
	if rep := f.update(0, id, wire.NoVal, wire.JobActionRequeue); rep.Errno != 0 {
		t.Fatalf("requeue: %s", rep.Text)
	}
	j := f.waitState(id, states.JobPending) // COMPLETING first, until the node reports the end
	if states.Reason(j.Reason) != states.WaitTime || j.Restarts != 1 || j.NodeList != "" || j.EligibleTime < j.SubmitTime+120 {
		t.Errorf("requeued: restarts %d nodes %q eligible %d submit %d", j.Restarts, j.NodeList, j.EligibleTime, j.SubmitTime)
	}
	clk.advance(122 * time.Second)
	f.node.register("n1", nil) // keep the nodes alive across the jump
	f.node.register("n2", nil)
	f.waitState(id, states.JobRunning)
	// --no-requeue refuses.
	d := script("sleep 100")
	d.Requeue = 0
	nr := f.mustSubmit(d)
	f.waitState(nr, states.JobRunning)
	if rep := f.update(0, nr, wire.NoVal, wire.JobActionRequeue); rep.Errno != 2037 || rep.Text != "Requested operation is presently disabled" {
		t.Errorf("requeue of --no-requeue: %d %q", rep.Errno, rep.Text)
	}
	// The nodes fall silent: the requeueable job is requeued, the other fails.
	clk.advance(11 * time.Second)
	j = f.waitState(id, states.JobPending)
	if j.Restarts != 2 || states.Reason(j.Reason) != states.WaitTime {
		t.Errorf("node-fail requeue: restarts %d, want 2", j.Restarts)
	}
	f.waitState(nr, states.JobNodeFail)
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

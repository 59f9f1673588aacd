package ctld_test

import (
	"slices"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

func TestSubmit_PendingRunningCompleted(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4})
	d := script("echo hi")
	d.Name = "hello"
	id := f.mustSubmit(d)
	// No node has registered yet: the job waits for resources.
	j := f.waitReason(id, states.WaitResources)
	if j.Partition != "debug" || j.NumNodes != 1 || j.NumCPUs != 1 || j.TimeLimit != wire.Infinite || j.Name != "hello" {
		t.Errorf("pending job: partition %q nodes %d cpus %d limit %d name %q", j.Partition, j.NumNodes, j.NumCPUs, j.TimeLimit, j.Name)
	}
	if j.UserName != "root" || j.SubmitTime == 0 || j.StartTime != 0 {
		t.Errorf("pending job: user %q submit %d start %d", j.UserName, j.SubmitTime, j.StartTime)
	}
	f.startNodes("n1", "n2")
	j = f.waitState(id, states.JobComplete)
	if j.NodeList != "n1" || j.BatchHost != "n1" || j.ExitCode != 0 || j.NumCPUs != 1 {
		t.Errorf("completed job: nodes %q batch host %q exit %d cpus %d", j.NodeList, j.BatchHost, j.ExitCode, j.NumCPUs)
	}
	if j.StartTime == 0 || j.EndTime < j.StartTime || states.Reason(j.Reason) != states.WaitNoReason {
		t.Errorf("completed job: start %d end %d reason %s", j.StartTime, j.EndTime, states.Reason(j.Reason))
	}
}

func TestSubmit_ExitCodes(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	f.startNodes("n1")
	tests := []struct {
		body   string
		state  states.JobState
		exit   uint32
		reason states.Reason
	}{
		{"true", states.JobComplete, 0, states.WaitNoReason},
		{"exit 3", states.JobFailed, 3 << 8, states.FailExitCode},
	}
	for _, tt := range tests {
		id := f.mustSubmit(script(tt.body))
		j := f.waitState(id, tt.state)
		if j.ExitCode != tt.exit || states.Reason(j.Reason) != tt.reason {
			t.Errorf("%q: exit %#x reason %s, want %#x %s", tt.body, j.ExitCode, states.Reason(j.Reason), tt.exit, tt.reason)
		}
	}
}

func TestSched_FIFOOrderAndReasons(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 4})
	f.startNodes("n1")
	big := func() *wire.JobDesc { d := script("sleep 100"); d.NumTasks = 4; return d }
	a := f.mustSubmit(big())
	f.waitState(a, states.JobRunning)
	b := f.mustSubmit(big())
	small := script("sleep 100")
	c := f.mustSubmit(small)
	// b waits for resources; c would fit beside nothing (a holds every CPU) and must not pass b.
	f.waitReason(b, states.WaitResources)
	f.waitReason(c, states.WaitPriority)
	if jb, jc := f.job(b), f.job(c); jb.Priority <= jc.Priority {
		t.Errorf("priorities: earlier job %d, later job %d; want the earlier higher", jb.Priority, jc.Priority)
	}
	if rep := f.kill(0, a, 0); rep.Errno != 0 {
		t.Fatalf("cancel running %d: %d %s", a, rep.Errno, rep.Text)
	}
	ja := f.waitState(a, states.JobCancelled)
	if ja.ExitCode != 15 {
		t.Errorf("cancelled running job exit %#x, want 0:15", ja.ExitCode)
	}
	f.waitState(b, states.JobRunning)
	f.waitReason(c, states.WaitResources)
	// RUNNING is the controller's decision; the launch reaches the node a moment later, and a
	// job cancelled before that is never launched.
	f.waitFor("the launch of the second job", func() bool { return slices.Contains(f.node.launches(), b) })
	f.kill(0, b, 0)
	f.waitState(c, states.JobRunning)
	f.waitFor("the launch of the third job", func() bool { return slices.Contains(f.node.launches(), c) })
	if got, want := f.node.launches(), []uint32{a, b, c}; !slices.Equal(got, want) {
		t.Errorf("launch order %v, want %v", got, want)
	}
}

func TestSelect_NodesTasksExclusive(t *testing.T) {
	tests := []struct {
		name     string
		set      func(d *wire.JobDesc)
		nodes    string
		cpus     []uint32
		numNodes uint32
	}{
		{"one task", func(d *wire.JobDesc) {}, "n1", []uint32{1}, 1},
		{"ntasks fill a node first", func(d *wire.JobDesc) { d.NumTasks = 6 }, "n[1-2]", []uint32{4, 2}, 2},
		{"nodes spread tasks", func(d *wire.JobDesc) { d.MinNodes = 3 }, "n[1-3]", []uint32{1, 1, 1}, 3},
		{"cpus per task", func(d *wire.JobDesc) { d.NumTasks = 2; d.CPUsPerTask = 3 }, "n[1-2]", []uint32{3, 3}, 2},
		{"nodelist", func(d *wire.JobDesc) { d.ReqNodes = "n3" }, "n3", []uint32{1}, 1},
		{"exclude", func(d *wire.JobDesc) { d.ExcNodes = "n[1-2]" }, "n3", []uint32{1}, 1},
		{"exclusive", func(d *wire.JobDesc) { d.Shared = 1 }, "n1", []uint32{4}, 1},
		{"ntasks-per-node", func(d *wire.JobDesc) { d.NumTasks = 4; d.NTasksPerNode = 2 }, "n[1-2]", []uint32{2, 2}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, ctld.TestConfig{Nodes: 4, CPUs: 4})
			f.startNodes("n1", "n2", "n3", "n4")
			d := script("sleep 100")
			tt.set(d)
			id := f.mustSubmit(d)
			j := f.waitState(id, states.JobRunning)
			if j.NodeList != tt.nodes || !slices.Equal(j.CPUsPerNode, tt.cpus) || j.NumNodes != tt.numNodes {
				t.Errorf("nodes %q cpus %v num %d, want %q %v %d", j.NodeList, j.CPUsPerNode, j.NumNodes, tt.nodes, tt.cpus, tt.numNodes)
			}
		})
	}
}

func TestSubmit_Validation(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 2, CPUs: 4, RealMemory: 1000,
		Extra: "PartitionName=short Nodes=n1 MaxTime=10 State=UP\n"})
	tests := []struct {
		name  string
		set   func(d *wire.JobDesc)
		errno int32
		text  string
	}{
		{"unknown partition", func(d *wire.JobDesc) { d.Partition = "nope" }, 2000, "Invalid partition name specified"},
		{"unknown node", func(d *wire.JobDesc) { d.ReqNodes = "n9" }, 2018, "Invalid node name specified"},
		{"node outside partition", func(d *wire.JobDesc) { d.Partition = "short"; d.ReqNodes = "n2" }, 2004, "Requested nodes not in this partition"},
		{"no script", func(d *wire.JobDesc) { d.Script = "" }, 2009, "Job script not specified"},
		// Slurm 22.05 refuses it in select_nodes: ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE with
		// "Memory specification can not be satisfied" as the explanation (UserMsg).
		{"too much memory", func(d *wire.JobDesc) { d.MemPerNode = 2000 }, 2014, "Requested node configuration is not available"},
		{"max below min nodes", func(d *wire.JobDesc) { d.MinNodes = 3; d.MaxNodes = 2 }, 2006, "Node count specification invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := script("true")
			tt.set(d)
			_, err := f.submit(0, d)
			we, ok := err.(*wire.Error)
			if !ok || we.Errno != tt.errno || we.Text != tt.text {
				t.Errorf("error %v, want %d %q", err, tt.errno, tt.text)
			}
			if ok && tt.name == "too much memory" && we.UserMsg != "Memory specification can not be satisfied" {
				t.Errorf("explanation %q", we.UserMsg)
			}
		})
	}
	// Accepted, but pending for a reason of their own (EnforcePartLimits=NO, as the reference).
	pend := []struct {
		name   string
		set    func(d *wire.JobDesc)
		reason states.Reason
	}{
		{"time over partition MaxTime", func(d *wire.JobDesc) { d.Partition = "short"; d.TimeLimit = 20 }, states.WaitPartTimeLimit},
		{"more nodes than the partition", func(d *wire.JobDesc) { d.MinNodes = 3 }, states.WaitPartNodeLimit},
		{"more CPUs than the partition", func(d *wire.JobDesc) { d.NumTasks = 9 }, states.WaitPartConfig},
		{"begin later", func(d *wire.JobDesc) { d.BeginTime = 4102444800 }, states.WaitTime},
		{"held", func(d *wire.JobDesc) { d.Hold = true }, states.WaitHeldUser},
	}
	for _, tt := range pend {
		t.Run(tt.name, func(t *testing.T) {
			d := script("true")
			tt.set(d)
			id, err := f.submit(0, d)
			if err != nil {
				t.Fatalf("submit: %v", err)
			}
			f.waitReason(id, tt.reason)
		})
	}
}

func TestKill_PendingRunningErrorsPermission(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1, CPUs: 1})
	f.startNodes("n1")
	const user = 12345
	run, err := f.submit(user, script("sleep 100"))
	if err != nil {
		t.Fatal(err)
	}
	f.waitState(run, states.JobRunning)
	pend, err := f.submit(user, script("sleep 100"))
	if err != nil {
		t.Fatal(err)
	}
	f.waitReason(pend, states.WaitResources)

	// Another user may not cancel; the owner may.
	if rep := f.kill(user+1, pend, 0); rep.Errno != 2002 || rep.Text != "Access/permission denied" {
		t.Errorf("stranger cancel: %d %q, want 2002", rep.Errno, rep.Text)
	}
	if rep := f.kill(user, pend, 0); rep.Errno != 0 {
		t.Errorf("owner cancel pending: %d %q", rep.Errno, rep.Text)
	}
	j := f.waitState(pend, states.JobCancelled)
	if j.EndTime == 0 || j.StartTime != j.EndTime || j.NodeList != "" {
		t.Errorf("cancelled pending job: start %d end %d nodes %q", j.StartTime, j.EndTime, j.NodeList)
	}
	if rep := f.kill(user, pend, 0); rep.Errno != 2021 || rep.Text != "Job/step already completing or completed" {
		t.Errorf("cancel finished: %d %q, want 2021", rep.Errno, rep.Text)
	}
	if rep := f.kill(user, 999999, 0); rep.Errno != 2017 || rep.Text != "Invalid job id specified" {
		t.Errorf("cancel unknown: %d %q, want 2017", rep.Errno, rep.Text)
	}
	// root cancels the running job.
	if rep := f.kill(0, run, 0); rep.Errno != 0 {
		t.Errorf("root cancel running: %d %q", rep.Errno, rep.Text)
	}
	f.waitState(run, states.JobCancelled)
}

func TestRecovery_JobsSurviveRestart(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	var ids []uint32
	for range 5 {
		ids = append(ids, f.mustSubmit(script("true")))
	}
	f.c.Close()
	g := &fixture{t: t, key: f.key, conf: f.conf}
	g.c = ctld.StartTest(t, f.conf)
	rep := new(wire.JobInfoReply)
	if err := g.call(0, wire.MsgJobInfo, &wire.JobInfoRequest{}, rep); err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for _, j := range rep.Jobs {
		got = append(got, j.JobID)
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("after restart jobs %v, want %v", got, ids)
	}
	next := g.mustSubmit(script("true"))
	if next != ids[len(ids)-1]+1 {
		t.Errorf("next job id %d after restart, want %d", next, ids[len(ids)-1]+1)
	}
	g.startNodes("n1")
	for _, id := range ids {
		g.waitState(id, states.JobComplete)
	}
}

// TestRecovery_ResendsLaunchOfRunningJobs covers a controller killed between making a job's
// start durable and its launch reaching the node: a restarted controller sends the launch of
// every recovered running job again (slurmd starts a job at most once, so this is safe; see
// slurmd/node's repeated-launch test).
func TestRecovery_ResendsLaunchOfRunningJobs(t *testing.T) {
	f := newFixture(t, ctld.TestConfig{Nodes: 1})
	n := f.startNodes("n1")
	id := f.mustSubmit(script("sleep 100"))
	f.waitState(id, states.JobRunning)
	for i := 0; len(n.launches()) == 0; i++ {
		if i == 200 {
			t.Fatal("the job was never launched")
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.c.Close()
	g := &fixture{t: t, key: f.key, conf: f.conf}
	g.c = ctld.StartTest(t, f.conf)
	for i := 0; ; i++ {
		if got := n.launches(); len(got) >= 2 {
			if !slices.Equal(got, []uint32{id, id}) {
				t.Fatalf("launches %v, want job %d launched again after the restart", got, id)
			}
			break
		}
		if i == 500 {
			t.Fatalf("launches %v after the restart, want job %d sent again", n.launches(), id)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if j := g.job(id); states.JobState(j.State) != states.JobRunning {
		t.Errorf("job %d is %v after the restart, want RUNNING", id, states.JobState(j.State))
	}
}

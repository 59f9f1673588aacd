package e2e_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// Issue 6: a scheduler plugin proposes, slurmctld verifies. These tests run the real
// slurmctld with a deliberately faulty plugin (plugins/scheduler/internal/faulty) and check
// what a user and an admin see: no node over-allocated, held and dependent jobs still
// pending, no job lost, bad plan entries refused in the log, and a crashed or hung plugin
// replaced by a new process.

const schedWait = 60 * time.Second // bound on every wait here; never a performance claim

// faultyCluster starts a cluster whose scheduler is the faulty plugin in mode.
func faultyCluster(t *testing.T, mode, extra string) *cluster.Cluster {
	t.Helper()
	testbin.Path(t, "plugins/scheduler/internal/faulty/testdata/sched_faulty") // beside slurmctld
	return cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, MinJobAge: 3600,
		ExtraConf: "SchedulerType=sched/faulty\nSchedulerParameters=faulty=" + mode + "\n" + extra})
}

// pluginPID is the pid of slurmctld's scheduler plugin child named exe, 0 if none runs.
func pluginPID(t *testing.T, ctld int, exe string) int {
	t.Helper()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		comm := string(stat[bytes.IndexByte(stat, '(')+1 : i])
		if len(f) > 1 && f[1] == strconv.Itoa(ctld) && comm == exe && f[0] != "Z" {
			return pid
		}
	}
	return 0
}

// waitPlugin waits for a plugin child other than old and returns its pid.
func waitPlugin(t *testing.T, c *cluster.Cluster, exe string, old int) int {
	t.Helper()
	deadline := time.Now().Add(schedWait)
	for time.Now().Before(deadline) {
		if p := pluginPID(t, c.ControllerPID(), exe); p != 0 && p != old {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s child of slurmctld other than %d after %v", exe, old, schedWait)
	return 0
}

// ctldLog is slurmctld's log so far.
func ctldLog(t *testing.T, c *cluster.Cluster) string {
	b, _ := os.ReadFile(filepath.Join(c.Dir, "log", "slurmctld.log"))
	return string(b)
}

// waitRefused waits until slurmctld has logged refusing a plan entry for job id with a
// reason containing why.
func waitRefused(t *testing.T, c *cluster.Cluster, id uint32, why string) {
	t.Helper()
	deadline := time.Now().Add(schedWait)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(ctldLog(t, c), "\n") {
			if strings.Contains(line, "scheduler plan entry refused") && strings.Contains(line, fmt.Sprintf("job=%d ", id)) && strings.Contains(line, why) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("slurmctld never refused the plan entry of job %d (%q)", id, why)
}

// checkNoOverAllocation fails if a node has more CPUs allocated than it has, as the node
// table says and as the running jobs' allocations add up.
func checkNoOverAllocation(t *testing.T, c *cluster.Cluster) {
	t.Helper()
	used := map[string]uint32{}
	for _, j := range c.Jobs(t) {
		st := states.JobState(j.State)
		if !st.IsRunning() && !st.IsCompleting() && !st.IsSuspended() {
			continue
		}
		nodes, err := hostlist.Expand(j.NodeList)
		if err != nil {
			t.Fatalf("job %d NodeList %q: %v", j.JobID, j.NodeList, err)
		}
		for i, n := range nodes {
			if i < len(j.CPUsPerNode) {
				used[n] += j.CPUsPerNode[i]
			}
		}
	}
	for _, n := range c.Nodes(t) {
		if n.AllocCPUs > n.CPUs || used[n.Name] > n.CPUs {
			t.Errorf("node %s over-allocated: AllocCPUs=%d, jobs hold %d, CPUs=%d", n.Name, n.AllocCPUs, used[n.Name], n.CPUs)
		}
	}
}

func jobState(t *testing.T, c *cluster.Cluster, id uint32) states.JobState {
	t.Helper()
	j := c.Job(t, id)
	if j == nil {
		t.Fatalf("job %d lost: the controller does not know it", id)
	}
	return states.JobState(j.State)
}

func TestSchedPlugin_DoubleBookingRefused(t *testing.T) {
	c := faultyCluster(t, "doublebook", "")
	c.WaitNodesIdle(t)
	script := writeScript(t, c, "long.sh", "#!/bin/sh\nsleep 300\n")
	var ids []uint32
	for range 4 {
		ids = append(ids, submit(t, c, "-n3", script)) // 3 of 4 CPUs: two never share a node
	}
	c.WaitJob(t, ids[0], states.JobRunning)
	waitRefused(t, c, ids[1], "over-allocated")
	checkNoOverAllocation(t, c)
	for _, id := range ids[1:] {
		if st := jobState(t, c, id); !st.IsPending() {
			t.Errorf("job %d is %s; the plugin could only start it by double-booking n1", id, st)
		}
	}
}

func TestSchedPlugin_HeldAndDependentJobsNotStarted(t *testing.T) {
	c := faultyCluster(t, "held", "")
	c.WaitNodesIdle(t)
	long := writeScript(t, c, "long.sh", "#!/bin/sh\nsleep 300\n")
	run := submit(t, c, "-n1", long)
	c.WaitJob(t, run, states.JobRunning)
	held := submit(t, c, "-H", "-n1", long)
	dep := submit(t, c, "-n1", "--dependency=afterok:"+strconv.Itoa(int(run)), long)
	waitRefused(t, c, held, "not eligible")
	waitRefused(t, c, dep, "not eligible")
	// A job submitted after them still starts: the plugin works, only its bad entries are
	// dropped.
	ok := submit(t, c, "-n1", long)
	c.WaitJob(t, ok, states.JobRunning)
	for _, id := range []uint32{held, dep} {
		if st := jobState(t, c, id); !st.IsPending() {
			t.Errorf("job %d is %s, want PENDING", id, st)
		}
	}
	out, _, code := c.Run(t, "squeue", "-h", "-o", "%i %T %r", "-j", fmt.Sprintf("%d,%d", held, dep))
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d PENDING JobHeldUser", held)) || !strings.Contains(out, fmt.Sprintf("%d PENDING Dependency", dep)) {
		t.Errorf("squeue = %q (exit %d), want the held job JobHeldUser and the dependent one Dependency", out, code)
	}
	checkNoOverAllocation(t, c)
}

func TestSchedPlugin_RunningJobNotStartedTwice(t *testing.T) {
	c := faultyCluster(t, "running", "")
	c.WaitNodesIdle(t)
	long := writeScript(t, c, "long.sh", "#!/bin/sh\nsleep 300\n")
	run := submit(t, c, "-n2", long)
	first := c.WaitJob(t, run, states.JobRunning)
	waitRefused(t, c, run, "not pending")
	again := c.WaitJob(t, run, states.JobRunning)
	if again.NodeList != first.NodeList || again.StartTime != first.StartTime {
		t.Errorf("running job moved: %s@%d, then %s@%d", first.NodeList, first.StartTime, again.NodeList, again.StartTime)
	}
	checkNoOverAllocation(t, c)
}

func TestSchedPlugin_UnknownNodeAndPartitionLimitRefused(t *testing.T) {
	for _, tc := range []struct{ mode, part, why string }{
		{"unknown", "debug", "unknown node nosuchnode"},
		{"partlimit", "small", "partition small"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := faultyCluster(t, tc.mode, "PartitionName=small Nodes=n1 MaxNodes=1 State=UP\n")
			c.WaitNodesIdle(t)
			id := submit(t, c, "-p", tc.part, "-n1", writeScript(t, c, "long.sh", "#!/bin/sh\nsleep 300\n"))
			waitRefused(t, c, id, tc.why)
			if st := jobState(t, c, id); !st.IsPending() {
				t.Errorf("job %d is %s, want PENDING", id, st)
			}
			checkNoOverAllocation(t, c)
		})
	}
}

// runAllThrough submits n short jobs that record their id, and waits until every one has run
// exactly once and left the queue's running set.
func runAllThrough(t *testing.T, c *cluster.Cluster, n int) {
	t.Helper()
	ran := filepath.Join(c.Dir, "ran")
	script := writeScript(t, c, "rec.sh", "#!/bin/sh\necho $SLURM_JOB_ID >> "+ran+"\n")
	var ids []uint32
	for range n {
		ids = append(ids, submit(t, c, "-n1", script))
	}
	for _, id := range ids {
		c.WaitJob(t, id, states.JobComplete)
	}
	b, _ := os.ReadFile(ran)
	count := map[string]int{}
	for _, l := range strings.Fields(string(b)) {
		count[l]++
	}
	for _, id := range ids {
		if k := count[strconv.Itoa(int(id))]; k != 1 {
			t.Errorf("job %d ran %d times", id, k)
		}
	}
}

func TestSchedPlugin_CrashMidCycleRestarts(t *testing.T) {
	c := faultyCluster(t, "crash", "")
	c.WaitNodesIdle(t)
	first := waitPlugin(t, c, "sched_faulty", 0)
	runAllThrough(t, c, 8)
	if p := waitPlugin(t, c, "sched_faulty", first); p == first {
		t.Errorf("plugin never restarted")
	}
	checkNoOverAllocation(t, c)
}

func TestSchedPlugin_HangKilledAndRestarted(t *testing.T) {
	c := faultyCluster(t, "hang", "")
	c.WaitNodesIdle(t)
	first := waitPlugin(t, c, "sched_faulty", 0)
	runAllThrough(t, c, 4)
	waitPlugin(t, c, "sched_faulty", first)
	deadline := time.Now().Add(schedWait)
	for syscall.Kill(first, 0) == nil { // the hung process itself is gone, not just replaced
		if time.Now().After(deadline) {
			t.Fatalf("hung plugin %d still alive", first)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(ctldLog(t, c), "did not answer within") {
		t.Error("slurmctld did not log the plugin missing its deadline")
	}
}

// TestSchedPlugin_KilledUnderLoadLosesNoJob kills the default plugin (sched/backfill) with
// SIGKILL repeatedly while jobs are submitted: every job still runs exactly once.
func TestSchedPlugin_KilledUnderLoadLosesNoJob(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, MinJobAge: 3600})
	c.WaitNodesIdle(t)
	ran := filepath.Join(c.Dir, "ran")
	script := writeScript(t, c, "rec.sh", "#!/bin/sh\necho $SLURM_JOB_ID >> "+ran+"\n")
	pid := waitPlugin(t, c, "sched_backfill", 0)
	var ids []uint32
	for i := range 30 {
		ids = append(ids, submit(t, c, "-n1", script))
		if i%6 == 5 {
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatalf("kill plugin %d: %v", pid, err)
			}
			pid = waitPlugin(t, c, "sched_backfill", pid)
		}
	}
	for _, id := range ids {
		c.WaitJob(t, id, states.JobComplete)
	}
	b, _ := os.ReadFile(ran)
	count := map[string]int{}
	for _, l := range strings.Fields(string(b)) {
		count[l]++
	}
	for _, id := range ids {
		if k := count[strconv.Itoa(int(id))]; k != 1 {
			t.Errorf("job %d ran %d times", id, k)
		}
	}
	checkNoOverAllocation(t, c)
}

// TestSchedPlugin_DiesWithSlurmctld: a SIGKILLed slurmctld takes its plugin with it.
func TestSchedPlugin_DiesWithSlurmctld(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	c.WaitNodesIdle(t)
	pid := waitPlugin(t, c, "sched_backfill", 0)
	c.KillController(t)
	deadline := time.Now().Add(schedWait)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("plugin %d outlived slurmctld", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSchedPlugin_UnknownTypeIsFatal: slurmctld refuses to start with a SchedulerType that
// has no plugin, naming the type and the directories it searched.
func TestSchedPlugin_UnknownTypeIsFatal(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	conf, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := strings.ReplaceAll(string(conf), filepath.Join(c.Dir, "state"), filepath.Join(dir, "state"))
	text = strings.ReplaceAll(text, filepath.Join(c.Dir, "log"), dir)
	text = strings.ReplaceAll(text, filepath.Join(c.Dir, "run"), dir)
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "SlurmctldPort=") {
			l = "SlurmctldPort=" + strconv.Itoa(freeTCPPort(t))
		}
		b.WriteString(l + "\n")
	}
	b.WriteString("SchedulerType=sched/nosuch\n")
	path := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(auth.KeyPath(c.ConfPath))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(auth.KeyPath(path), key, 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code, err := runBin(testbin.Path(t, "slurmctld"), dir, commandEnv(c), "-D", "-f", path)
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(stderr, "sched/nosuch") || !strings.Contains(stderr, filepath.Dir(testbin.Path(t, "slurmctld"))) {
		t.Errorf("slurmctld with SchedulerType=sched/nosuch: exit %d, stderr %q", code, stderr)
	}
}

// freeTCPPort is a loopback port free at the time of the call.
func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

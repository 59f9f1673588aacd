package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/conf"
)

// testCluster is a 3-node cluster of 1-CPU nodes with the given scheduler.
func testCluster(t *testing.T, schedType, extra string) *Cluster {
	t.Helper()
	cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=t\nSlurmctldHost=localhost\nSchedulerType="+schedType+"\n"+extra+
		"NodeName=n[1-3] CPUs=1\nPartitionName=p Nodes=n[1-3] Default=YES MaxTime=UNLIMITED State=UP\n"))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := ClusterOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// threeJobs: J1 takes 2 of 3 nodes for 100 s (limit 10 min); J2 needs all 3 nodes for 50 s;
// J3 needs 1 node for 30 s (limit 1 min).
func threeJobs() []Job {
	return []Job{
		{ID: "J1", Submit: 0, Runtime: 100, Requested: 600, Procs: 2},
		{ID: "J2", Submit: 1, Runtime: 50, Requested: 600, Procs: 3},
		{ID: "J3", Submit: 2, Runtime: 30, Requested: 60, Procs: 1},
	}
}

// engines are both engines: every scenario must come out the same through the real
// controller and through the harness.
var engines = []struct {
	name string
	e    Engine
}{{"ctld", ctldEngine{}}, {"harness", harnessEngine{}}}

// starts runs jobs through both engines and returns each job's [start, end] as the
// controller engine ran it, after checking the harness ran it the same.
func starts(t *testing.T, cl *Cluster, jobs []Job, est Estimate) map[string][2]int64 {
	t.Helper()
	var res []map[string][2]int64
	for _, e := range engines {
		skipped := map[string]int{}
		out, err := e.e.Run(cl, cl.Place(jobs, est, skipped))
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if out.Rejected != 0 || out.Unstarted != 0 || out.Refused != 0 || len(skipped) != 0 {
			t.Fatalf("%s: rejected %d, unstarted %d, refused %d (%s), skipped %v", e.name, out.Rejected, out.Unstarted, out.Refused, out.RefusedWhy, skipped)
		}
		got := map[string][2]int64{}
		for _, r := range out.Records {
			got[r.Job.ID] = [2]int64{r.Start, r.End}
		}
		res = append(res, got)
	}
	if !maps.Equal(res[0], res[1]) {
		t.Errorf("the engines differ: ctld %v, harness %v", res[0], res[1])
	}
	return res[0]
}

// TestEngine_FCFS: sched/builtin starts J1 at 0; J2 (3 nodes) waits for J1's end at
// 100 and runs to 150; J3 could run on the free node at once but must not overtake J2, so it
// starts at 150 and ends at 180.
func TestEngine_FCFS(t *testing.T) {
	got := starts(t, testCluster(t, "sched/builtin", ""), threeJobs(), EstimateUser)
	want := map[string][2]int64{"J1": {0, 100}, "J2": {100, 150}, "J3": {150, 180}}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s ran %v, want %v", id, got[id], w)
		}
	}
}

// TestEngine_EASY: sched/backfill reserves J2's start at J1's limit end (600). J3's
// 60 s limit ends before that, so the next backfill pass starts it on the free node: passes
// run at 0 (the first call) and every bf_interval (30 s) while something changed, so J3,
// submitted at 2, starts at 30 and ends at 60. J2 still starts at 100 when J1 ends.
func TestEngine_EASY(t *testing.T) {
	got := starts(t, testCluster(t, "sched/backfill", ""), threeJobs(), EstimateUser)
	want := map[string][2]int64{"J1": {0, 100}, "J2": {100, 150}, "J3": {30, 60}}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s ran %v, want %v", id, got[id], w)
		}
	}
	// bf_interval=10: the pass after J3's submit runs at 10.
	got = starts(t, testCluster(t, "sched/backfill", "SchedulerParameters=bf_interval=10\n"), threeJobs(), EstimateUser)
	if got["J3"] != [2]int64{10, 40} {
		t.Errorf("bf_interval=10: J3 ran %v, want [10 40]", got["J3"])
	}
}

// TestEngine_EASYUserEstimateBlocks: J3 asks for 10 minutes. With the user's
// estimate it would end (30+600) after J2's reservation at J1's limit end (600), so EASY
// must not start it before J2; with the runtime as estimate J1's limit is 2 minutes (J2
// reserved at 120) and J3's is 1 minute: 30+60 ≤ 120, so it is backfilled at 30.
func TestEngine_EASYUserEstimateBlocks(t *testing.T) {
	jobs := threeJobs()
	jobs[2].Requested = 600
	got := starts(t, testCluster(t, "sched/backfill", ""), jobs, EstimateUser)
	if got["J3"][0] < got["J2"][0] {
		t.Errorf("user estimates: J3 %v overtook J2 %v though it would delay it", got["J3"], got["J2"])
	}
	got = starts(t, testCluster(t, "sched/backfill", ""), jobs, EstimateRuntime)
	if got["J3"] != [2]int64{30, 60} {
		t.Errorf("runtime estimates: J3 ran %v, want [30 60]", got["J3"])
	}
}

// TestEngine_KilledAtLimit: a job that ran 200 s in the trace with a 1-minute limit
// ends at its limit, as slurmctld kills it.
func TestEngine_KilledAtLimit(t *testing.T) {
	got := starts(t, testCluster(t, "sched/builtin", ""), []Job{{ID: "L", Submit: 5, Runtime: 200, Requested: 60, Procs: 1}}, EstimateUser)
	if got["L"] != [2]int64{5, 65} {
		t.Errorf("ran %v, want [5 65]", got["L"])
	}
}

// TestPlace_ProcsToNodes: on 8-CPU nodes 9 processors are 2 nodes, 24 are 3, and 40 do not
// fit the 4-node partition; limits round up to whole minutes.
func TestPlace_ProcsToNodes(t *testing.T) {
	cfg, err := conf.Parse("slurm.conf", []byte("ClusterName=t\nSlurmctldHost=localhost\nNodeName=n[1-4] CPUs=8\nPartitionName=p Nodes=n[1-4] Default=YES\n"))
	if err != nil {
		t.Fatal(err)
	}
	cl, err := ClusterOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	skipped := map[string]int{}
	got := cl.Place([]Job{{ID: "a", Procs: 9, Requested: 61, Runtime: 5}, {ID: "b", Procs: 24, Requested: -1, Runtime: 5}, {ID: "c", Procs: 40}, {ID: "d", Nodes: 1, Procs: 16, Partition: "nosuch", Runtime: 5, Requested: 10}}, EstimateUser, skipped)
	if len(got) != 3 || got[0].NodeCount != 2 || got[0].Limit != 2 || got[1].NodeCount != 3 || got[1].Limit != 0xffffffff || got[2].NodeCount != 1 || got[2].Partition != "p" {
		t.Errorf("placed %+v", got)
	}
	if skipped["more nodes than partition p allows"] != 1 {
		t.Errorf("skipped %v", skipped)
	}
	rt := cl.Place([]Job{{ID: "a", Procs: 1, Requested: 3600, Runtime: 59}}, EstimateRuntime, skipped)
	if rt[0].Limit != 1 {
		t.Errorf("runtime estimate of a 59 s job: %d minutes, want 1", rt[0].Limit)
	}
}

// TestRun_BadInput: every bad input is a message naming the problem and exit status 1.
func TestRun_BadInput(t *testing.T) {
	dir := t.TempDir()
	confPath := filepath.Join(dir, "slurm.conf")
	os.WriteFile(confPath, []byte("ClusterName=t\nSlurmctldHost=localhost\nNodeName=n1 CPUs=1\nPartitionName=p Nodes=n1 Default=YES\n"), 0o644)
	bad := filepath.Join(dir, "bad.swf")
	os.WriteFile(bad, []byte("; x\n1 0 0 10\n"), 0o644)
	badConf := filepath.Join(dir, "bad.conf")
	os.WriteFile(badConf, []byte("Frobnicate=1\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "unrecognized option"},
		{[]string{"-f", confPath}, "give one workload"},
		{[]string{"-f", confPath, "--swf", bad, "--sacct", bad}, "give one workload"},
		{[]string{"-f", confPath, "--swf", filepath.Join(dir, "none.swf")}, "none.swf"},
		{[]string{"-f", confPath, "--swf", bad}, "bad.swf:2: 4 fields"},
		{[]string{"-f", badConf, "--swf", bad}, "bad.conf"},
		{[]string{"-f", confPath, "--swf", bad, "--estimate", "oracle"}, "--estimate=oracle"},
		{[]string{"-f", confPath, "--swf", bad, "--scheduler", "sched/gang"}, "--scheduler=sched/gang"},
		{[]string{"-f", confPath, "--swf", bad, "--limit", "0"}, "--limit=0"},
		{[]string{"-f", confPath, "--swf", bad, "--engine", "slurmctld"}, "--engine=slurmctld"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"ssim"}, c.args...), &stdout, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and %q", c.args, code, stdout.String(), stderr.String(), c.want)
		}
	}
}

func TestRun_Help(t *testing.T) {
	for _, a := range []string{"--help", "--usage", "-V"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"ssim", a}, &stdout, &stderr); code != 0 || stdout.Len() == 0 {
			t.Errorf("%s: exit %d, stdout %q", a, code, stdout.String())
		}
	}
}

// TestRun_SmallSWF runs ssim's main path on swfSample on a 3-node cluster: jobs 1, 3 and 6
// are simulated (the others are skipped with counts on stderr), and the trace's MaxNodes (4)
// differing from the cluster's 3 nodes is noted.
func TestRun_SmallSWF(t *testing.T) {
	dir := t.TempDir()
	confPath := filepath.Join(dir, "slurm.conf")
	os.WriteFile(confPath, []byte("ClusterName=t\nSlurmctldHost=localhost\nSchedulerType=sched/builtin\nNodeName=n[1-3] CPUs=1\nPartitionName=p Nodes=n[1-3] Default=YES\n"), 0o644)
	swf := filepath.Join(dir, "s.swf")
	os.WriteFile(swf, []byte(swfSample), 0o644)
	csvPath := filepath.Join(dir, "out.csv")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"ssim", "-f", confPath, "--swf", swf, "--csv", csvPath}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// FCFS: 1 (2 nodes) 0-100; 3 (3 nodes, submit 20) waits for it: 100-130; 6 (2 nodes,
	// submit 40) after 3: 130-180. Waits 0, 80, 90; makespan 180.
	for _, want := range []string{"scheduler: sched/builtin\n", "jobs: 3\n", "mean_wait_s: 56.7\n", "makespan_s: 180\n"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, want := range []string{"skipped 1 jobs: cancelled before it ran", "MaxNodes 4", "has 3 nodes"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	data, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := "id,submit,start,end,wait,run,nodes,estimate,bounded_slowdown\n1,0,0,100,0,100,2,600,1.0000\n3,20,100,130,80,30,3,-1,3.6667\n6,40,130,180,90,50,2,120,2.8000\n"; string(data) != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", data, want)
	}
}

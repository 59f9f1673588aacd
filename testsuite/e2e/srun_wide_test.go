package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// launchKV matches one key=value of slog's text format.
var launchKV = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)

// slurmdLaunches returns slurmd's "launched step" log records for job (the cluster's slurmd
// logs, slog text format).
func slurmdLaunches(t *testing.T, c *cluster.Cluster, job uint32) []map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(c.Dir, "log", "slurmd-*.log"))
	var out []map[string]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, `msg="launched step"`) {
				continue
			}
			rec := map[string]string{}
			for _, m := range launchKV.FindAllStringSubmatch(line, -1) {
				rec[m[1]] = strings.Trim(m[2], `"`)
			}
			if rec["job"] == fmt.Sprint(job) {
				out = append(out, rec)
			}
		}
	}
	return out
}

// TestSrun_WideStepOneStepd runs `srun -N64 -n128 -l` on 64 nodes emulated by one slurmd:
// every task ran once, with the SLURM_PROCID, SLURM_NODEID, SLURM_LOCALID and
// SLURMD_NODENAME of its place in the block layout; slurmd took the launch as one request
// and started one slurmstepd for the 64 nodes; every node is IDLE again afterwards. Then a
// batch job running a 64-node step is cancelled: every task on every node ends, the job is
// CANCELLED and the nodes are released.
func TestSrun_WideStepOneStepd(t *testing.T) {
	const nodes, tasks = 64, 128
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: nodes, CPUsPerNode: 2})

	out, errOut, code := c.Run(t, "srun", "-N64", "-n128", "-l", "sh", "-c",
		"echo $SLURM_PROCID $SLURM_NODEID $SLURM_LOCALID $SLURMD_NODENAME $SLURM_JOB_ID")
	if code != 0 || errOut != "" {
		t.Fatalf("srun -N64 -n128: exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != tasks {
		t.Fatalf("srun -N64 -n128 printed %d lines, want %d:\n%s", len(lines), tasks, out)
	}
	seen := map[int]bool{}
	var job uint32
	for _, l := range lines {
		var label, rank, nodeID, local int
		var node string
		var jobID uint32
		if n, err := fmt.Sscanf(l, "%d: %d %d %d %s %d", &label, &rank, &nodeID, &local, &node, &jobID); n != 6 || err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		job = jobID
		// Block layout: two tasks per node, nodes in the step's (hostlist) order n1..n64.
		if label != rank || seen[rank] || rank < 0 || rank >= tasks || nodeID != rank/2 || local != rank%2 ||
			node != fmt.Sprintf("n%d", rank/2+1) {
			t.Errorf("line %q: want rank %d once, node id %d, local id %d on n%d", l, label, label/2, label%2, label/2+1)
		}
		seen[rank] = true
	}
	launches := slurmdLaunches(t, c, job)
	if len(launches) != 1 || launches[0]["nodes"] != fmt.Sprint(nodes) || launches[0]["started"] != fmt.Sprint(nodes) {
		t.Errorf("slurmd launch records for job %d: %v; want one slurmstepd started for %d nodes", job, launches, nodes)
	}
	c.WaitNodesIdle(t)

	// Cancelling a job while its wide step runs reaches every task on every node.
	srun := testbin.Path(t, "srun")
	script := writeScript(t, c, "wide.sh", "#!/bin/sh\n"+srun+" -N64 -n64 sh -c 'echo up; exec sleep 299.7'\n")
	id := submit(t, c, "-N64", "-o", "wide.out", script)
	c.WaitJob(t, id, states.JobRunning)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(c.WorkDir, "wide.out"))
		if strings.Count(string(b), "up\n") == nodes {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the 64 tasks did not all start: %q", b)
		}
	}
	if o, e, code := c.Run(t, "scancel", fmt.Sprint(id)); code != 0 {
		t.Fatalf("scancel: %q %q exit %d", o, e, code)
	}
	c.WaitJob(t, id, states.JobCancelled)
	c.WaitNodesIdle(t)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if left := sleepers("299.7"); len(left) == 0 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("tasks still running after the job was cancelled: pids %v", left)
		}
	}
}

// sleepers are the pids of processes whose command line contains "sleep <arg>".
func sleepers(arg string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), "sleep "+arg) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestSrun_WideStepOrphansKilled runs `srun -N4` on nodes emulated by one slurmd, whose
// tasks on two nodes leave a process behind that escaped their session (`setsid sleep &`)
// and exit at once: once srun returns, the escaped processes are gone, as a stepd of its own
// would leave none; the tasks of the other nodes, which leave nothing, end as usual.
func TestSrun_WideStepOrphansKilled(t *testing.T) {
	testbin.Path(t, "srun")
	c := cluster.Start(t, cluster.Options{Nodes: 4, CPUsPerNode: 1})
	out, errOut, code := c.Run(t, "srun", "-N4", "sh", "-c",
		`if [ $((SLURM_NODEID % 2)) = 0 ]; then setsid sleep 298.3 </dev/null >/dev/null 2>&1 & fi; echo ok`)
	if code != 0 || errOut != "" || strings.Count(out, "ok\n") != 4 {
		t.Fatalf("srun -N4: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if left := sleepers("298.3"); len(left) == 0 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("processes the tasks left are still running after srun ended: pids %v", left)
		}
	}
	c.WaitNodesIdle(t)
}

package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// healthScript writes a HealthCheckProgram that logs "NODE ENVIRONMENT" to log on each run and,
// once env (written by the test after the cluster is up) says where scontrol and slurm.conf
// are, drains its node when a file drain-NODE exists beside log, as NHC does.
func healthScript(t *testing.T, dir string) (script, log, env string) {
	t.Helper()
	script, log, env = filepath.Join(dir, "hc.sh"), filepath.Join(dir, "hc.log"), filepath.Join(dir, "hc.env")
	body := fmt.Sprintf(`#!/bin/sh
echo "$SLURMD_NODENAME $(tr '\\0' ' ' < /proc/$$/environ)" >> %[1]s
[ -r %[2]s ] || exit 0
. %[2]s
if [ -e %[3]s/drain-$SLURMD_NODENAME ]; then
	"$SCONTROL" update NodeName="$SLURMD_NODENAME" State=DRAIN Reason=nhc_failed
	exit 1
fi
`, log, env, dir)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, log, env
}

// runsOf counts the runs logged per node.
func runsOf(t *testing.T, log string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			n[f[0]]++
			if want := f[0] + " SLURMD_NODENAME=" + f[0]; strings.TrimSpace(line) != want {
				t.Errorf("health check run logged %q, want %q: SLURMD_NODENAME alone in its environment, as Slurm", line, want)
			}
		}
	}
	return n
}

// waitRuns waits until every node in want has run the program at least want[node] times.
func waitRuns(t *testing.T, log string, want map[string]int) map[string]int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := runsOf(t, log)
		ok := true
		for n, k := range want {
			ok = ok && got[n] >= k
		}
		if ok {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("health check runs %v, want at least %v", got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestHealthCheck_ProgramRunsAndDrains: HealthCheckProgram runs on every node when slurmd
// starts and then every HealthCheckInterval, with only SLURMD_NODENAME in its environment; a
// program that drains its node (scontrol update State=DRAIN) drains it.
func TestHealthCheck_ProgramRunsAndDrains(t *testing.T) {
	dir := t.TempDir()
	script, log, env := healthScript(t, dir)
	c := cluster.Start(t, cluster.Options{Nodes: 2, ExtraConf: "HealthCheckProgram=" + script + "\nHealthCheckInterval=1\n"})
	if err := os.WriteFile(env, []byte(fmt.Sprintf("SLURM_CONF=%s; export SLURM_CONF; SCONTROL=%s\n", c.ConfPath, testbin.Path(t, "scontrol"))), 0o644); err != nil {
		t.Fatal(err)
	}
	waitRuns(t, log, map[string]int{"n1": 2, "n2": 2}) // at start, then from the controller

	if err := os.WriteFile(filepath.Join(dir, "drain-n2"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _, _ := c.Run(t, "sinfo", "-h", "-N", "-o", "%N %t %E")
		if out == "n1 idle none\nn2 drain nhc_failed\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("n2 not drained by its health check: sinfo says %q", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestHealthCheck_NodeStateAlloc: with HealthCheckNodeState=ALLOC the controller asks only
// the nodes whose CPUs are all allocated.
func TestHealthCheck_NodeStateAlloc(t *testing.T) {
	dir := t.TempDir()
	script, log, _ := healthScript(t, dir)
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2,
		ExtraConf: "HealthCheckProgram=" + script + "\nHealthCheckInterval=1\nHealthCheckNodeState=ALLOC\n"})
	waitRuns(t, log, map[string]int{"n1": 1, "n2": 1}) // slurmd's own run at start
	id := submit(t, c, "-N1", "-n2", "-w", "n1", "--wrap", "sleep 60")
	c.WaitJob(t, id, states.JobRunning)
	before := runsOf(t, log)
	got := waitRuns(t, log, map[string]int{"n1": before["n1"] + 2})
	if got["n2"] != before["n2"] {
		t.Errorf("idle n2 was asked to run the health check under ALLOC: runs %v then %v", before, got)
	}
	c.Run(t, "scancel", fmt.Sprint(id))
}

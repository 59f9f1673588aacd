package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// logRecords returns the slurmctld log records whose msg is msg, as key=value maps (the log
// is slog's text format).
func logRecords(t *testing.T, c *cluster.Cluster, msg string) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.Dir, "log", "slurmctld.log"))
	if err != nil {
		t.Fatalf("reading the controller log: %v", err)
	}
	kv := regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|\S*)`)
	var out []map[string]string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.Contains(line, fmt.Sprintf("msg=%q", msg)) {
			continue
		}
		rec := map[string]string{}
		for _, m := range kv.FindAllStringSubmatch(line, -1) {
			rec[m[1]] = strings.Trim(m[2], `"`)
		}
		out = append(out, rec)
	}
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestFanout_PingsTerminateAndNodeLoss runs 200 nodes in one emulating slurmd with
// TreeWidth=4 and SlurmdTimeout=6:
//   - the controller's ping sweeps reach all 200 nodes through one Forward per broadcast,
//     over one connection each (not 200), and every node answers;
//   - cancelling a job that spans the 200 nodes sends its terminate as one broadcast,
//     answered for all 200 nodes, and the job ends CANCELLED;
//   - once the slurmd is killed, its nodes stop answering the pings and become DOWN* with
//     reason "Not responding", as in Slurm.
//
// The counts come from the controller's debug log lines ("ping sweep", "job terminate
// broadcast"), which report what each broadcast cost.
func TestFanout_PingsTerminateAndNodeLoss(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 200, CPUsPerNode: 1, ExtraConf: "TreeWidth=4\nSlurmdTimeout=6\n"})

	// A sweep that reached every node (registration requests on the first one, pings later).
	var sweep map[string]string
	for deadline := time.Now().Add(60 * time.Second); sweep == nil; {
		for _, r := range logRecords(t, c, "ping sweep") {
			if atoi(r["pinged"])+atoi(r["registration_requests"]) == 200 && atoi(r["pinged"]) > 0 {
				sweep = r
			}
		}
		if sweep == nil && time.Now().After(deadline) {
			t.Fatalf("no ping sweep over the 200 nodes in the controller log: %v", logRecords(t, c, "ping sweep"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	broadcasts := 1
	if atoi(sweep["registration_requests"]) > 0 {
		broadcasts = 2 // pings and registration requests go as two broadcasts
	}
	if sweep["failed"] != "0" || atoi(sweep["forwards"]) != broadcasts || atoi(sweep["dials"]) != broadcasts {
		t.Fatalf("sweep %v: want no failure and %d forward(s) over %d connection(s) for 200 nodes", sweep, broadcasts, broadcasts)
	}

	id := submit(t, c, "-N200", "-o", "/dev/null", "--wrap", "sleep 300")
	c.WaitJob(t, id, states.JobRunning)
	if o, e, code := c.Run(t, "scancel", fmt.Sprint(id)); code != 0 {
		t.Fatalf("scancel: %q %q exit %d", o, e, code)
	}
	c.WaitJob(t, id, states.JobCancelled)
	// The job is CANCELLED when the controller decides so; its terminate broadcast goes out
	// (and is logged) from the launch agent a moment later.
	var terminates []map[string]string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		terminates = terminates[:0]
		for _, r := range logRecords(t, c, "job terminate broadcast") {
			if r["job"] == fmt.Sprint(id) {
				terminates = append(terminates, r)
			}
		}
		if len(terminates) > 0 || time.Now().After(deadline) {
			break
		}
	}
	nodes, lines := 0, 0
	for _, r := range terminates {
		lines++
		nodes += atoi(r["nodes"])
		if r["forwards"] != "1" || r["dials"] != "1" {
			t.Errorf("terminate broadcast %v: want one forward over one connection", r)
		}
	}
	if lines != 1 || nodes != 200 {
		t.Fatalf("terminate of job %d: %d broadcast(s) for %d nodes, want 1 for 200", id, lines, nodes)
	}

	c.KillNodeDaemon(t)
	var last string
	for deadline := time.Now().Add(60 * time.Second); ; {
		down := 0
		for _, n := range c.Nodes(t) {
			s := states.NodeState(n.State)
			if s.Base() == states.NodeDown && s.Has(states.NodeNoRespond) && n.Reason == "Not responding" {
				down++
			} else {
				last = fmt.Sprintf("%s: %s %q", n.Name, s, n.Reason)
			}
		}
		if down == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of 200 nodes DOWN* \"Not responding\" after the slurmd was killed; e.g. %s", down, last)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

package scontrol_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_ShowSlurmd asks the local slurmd for its status: Slurm's fifteen lines, the
// machine's CPU count, the node's name, then a running batch job in Active Steps (by its job
// id, as Slurm names a batch step there).
func TestScontrol_ShowSlurmd(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	status := func() map[string]string {
		out, errOut, code := c.Run(t, "scontrol", "show", "slurmd")
		if code != 0 || errOut != "" {
			t.Fatalf("show slurmd: exit %d, %q, %q", code, out, errOut)
		}
		m := map[string]string{}
		var keys []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			k, v, ok := strings.Cut(l, " = ")
			if !ok || len(k) != 24 {
				t.Fatalf("show slurmd line %q is not Slurm's \"%%-24s = value\"", l)
			}
			keys = append(keys, strings.TrimSpace(k))
			m[strings.TrimSpace(k)] = v
		}
		want := "Active Steps|Actual CPUs|Actual Boards|Actual sockets|Actual cores|Actual threads per core|" +
			"Actual real memory|Actual temp disk space|Boot time|Hostname|Last slurmctld msg time|Slurmd PID|" +
			"Slurmd Debug|Slurmd Logfile|Version"
		if strings.Join(keys, "|") != want {
			t.Fatalf("show slurmd keys %q, want %q", keys, want)
		}
		return m
	}
	s := status()
	if s["Active Steps"] != "NONE" || s["Actual CPUs"] != fmt.Sprint(runtime.NumCPU()) || s["Hostname"] != "n1" ||
		s["Version"] != "22.05.8" || !strings.HasSuffix(s["Slurmd Logfile"], "/slurmd-n1.log") {
		t.Errorf("show slurmd on an idle node: %v", s)
	}
	if _, err := time.ParseInLocation("2006-01-02T15:04:05", s["Boot time"], time.Local); err != nil {
		t.Errorf("Boot time %q: %v", s["Boot time"], err)
	}

	out, _, _ := c.Run(t, "sbatch", "--parsable", "-w", "n1", "--wrap", "sleep 300")
	var job uint32
	fmt.Sscan(out, &job)
	c.WaitJob(t, job, states.JobRunning)
	defer c.Run(t, "scancel", fmt.Sprint(job))
	// The controller counts the job running once it sent the launch: the step's supervisor
	// may still be starting.
	got := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got = status()["Active Steps"]; got == fmt.Sprint(job) {
			break
		}
	}
	if got != fmt.Sprint(job) {
		t.Errorf("Active Steps with batch job %d running: %q", job, got)
	}
	// The controller launched it: the slurmd heard from it.
	if got := status()["Last slurmctld msg time"]; got == "NONE" {
		t.Errorf("Last slurmctld msg time is NONE after the controller launched a job")
	}
}

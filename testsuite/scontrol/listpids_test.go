package scontrol_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestScontrol_ListPidsAndPidInfo runs a batch job whose script waits on a child, then
// checks scontrol listpids (the script as task 0 of the batch step, the child as one of the
// step's other processes) and pidinfo (the child's job), and their messages, as the
// reference prints them.
func TestScontrol_ListPidsAndPidInfo(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, MinJobAge: 300})
	const header = "PID      JOBID    STEPID   LOCALID GLOBALID\n"
	out, errOut, code := c.Run(t, "scontrol", "listpids")
	if out != header || errOut != "No job steps exist on this node.\n" || code != 1 {
		t.Errorf("listpids with no step: exit %d, %q, %q", code, out, errOut)
	}
	out, errOut, _ = c.Run(t, "sbatch", "--parsable", "-t", "10", "--wrap", "sleep 300 & wait")
	var job uint32
	if _, err := fmt.Sscan(out, &job); err != nil {
		t.Fatalf("sbatch: %q %q", out, errOut)
	}
	c.WaitJob(t, job, states.JobRunning)
	defer c.Run(t, "scancel", fmt.Sprint(job))

	// The script's child may start a moment after the job: wait for its line.
	var lines []string
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, errOut, code = c.Run(t, "scontrol", "listpids", fmt.Sprint(job))
		lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code == 0 && len(lines) == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code != 0 || errOut != "" || len(lines) != 3 || lines[0]+"\n" != header {
		t.Fatalf("listpids %d: exit %d, %q, %q; want the header, the script and its child", job, code, out, errOut)
	}
	var script, child int
	task := fmt.Sprintf("%-8d %-8s %-7d %-8d", job, "batch", 0, 0)
	if _, err := fmt.Sscan(lines[1], &script); err != nil || strings.TrimRight(lines[1][9:], " ") != strings.TrimRight(task, " ") {
		t.Errorf("listpids task line %q, want pid then %q", lines[1], task)
	}
	other := fmt.Sprintf("%-8d %-8s %-7s %-8s", job, "batch", "-", "-")
	if _, err := fmt.Sscan(lines[2], &child); err != nil || strings.TrimRight(lines[2][9:], " ") != strings.TrimRight(other, " ") {
		t.Errorf("listpids other line %q, want pid then %q", lines[2], other)
	}
	if cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child)); !strings.HasPrefix(string(cmd), "sleep\x00300") {
		t.Errorf("listpids' other process %d is %q, not the script's sleep", child, cmd)
	}
	if all, _, _ := c.Run(t, "scontrol", "listpids"); all != out {
		t.Errorf("listpids of every job %q differs from listpids %d %q", all, job, out)
	}

	for _, k := range []struct {
		args, out, err string
		rc             int
	}{
		{fmt.Sprintf("listpids %d.batch", job), header, fmt.Sprintf("\"%d.batch\" does not look like a stepid\n", job), 0},
		{fmt.Sprintf("listpids %d.7", job), header, fmt.Sprintf("StepId=%d.7 does not exist on node (null).\n", job), 1},
		{"listpids 999", header, "There are no steps for job 999 on node (null).\n", 1},
		{"listpids x", "", "\"x\" does not look like a jobid\n", 1},
		{"listpids 1 2 3", "", "too many arguments for keyword:listpids\n", 1},
		{"pidinfo 1", "", "Failed to locate job for requested pid\n", 1},
		{"pidinfo", "", "missing argument for keyword:pidinfo\n", 1},
	} {
		out, errOut, code := c.Run(t, "scontrol", strings.Fields(k.args)...)
		if out != k.out || errOut != k.err || code != k.rc {
			t.Errorf("scontrol %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr %q", k.args, code, out, errOut, k.rc, k.out, k.err)
		}
	}
	// getent: the user each running step runs as, from the passwd database, and no groups.
	var rootLine string
	if b, err := os.ReadFile("/etc/passwd"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Split(l, ":"); len(f) == 7 && f[2] == fmt.Sprint(os.Getuid()) {
				rootLine = l
				break
			}
		}
	}
	if rootLine != "" {
		want := fmt.Sprintf("JobId=%d.batch:\nUser:\n%s\nGroups:\n\n", job, rootLine)
		if out, errOut, code := c.Run(t, "scontrol", "getent"); out != want || errOut != "" || code != 0 {
			t.Errorf("getent: exit %d, %q, %q; want %q", code, out, errOut, want)
		}
	}
	out, errOut, code = c.Run(t, "scontrol", "pidinfo", fmt.Sprint(child))
	if want := fmt.Sprintf("Slurm JobId=%d ends at ", job); code != 0 || !strings.HasPrefix(out, want) ||
		!strings.Contains(out, "\nJob remaining time is ") {
		t.Errorf("pidinfo %d: exit %d, %q, %q; want %q and the remaining time", child, code, out, errOut, want)
	}
}

package e2e_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// Issue 6: the example plugin plugins/examples/sjf (shortest job first), built the way its
// README tells a plugin author, installed in PluginDir and loaded with SchedulerType. On a
// node held by a first job, a one-hour job is submitted before a two-minute one; only one
// fits once the node is free. sched/sjf starts the short one, sched/builtin the one
// submitted first.

// overtake runs the scenario under schedConf (slurm.conf lines) and returns the ids of the
// long and the short job and which of them started.
func overtake(t *testing.T, schedConf string) (long, short, first uint32) {
	t.Helper()
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 3600, ExtraConf: schedConf})
	c.WaitNodesIdle(t)
	script := writeScript(t, c, "long.sh", "#!/bin/sh\nsleep 300\n")
	blocker := submit(t, c, "-n4", "-t", "10", script)
	c.WaitJob(t, blocker, states.JobRunning)
	long = submit(t, c, "-n4", "-t", "60", "--job-name=long", script)
	short = submit(t, c, "-n4", "-t", "2", "--job-name=short", script)
	if _, errOut, code := c.Run(t, "scancel", fmt.Sprint(blocker)); code != 0 {
		t.Fatalf("scancel %d: exit %d, %s", blocker, code, errOut)
	}
	deadline := time.Now().Add(schedWait)
	for first == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("neither job %d nor job %d started within %v of the node freeing up", long, short, schedWait)
		}
		for _, id := range []uint32{long, short} {
			if jobState(t, c, id).Base() == states.JobRunning {
				first = id
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	other := long + short - first
	out, _, code := c.Run(t, "squeue", "-h", "-o", "%j %T %r", "-j", fmt.Sprintf("%d,%d", first, other))
	if code != 0 || !strings.Contains(out, "PENDING Resources") {
		t.Errorf("squeue = %q (exit %d): the job that did not start should wait for Resources", out, code)
	}
	checkNoOverAllocation(t, c)
	return long, short, first
}

func TestSchedExample_SJFShortJobOvertakes(t *testing.T) {
	dir := t.TempDir() // the PluginDir: the example is installed here as an admin would
	root, err := testbin.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "sched_sjf"), "./plugins/examples/sjf")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./plugins/examples/sjf: %v\n%s", err, out)
	}
	long, short, first := overtake(t, "PluginDir="+dir+"\nSchedulerType=sched/sjf\n")
	if first != short {
		t.Errorf("sched/sjf started job %d; want the 2-minute job %d ahead of the 1-hour job %d submitted before it", first, short, long)
	}
}

func TestSchedExample_BuiltinKeepsSubmitOrder(t *testing.T) {
	long, short, first := overtake(t, "SchedulerType=sched/builtin\n")
	if first != long {
		t.Errorf("sched/builtin started job %d; want job %d, submitted before job %d", first, long, short)
	}
}

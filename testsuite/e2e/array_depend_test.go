package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// waitSqueue runs squeue with args until its output is want (the throttle and the split of
// tasks are scheduler output, reached after a pass or two).
func waitSqueue(t *testing.T, c *cluster.Cluster, want string, args ...string) {
	t.Helper()
	var out string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if out, _, _ = c.Run(t, "squeue", args...); out == want {
			return
		}
	}
	t.Fatalf("squeue %q:\n%s\nwant:\n%s", args, out, want)
}

func TestArray_SqueueShowsTasksAndThrottle(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300})
	sh := writeScript(t, c, "arr.sh", "#!/bin/sh\nenv | grep '^SLURM_ARRAY' | sort\nsleep 60\n")
	id := submit(t, c, "-J", "arr", "--array=1-5%2", "-o", filepath.Join(c.WorkDir, "arr_%A_%a.out"), sh)
	// As Slurm 22.05 prints it: the array's record with the pending remainder, and each
	// started task as <id>_<index>.
	want := fmt.Sprintf("%18s %2s %s\n%18s %2s %s\n%18s %2s %s\n",
		fmt.Sprintf("%d_[3-5%%2]", id), "PD", "(JobArrayTaskLimit)",
		fmt.Sprintf("%d_1", id), "R", "n1",
		fmt.Sprintf("%d_2", id), "R", "n1")
	waitSqueue(t, c, want, "-h", "-o", "%.18i %.2t %R")
	// The task's environment.
	f := filepath.Join(c.WorkDir, fmt.Sprintf("arr_%d_2.out", id))
	wantEnv := fmt.Sprintf("SLURM_ARRAY_JOB_ID=%d\nSLURM_ARRAY_TASK_COUNT=5\nSLURM_ARRAY_TASK_ID=2\nSLURM_ARRAY_TASK_MAX=5\nSLURM_ARRAY_TASK_MIN=1\nSLURM_ARRAY_TASK_STEP=1\n", id)
	var got []byte
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, _ = os.ReadFile(f); string(got) == wantEnv {
			break
		}
	}
	if string(got) != wantEnv {
		t.Errorf("%s:\n%s\nwant:\n%s", f, got, wantEnv)
	}
	// scancel of one pending task, then of the whole array.
	if _, errOut, code := c.Run(t, "scancel", fmt.Sprintf("%d_4", id)); code != 0 {
		t.Fatalf("scancel %d_4: %s", id, errOut)
	}
	waitSqueue(t, c, fmt.Sprintf("%18s %2s\n", fmt.Sprintf("%d_[3,5%%2]", id), "PD"), "-h", "-t", "PD", "-o", "%.18i %.2t")
	if _, errOut, code := c.Run(t, "scancel", fmt.Sprint(id)); code != 0 {
		t.Fatalf("scancel %d: %s", id, errOut)
	}
	waitSqueue(t, c, "", "-h", "-t", "PD,R,CG")
}

func TestDependency_ChildRunsAfterParent(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 4, MinJobAge: 300})
	mark := filepath.Join(c.WorkDir, "mark")
	parent := writeScript(t, c, "parent.sh", "#!/bin/sh\nsleep 2\necho parent > "+mark+"\n")
	child := writeScript(t, c, "child.sh", "#!/bin/sh\ncat "+mark+"\n")
	p := submit(t, c, "-J", "parent", "-o", "/dev/null", parent)
	ch := submit(t, c, "-J", "child", "-d", fmt.Sprintf("afterok:%d", p), "-o", filepath.Join(c.WorkDir, "child.out"), child)
	out, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(ch), "-o", "%i %t %R")
	if want := fmt.Sprintf("%d PD (Dependency)\n", ch); out != want && !strings.HasSuffix(out, "(None)\n") {
		t.Errorf("dependent job while its parent runs: %q, want %q", out, want)
	}
	c.WaitJob(t, ch, states.JobComplete)
	if got, _ := os.ReadFile(filepath.Join(c.WorkDir, "child.out")); string(got) != "parent\n" {
		t.Errorf("child output %q: it ran before its parent finished", got)
	}
	// A dependency that can never be met.
	bad := submit(t, c, "-J", "bad", "-o", "/dev/null", writeScript(t, c, "bad.sh", "#!/bin/sh\nexit 1\n"))
	c.WaitJob(t, bad, states.JobFailed)
	never := submit(t, c, "-J", "never", "-d", fmt.Sprintf("afterok:%d", bad), "-o", "/dev/null", child)
	waitSqueue(t, c, fmt.Sprintf("%d PD (DependencyNeverSatisfied)\n", never), "-h", "-j", fmt.Sprint(never), "-o", "%i %t %R")
	killed := submit(t, c, "-J", "killed", "--kill-on-invalid-dep=yes", "-d", fmt.Sprintf("afterok:%d", bad), "-o", "/dev/null", child)
	c.WaitJob(t, killed, states.JobCancelled)
	c.Run(t, "scancel", fmt.Sprint(never))
}

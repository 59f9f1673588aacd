package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestArray_BackfillStartsTasksTogether: behind a higher-priority job that waits for the
// whole node, an array's tasks that fit are started by one backfill pass, as Slurm's
// backfill goes on with an array's next task (one per pass would start them bf_interval
// apart); the waiting job, which can start only when a job without a time limit ends,
// shows that start a year away (Slurm's end of such a job), past bf_window.
func TestArray_BackfillStartsTasksTogether(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4, MinJobAge: 300,
		ExtraConf: "SchedulerParameters=bf_interval=5\n"})
	long := submit(t, c, "-n2", "--wrap", "sleep 300")
	c.WaitJob(t, long, states.JobRunning)
	big := submit(t, c, "-n4", "--wrap", "true")
	arr := submit(t, c, "--array=1-2", "-n1", "-o", "/dev/null", "--wrap", "sleep 300")
	defer c.Run(t, "scancel", fmt.Sprint(long), fmt.Sprint(big), fmt.Sprint(arr))

	var out string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		out, _, _ = c.Run(t, "squeue", "-h", "-j", fmt.Sprint(arr), "-t", "R", "-o", "%i %S")
		if strings.Count(out, "\n") == 2 {
			break
		}
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("array %d: running tasks %q, want both", arr, out)
	}
	if a, b := strings.Fields(lines[0]), strings.Fields(lines[1]); a[1] != b[1] {
		t.Errorf("array %d's tasks started at %s and %s, not in one backfill pass", arr, a[1], b[1])
	}
	if j := c.Job(t, big); states.Reason(j.Reason) != states.WaitResources {
		t.Errorf("job %d: reason %s, want Resources", big, states.Reason(j.Reason))
	}
	start, _, _ := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(big), "-o", "%S")
	at, err := time.ParseInLocation("2006-01-02T15:04:05", strings.TrimSpace(start), time.Local)
	if err != nil || time.Until(at) < 300*24*time.Hour {
		t.Errorf("job %d: expected start %q, want about a year away (the unlimited job's end)", big, start)
	}
}

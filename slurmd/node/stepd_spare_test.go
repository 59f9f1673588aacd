package node_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// waitSpare waits (bounded) until d has a spare slurmstepd other than not, and returns its pid.
func waitSpare(t *testing.T, d *node.Daemon, not int) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if pid := d.SparePid(); pid != 0 && pid != not {
			return pid
		}
	}
	t.Fatalf("no new spare slurmstepd (the last was pid %d)", not)
	return 0
}

// TestLaunch_SpareStepd: after a first launch slurmd keeps a spare slurmstepd, the next
// launch runs under it (the script's parent is the spare) exactly as under a fresh one, a
// spare that died is replaced by a fresh start, and Close ends the spare.
func TestLaunch_SpareStepd(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	script := "#!/bin/sh\necho parent=$PPID node=$SLURMD_NODENAME job=$SLURM_JOB_ID\nexit 4\n"
	run := func(job uint32) (parent int) {
		t.Helper()
		work := t.TempDir()
		if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, script, work)); err != nil {
			t.Fatalf("launch of job %d: %v", job, err)
		}
		if got := f.waitComplete(job); got.WaitStatus != 4<<8 || got.Cancelled || got.TimedOut {
			t.Errorf("job %d completion %+v, want wait status %d", job, got, 4<<8)
		}
		out, err := os.ReadFile(filepath.Join(work, "slurm-"+strconv.Itoa(int(job))+".out"))
		var node, jobID string
		for _, f := range strings.Fields(string(out)) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "parent":
				parent, _ = strconv.Atoi(v)
			case "node":
				node = v
			case "job":
				jobID = v
			}
		}
		if err != nil || node != "n1" || jobID != strconv.Itoa(int(job)) || parent == 0 {
			t.Fatalf("job %d output %q (%v), want its parent, node n1 and its id", job, out, err)
		}
		return parent
	}

	run(1) // a fresh slurmstepd; the spare is started behind it
	spare := waitSpare(t, d, 0)
	if got := run(2); got != spare {
		t.Errorf("job 2 ran under slurmstepd %d, want the spare %d", got, spare)
	}
	next := waitSpare(t, d, spare)

	// A spare that died is noticed at the next launch, which starts a fresh stepd.
	syscall.Kill(next, syscall.SIGKILL)
	waitGone(t, next)
	if got := run(3); got == next {
		t.Errorf("job 3 ran under the killed spare %d", got)
	}
	last := waitSpare(t, d, next)

	d.Close()
	waitGone(t, last)
}

// waitGone waits (bounded) until process pid has exited and been reaped (by the daemon).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("spare slurmstepd %d still runs", pid)
		}
	}
}

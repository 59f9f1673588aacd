package node_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

// TestLaunch_ResentAsFirstRunEnds covers a batch launch resent by a restarted controller
// that reaches slurmd just as the job's first run ends: the first slurmstepd has its end
// acknowledged, writes the job's done marker and removes its state file between the
// launch's two checks for an earlier run. The launch must still not start the job again
// (it did, when the marker was checked first: a job ran twice under kill -9 of slurmctld).
func TestLaunch_ResentAsFirstRunEnds(t *testing.T) {
	f := newCluster(t, 1)
	d := startNode(t, f, "n1")
	uid, gid := uint32(os.Getuid()), uint32(os.Getgid())
	const job = 330
	work := t.TempDir()
	runs, gate := filepath.Join(work, "runs"), filepath.Join(work, "gate")
	script := "#!/bin/sh\necho ran >> " + runs + "\nwhile [ ! -e " + gate + " ]; do sleep 0.05; done\n"
	if err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, script, work)); err != nil {
		t.Fatal(err)
	}
	state := stepd.StatePath(d.Spool("n1"), job, stepd.BatchStep)

	// end lets the first run end and waits until its slurmstepd has finished: end reported
	// and acknowledged, marker written, state file removed.
	var once sync.Once
	end := func() {
		once.Do(func() {
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Error(err)
				return
			}
			f.waitComplete(job)
			for i := 0; ; i++ {
				if _, err := os.Stat(state); os.IsNotExist(err) {
					return
				}
				if i == 1000 {
					t.Error("the first run's slurmstepd never finished")
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
	node.SetLaunchChecked(t, func(id uint32) {
		if id == job {
			end() // the first run ends between the launch's two checks
		}
	})
	err := f.call(d.Addr(), wire.MsgLaunchBatchJob, f.launch(job, "n1", uid, gid, script, work))
	end() // the launch found the first run alive and returned before its second check
	var we *wire.Error
	if err != nil && (!errors.As(err, &we) || we.Errno != 4002) {
		t.Fatalf("resent launch: %v, want success (running) or 4002 (already completed)", err)
	}
	// A second run would have its own state file by now: the launch answers only once the
	// slurmstepd it started runs the script.
	if _, serr := os.Stat(state); serr == nil {
		f.waitComplete(job) // let it end before counting
		for i := 0; i < 500; i++ {
			if _, err := os.Stat(state); os.IsNotExist(err) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		b, _ := os.ReadFile(runs)
		t.Fatalf("the resent launch started the job again (runs: %d)", strings.Count(string(b), "ran"))
	}
	if b, _ := os.ReadFile(runs); strings.Count(string(b), "ran") != 1 {
		t.Errorf("the job ran %d times, want once", strings.Count(string(b), "ran"))
	}
}

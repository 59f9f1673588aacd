package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// Out of memory, as Slurm's task/cgroup memory plugin handles it: the step's tasks start in a
// memory cgroup limited to the job's memory on the node (slurmd decided it: the launch
// file's Memory); when a task ends and the cgroup counted an oom-kill, slurmstepd writes
// "Detected N oom-kill event(s) in StepId=..." where the first task's stderr goes and reports
// every task from then on with Slurm's SIG_OOM status: srun prints "Out Of Memory" and exits
// 1, a batch job ends OUT_OF_MEMORY with ExitCode 0:125. The cgroup is removed after the
// step.

// memCgroup creates the step's memory cgroup as the launch file says; nil when the step is
// not confined, or cannot be (logged: the step runs unconfined).
func memCgroup(mem stepdlaunch.Memory, node string, job uint32, step string, log *slog.Logger) *stepd.MemoryCgroup {
	if !mem.Constrain {
		return nil
	}
	cg, err := stepd.NewMemoryCgroup(mem.Mount, node, job, step, stepd.MemoryLimit(mem.LimitMiB, mem.AllowedRAMSpace))
	if err != nil {
		log.Warn("task/cgroup: the step runs without a memory cgroup", "job", job, "step", step, "err", err)
		return nil
	}
	return cg
}

// oomWatch is the step's post_term check of its memory cgroup.
type oomWatch struct {
	cg    *stepd.MemoryCgroup
	node  string
	step  string // "12.batch", "12.0"
	kills uint64
}

// postTerm runs as each task ends (stepd.StepSpec.PostTerm). Slurm looks at the counter
// only when the first task ends; Orbit looks until it has seen a kill, so that a task
// OOM-killed after another task ended normally is reported too.
func (w *oomWatch) postTerm(e *stepd.TaskExit) string {
	if w == nil || w.cg == nil {
		return ""
	}
	msg := ""
	if w.kills == 0 {
		if n := w.cg.OOMKills(); n > 0 {
			w.kills = n
			msg = stepd.OOMMessage(w.node, n, w.step)
		}
	}
	if w.kills > 0 {
		e.Status, e.ExitCode, e.Signal, e.CoreDumped = stepd.SigOOM, 0, stepd.SigOOM&0x7f, false
	}
	return msg
}

// oom reports whether the step saw an oom-kill.
func (w *oomWatch) oom() bool { return w != nil && w.kills > 0 }

// removeCgroup deletes the step's cgroup once its last member is gone (the kernel may still
// be tearing down a killed process when the step's end is seen), within a bound.
func removeCgroup(cg *stepd.MemoryCgroup, log *slog.Logger) {
	if cg == nil {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		cg.Remove()
		if _, err := os.Stat(cg.Dir()); errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(deadline) {
			log.Warn("task/cgroup: cannot remove the step's cgroup", "dir", cg.Dir())
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stepName is Slurm's %ps form of a step without the "StepId=" ("12.batch", "12.0").
func stepName(job uint32, step string) string { return fmt.Sprintf("%d.%s", job, step) }

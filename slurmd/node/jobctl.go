package node

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
	"golang.org/x/sys/unix"
)

// liveSteps are the job's steps on h whose slurmstepd still runs, from their state files.
func liveSteps(h *hosted, job uint32) []*stepd.State {
	steps, _ := stepd.ListSteps(h.spool)
	var out []*stepd.State
	for _, st := range steps {
		if st.JobID == job && !st.Ended() && stepd.Alive(st) && st.Pid != os.Getpid() { // srun steps: step_launch.go
			out = append(out, st)
		}
	}
	return out
}

// handleSignal delivers a signal to a job's tasks on one node (scancel --signal). As in
// Slurm: with KillFullJob every step's process groups; with KillBatchOnly the batch shell
// alone; otherwise every step but the batch step, except that SIGKILL reaches the batch
// step's whole process group too.
func (d *Daemon) handleSignal(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.SignalJob)
	if !d.privileged(req) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if m.Signal <= 0 || m.Signal >= 65 {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "Invalid signal %d", m.Signal)
	}
	steps := liveSteps(h, m.JobID)
	if len(steps) == 0 {
		return nil, wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
	}
	sig := syscall.Signal(m.Signal)
	for _, st := range steps {
		batch := st.StepID == stepd.BatchStep
		for _, t := range st.Tasks {
			switch {
			case m.Flags&wire.KillFullJob != 0 || (batch && sig == syscall.SIGKILL):
				signalGroup(t.Pid, sig)
			case m.Flags&wire.KillBatchOnly != 0:
				if batch {
					unix.Kill(t.Pid, sig)
				}
			case !batch:
				signalGroup(t.Pid, sig)
			}
		}
	}
	d.log.Info("signalled job", "job", m.JobID, "node", m.NodeName, "signal", m.Signal, "flags", m.Flags)
	return nil, nil
}

// signalGroup signals a task's process group (each task leads its own session), or the task
// alone when the group is gone. The task pid comes from a state file whose supervisor is
// alive; the supervisor reaps its tasks, so a pid reused after the task ended is possible
// only in the short window before the state file records the end.
func signalGroup(pid int, sig syscall.Signal) {
	if pid <= 0 {
		return
	}
	if err := unix.Kill(-pid, sig); err == unix.ESRCH {
		unix.Kill(pid, sig)
	}
}

// handleTerminate ends a job on one node: its slurmstepd kills the steps (SIGTERM, KillWait,
// SIGKILL) and reports the batch script's end as cancelled or timed out.
func (d *Daemon) handleTerminate(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.TerminateJob)
	if !d.privileged(req) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	if d.nodes[m.NodeName] == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	d.epilogAfterEnd(m.NodeName, m.JobID, m.Restarts, m.KillWait) // epilog.go
	details := ""
	if m.Details != "" {
		// Left where the job's slurmstepd reads it when the signal comes (it removes it).
		details = stepdlaunch.DetailsPath(d.nodes[m.NodeName].spool, m.JobID)
		if err := os.WriteFile(details, []byte(m.Details), 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			d.log.Warn("cannot leave the terminate's details for slurmstepd", "job", m.JobID, "err", err)
		}
	}
	if d.terminate(m.NodeName, m.JobID, m.TimedOut, m.Requeued, m.Preempted) {
		return nil, nil
	}
	if details != "" {
		os.Remove(details) // no slurmstepd to read it
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.markKilled(m.NodeName, m.JobID, m.Restarts, m.TimedOut, time.Now())
	if d.starting[m.JobID] {
		// Its slurmstepd is starting: the launch handler ends the step once it runs, and the
		// step then reports its end as usual.
		return nil, nil
	}
	return nil, wire.Errorf(errnoKillJobComplete, "Job already completed")
}

// terminate asks each live slurmstepd of the job on node to end its step; false when none
// runs. The request is a signal (stepdlaunch.SigCancel, SigTimeout, SigRequeue or
// SigPreempt), so it works on steps started by an earlier slurmd too.
func (d *Daemon) terminate(node string, job uint32, timedOut, requeued, preempted bool) bool {
	sig := stepdlaunch.SigCancel
	switch {
	case timedOut:
		sig = stepdlaunch.SigTimeout
	case preempted:
		sig = stepdlaunch.SigPreempt
	case requeued:
		sig = stepdlaunch.SigRequeue
	}
	steps := liveSteps(d.nodes[node], job)
	for _, st := range steps {
		if err := unix.Kill(st.Pid, sig); err != nil {
			d.log.Warn("cannot signal slurmstepd", "job", job, "pid", st.Pid, "err", err)
		}
	}
	if len(steps) > 0 {
		d.log.Info("terminating job", "job", job, "node", node, "timed_out", timedOut)
	}
	return len(steps) > 0
}

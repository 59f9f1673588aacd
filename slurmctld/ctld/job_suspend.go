package ctld

import (
	"context"
	"syscall"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol suspend / resume (Slurm's job_suspend): operators only. A suspended job keeps its
// nodes; every process of it is stopped with SIGSTOP and continued with SIGCONT. SuspendTime
// and SecsPreSuspend are kept as Slurm shows them.

const (
	errnoJobSuspended    = 2077 // ESLURM_JOB_SUSPENDED
	errnoJobNotRunning   = 2085 // ESLURM_JOB_NOT_RUNNING
	errnoJobNotSuspended = 2087 // ESLURM_JOB_NOT_SUSPENDED
)

func init() {
	errnoTexts[errnoJobSuspended] = "Job is current suspended, requested operation disabled"
	errnoTexts[errnoJobNotRunning] = "Job is not running"
	errnoTexts[errnoJobNotSuspended] = "Job is not suspended"
}

// suspendJob moves a running job to SUSPENDED or back, stamped by the handler.
type suspendJob struct {
	jobID   uint32
	suspend bool
	now     int64
	// preempted: preemption suspends the job (its nodes go to the preemptor; preempt.go).
	preempted bool
}

func (ch suspendJob) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil {
		return nil, errFromErrno(errnoInvalidJobID)
	}
	n := j.clone()
	if ch.suspend {
		if !j.state().IsRunning() {
			return nil, errFromErrno(errnoJobNotRunning)
		}
		since := j.StartTime
		if j.SuspendTime > since {
			since = j.SuspendTime // resumed before: it ran since the resume
		}
		n.PreSusTime += ch.now - since
		n.State = uint32(states.JobSuspended)
		n.PreemptSuspended = ch.preempted
	} else {
		if !j.state().IsSuspended() {
			return nil, errFromErrno(errnoJobNotSuspended)
		}
		n.State = uint32(states.JobRunning)
		n.PreemptSuspended = false
		// The time limit counts running time only: the end moves by the suspension, as
		// Slurm's job_suspend sets it on resume.
		if j.TimeLimit != wire.Infinite && j.TimeLimit != wire.NoVal {
			n.EndTime = ch.now + int64(j.TimeLimit)*60 - j.PreSusTime
		}
	}
	n.SuspendTime = ch.now
	return &effects{jobs: []*jobRecord{n}}, nil
}

func errFromErrno(errno int32) error { return slurmErr(errno) }

// handleSuspend serves MsgUpdateJob with JobActionSuspend or JobActionResume.
func (c *Controller) handleSuspend(ctx context.Context, id *wire.Identity, r *wire.UpdateJobRequest) (any, error) {
	suspend := r.Action == wire.JobActionSuspend
	c.mu.Lock()
	j := c.t.jobs[r.JobID]
	if j == nil {
		c.mu.Unlock()
		return updateReply(errnoInvalidJobID), nil
	}
	if !c.privileged(id) {
		c.mu.Unlock()
		return updateReply(errnoAccessDenied), nil
	}
	switch s := j.state(); {
	case s.IsFinished():
		c.mu.Unlock()
		return updateReply(errnoAlreadyDone), nil
	case s.IsPending():
		c.mu.Unlock()
		return updateReply(errnoJobPending), nil
	case suspend && s.IsSuspended():
		c.mu.Unlock()
		return updateReply(errnoJobSuspended), nil
	case !suspend && !s.IsSuspended():
		c.mu.Unlock()
		return updateReply(errnoJobNotSuspended), nil
	}
	nodes := append([]string(nil), j.Nodes...)
	p, err := c.apply(suspendJob{jobID: j.JobID, suspend: suspend, now: c.now().Unix()})
	c.mu.Unlock()
	if err != nil {
		if we, ok := err.(*wire.Error); ok {
			return updateReply(we.Errno), nil
		}
		return nil, wire.Errorf(wire.ErrnoSlurmError, "suspend not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	sig := int32(syscall.SIGSTOP)
	if !suspend {
		sig = int32(syscall.SIGCONT)
	}
	for _, n := range nodes {
		c.send(agentTask{kind: taskSignal, jobID: r.JobID, node: n, signal: sig, flags: wire.KillFullJob})
	}
	c.log.Info("job suspend state changed", "job", r.JobID, "suspend", suspend, "uid", id.UID)
	if !suspend {
		c.wake()
	}
	return &wire.UpdateJobReply{}, nil
}

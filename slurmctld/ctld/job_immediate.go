package ctld

import (
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Immediate allocations (srun/salloc -I): Slurm's job_allocate with the immediate flag
// records the job either way, but one that cannot start at once is ended FAILED
// (BadConstraints, exit 1) and the request refused with the reason, instead of left to
// wait. A job that is not yet independent (held, waiting on a dependency or a begin time)
// is refused before the scheduler sees it; one that is, after the cycle that would have
// started it.

// errnoNotTopPriority is ESLURM_NOT_TOP_PRIORITY.
const errnoNotTopPriority = 2013

func init() {
	errnoTexts[errnoNotTopPriority] = "Immediate execution impossible, insufficient priority"
}

// immediateRefusal is why the new job j cannot start at once before any scheduling (0 when
// it may): Slurm's job_independent is false for it, which it answers with ESLURM_DEPENDENCY
// (job_depend.go) whatever the cause (under the read lock).
func (t *tables) immediateRefusal(j *jobRecord, now int64) int32 {
	if j.Priority == 0 || j.EligibleTime > now {
		return errnoDependency
	}
	if r, _ := t.dependency(j, now); r != states.WaitNoReason {
		return errnoDependency
	}
	return 0
}

// failImmediate ends job id FAILED if the scheduler has not started it, and returns the
// refusal to answer with; nil when the job runs after all (under the write lock, so no
// cycle starts it in between).
func (c *Controller) failImmediate(id uint32, now int64) (change, *wire.Error) {
	j := c.t.jobs[id]
	if j == nil || !j.state().IsPending() {
		return nil, nil
	}
	errno := int32(wire.ErrnoNodesBusy)
	switch states.Reason(j.Reason) {
	case states.WaitPartNodeLimit, states.WaitPartTimeLimit, states.WaitPartConfig:
		errno = errnoPartConfigUnavail
	default:
		if !c.t.topPriority(j, now) {
			errno = errnoNotTopPriority
		}
	}
	ch := endJob{jobID: id, state: states.JobFailed, reason: states.FailBadConstraints, exitCode: 1, setExit: true, end: now}
	return ch, slurmErr(errno)
}

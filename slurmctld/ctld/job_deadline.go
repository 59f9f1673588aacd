package ctld

import (
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// --deadline as Slurm 22.05 has it: a job is refused at submit when its deadline cannot be
// met, ended DEADLINE (reason DeadLine, exit 0:1) by the scheduling cycle that finds it
// still pending when too little time is left before the deadline for its time-min (or, with
// no time-min, its time limit), and started with its time limit cut to end by the deadline.
// (Orbit's admission control for deadlines, DESIGN.md §10, builds on this.)

const errnoInvalidTimeMinLimit = 2124 // ESLURM_INVALID_TIME_MIN_LIMIT

func init() {
	errnoTexts[errnoInvalidTimeMinLimit] = "Invalid time-min specification (exceeds job's time or other limits)"
}

// checkDeadline refuses a submission whose deadline has passed or leaves less than its
// time-min, or, with a time-min of 0, its time limit (Slurm's checks in _valid_job_desc;
// an unset time-min does not check the time limit: the scheduler does, later).
func checkDeadline(d *wire.JobDesc, now int64) error {
	if d.Deadline == 0 {
		return nil
	}
	switch {
	case d.Deadline < now:
		return slurmErr(errnoInvalidTimeLimit)
	case d.TimeMin != 0 && d.TimeMin != wire.NoVal && d.Deadline < now+int64(d.TimeMin)*60:
		return slurmErr(errnoInvalidTimeMinLimit)
	case d.TimeMin == 0 && d.TimeLimit != 0 && d.TimeLimit != wire.NoVal && d.Deadline < now+int64(d.TimeLimit)*60:
		return slurmErr(errnoInvalidTimeLimit)
	}
	return nil
}

// deadlineMissed says whether pending job j can no longer run before its deadline: less
// than its time-min, or with none its time limit, is left (Slurm's deadline_ok).
func (j *jobRecord) deadlineMissed(now int64) bool {
	d := j.descInt(descDeadline)
	if d == 0 {
		return false
	}
	if tm := uint32(j.descUint(descTimeMin)); tm != 0 && tm != wire.NoVal {
		return d < now+int64(tm)*60
	}
	if j.TimeLimit != wire.NoVal && j.TimeLimit != wire.Infinite {
		return d < now+int64(j.TimeLimit)*60
	}
	return false
}

// deadlineTimeLimit is the time limit j starts with at now: its own (or its partition's)
// cut to the whole minutes left before its deadline; 0 leaves it as it is (no deadline, or
// less than a minute left, where Slurm leaves it too).
func (j *jobRecord) deadlineTimeLimit(now int64) uint32 {
	deadline := j.descInt(descDeadline)
	if deadline == 0 || deadline <= now {
		return 0
	}
	left := uint32(min((deadline-now)/60, int64(wire.Infinite-1)))
	if j.TimeLimit != wire.NoVal && j.TimeLimit != wire.Infinite {
		return min(j.TimeLimit, left)
	}
	return left
}

// deadlineEnd is the change that ends pending job id for its missed deadline.
func deadlineEnd(id uint32, now int64) endJob {
	return endJob{jobID: id, state: states.JobDeadline, reason: states.FailDeadline, exitCode: 1, setExit: true, end: now}
}

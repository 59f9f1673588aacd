package builtin

import "github.com/orbit-hpc/orbit/plugins/scheduler"

// yearSecs is how long a job with no time limit in a partition with none runs (Slurm's
// YEAR_SECONDS): "forever", past any advance reservation there is.
const yearSecs = 365 * 24 * 3600

// RunSecs is how long job j started in part may run, for the advance reservations its run
// must not meet: its time limit, else the partition's MaxTime, else a year. It is Slurm's
// _get_job_duration (job_test_resv) and the controller's own check of a start, which is why
// it is not capped by MaxTime as backfill's planning limit is: a plugin that proposed a
// start on a shorter run would see the controller refuse it.
func RunSecs(j *scheduler.Job, part *scheduler.Partition) int64 {
	lim := j.TimeLimit
	if (lim == scheduler.Infinite || lim == 0) && part != nil {
		lim = part.MaxTime
	}
	if lim == scheduler.Infinite || lim == 0 {
		return yearSecs
	}
	return int64(lim) * 60
}

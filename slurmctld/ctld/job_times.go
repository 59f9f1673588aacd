package ctld

import "github.com/orbit-hpc/orbit/internal/wire"

// expectedEnd is the end time Slurm reports for a pending job whose expected start is
// start (its begin time; 0 when it has none): start plus the time limit, as Slurm's job
// packing does for a job not yet started (job_mgr.c, pack_job: end_time = MAX(end_time,
// start_time + time_limit * 60)). It is 0 (printed "Unknown") without a start and for an
// unlimited time limit: Slurm computes a wrapped time there, but scontrol prints it as
// Unknown, and so does Orbit from 0. A job that started keeps its recorded end.
//
// The job-info construction calls it for pending jobs: info.EndTime = expectedEnd(j, info.StartTime).
func expectedEnd(j *jobRecord, start int64) int64 {
	if !j.state().IsPending() || start == 0 || j.TimeLimit == wire.Infinite || j.TimeLimit == wire.NoVal {
		return j.EndTime
	}
	return max(j.EndTime, start+int64(j.TimeLimit)*60)
}

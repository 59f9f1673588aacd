package ctld

import (
	"strconv"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// A job running in a reservation whose window has ended is timed out ResvOverRun minutes
// later (TIMEOUT, reason TimeLimit), unless the reservation is FLEX, which binds its jobs to
// no window: Slurm's job_time_limit ("Reservation %s, which this job was running under, has
// ended"). The reservation stays listed until no job runs in it (resv_end.go).

// runsInResv says whether a job running (or suspended) names reservation name. Called with
// c.mu held.
func (t *tables) runsInResv(name string) bool {
	for _, j := range t.liveJobs() {
		if s := j.state(); (s.IsRunning() || s.IsSuspended()) && j.descStr(descReservation) == name {
			return true
		}
	}
	return false
}

// resvOverRun is slurm.conf's ResvOverRun in seconds; UNLIMITED never times a job out.
func resvOverRun(cfg *conf.Config) (secs int64, unlimited bool) {
	v, _ := cfg.Get("ResvOverRun")
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 0:
		return 0, false
	case n >= 65535:
		return 0, true
	}
	return int64(n) * 60, false
}

// resvEnded says whether running job j has outlived its reservation's window by overrun
// seconds. Called with c.mu held.
func (t *tables) resvEnded(j *jobRecord, now, overrun int64) bool {
	name := j.descStr(descReservation)
	if name == "" {
		return false
	}
	r := t.resvs[name]
	return r != nil && !r.has(wire.ResvFlex) && !r.recurs() && r.EndTime+overrun <= now
}

// resvEndedText is what Slurm tells a job timed out for outliving reservation name: the
// terminate's details, which the batch script's error file shows as "*** REASON: ... ***".
func resvEndedText(name string) string {
	return "Reservation " + name + ", which this job was running under, has ended"
}

package main

import (
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Slurm errnos scancel retries on.
const (
	errnoJobPending      int32 = 2024 // ESLURM_JOB_PENDING: a step of a job not started yet
	errnoTransitionState int32 = 2109 // ESLURM_TRANSITION_STATE_NO_UPDATE: e.g. a job still configuring
)

// maxCancelRetry is Slurm's MAX_CANCEL_RETRY: attempts per job or step.
const maxCancelRetry = 10

// killRetrying sends req as Slurm's scancel does (_cancel_job_id, _cancel_step_id): a job
// in a transitional state (and, for a step, a job still pending) is tried again, up to 10
// times, sleeping 5 s, then 6 s, ... after each such answer (after the last one too). The
// last answer is returned; nil when the request succeeded.
func (k *canceller) killRetrying(req *wire.KillJobRequest) *cmdclient.Error {
	var e *cmdclient.Error
	for i := range maxCancelRetry {
		e = k.kill(req)
		if e == nil || !(e.Errno == errnoTransitionState || req.Step && e.Errno == errnoJobPending) {
			return e
		}
		k.verbosef("Job is in transitional state, retrying")
		k.sleep(time.Duration(5+i) * time.Second)
	}
	return e
}

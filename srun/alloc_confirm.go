package main

import (
	"context"
	"fmt"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// confirmAllocation is Slurm's existing_allocation: a step in job id (SLURM_JOB_ID, or
// --jobid from anywhere) needs the job running. A pending, ended or unknown job is refused
// as Slurm's srun refuses it, with its hint about SLURM_JOB_ID, and srun exits 1; else the
// job's allocation is returned.
func (s *session) confirmAllocation(ctx context.Context, id uint32) (*wire.JobAllocInfo, int) {
	var info wire.JobAllocInfo
	err := s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: id}, &info)
	st := states.JobState(info.State)
	switch {
	case err != nil:
		fmt.Fprintf(s.stderr, "srun: error: Unable to confirm allocation for job %d: %s\n", id, cmdclient.AsError(err).Text)
	case st.IsPending():
		fmt.Fprintf(s.stderr, "srun: error: Unable to confirm allocation for job %d: %s\n", id, jobPendingText)
	case st.IsFinished() || st.IsCompleting():
		fmt.Fprintf(s.stderr, "srun: error: Slurm job %d has expired\n", id)
	default:
		return &info, 0
	}
	fmt.Fprintf(s.stderr, "srun: Check SLURM_JOB_ID environment variable. Expired or invalid job %d\n", id)
	return nil, 1
}

// jobPendingText is ESLURM_JOB_PENDING's text, what Slurm's allocation lookup answers for a
// job not yet running.
const jobPendingText = "Job is pending execution"

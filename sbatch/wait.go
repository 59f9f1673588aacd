package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// maxWaitSleep caps the pause between two looks at the job (Slurm's MAX_WAIT_SLEEP_TIME).
const maxWaitSleep = 32 * time.Second

// jobLoader fetches job id and, for an array, every task of it.
type jobLoader func(id uint32) ([]wire.JobInfo, error)

// waitJob is sbatch --wait: it looks at the job after 2 s, then after pauses that grow
// fourfold while they stay under half of MinJobAge (so a quick job cannot be purged from the
// controller between two looks) and under 32 s, until every record of the job has finished.
// The result is the highest exit status of them, 1 for a record killed by a signal. A job
// the controller no longer knows ends the wait with what was seen so far and an error line;
// any other failure to ask is reported and retried, as Slurm's _job_wait does.
func waitJob(load jobLoader, id uint32, minJobAge time.Duration, sleep func(time.Duration), stderr io.Writer) int {
	pause := 2 * time.Second
	ec := 0
	for {
		sleep(pause)
		if pause < minJobAge/2 && pause < maxWaitSleep {
			pause *= 4
		}
		jobs, err := load(id)
		if e := cmdclient.AsError(err); err != nil && e != nil && e.Errno == cmdclient.ErrnoInvalidJobID {
			fmt.Fprintf(stderr, "sbatch: error: Job %d no longer found and exit code not found\n", id)
			return ec
		} else if err != nil {
			fmt.Fprintf(stderr, "sbatch: error: Currently unable to load job state information, retrying: %s\n", errText(err))
			continue
		}
		complete := true
		for _, j := range jobs {
			if states.JobState(j.State).Base() <= states.JobSuspended { // not IS_JOB_FINISHED
				complete = false
				break
			}
			ec = max(ec, exitOf(j.ExitCode))
		}
		if complete {
			return ec
		}
	}
}

// exitOf is WEXITSTATUS of a wait status, or 1 when the process did not exit (a signal).
func exitOf(ws uint32) int {
	if ws&0x7f != 0 {
		return 1
	}
	return int(ws>>8) & 0xff
}

func errText(err error) string {
	if e := cmdclient.AsError(err); e != nil && e.Text != "" {
		return e.Text
	}
	return err.Error()
}

// controllerJobs is the jobLoader that asks the controller.
func controllerJobs(c *cmdclient.Client) jobLoader {
	return func(id uint32) ([]wire.JobInfo, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout)
		defer cancel()
		var rep wire.JobInfoReply
		if err := c.Call(ctx, wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{id}, ShowAll: true}, &rep); err != nil {
			return nil, err
		}
		return rep.Jobs, nil
	}
}

package main

import (
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// waitPoll is how often wait_job asks again (Slurm's POLL_SLEEP).
var waitPoll = 3 * time.Second

// cmdWaitJob is `scontrol wait_job JOBID` (Slurm's scontrol_job_ready): wait until the job's
// nodes are ready, as a prolog or a script that starts work on the nodes does. With power
// saving off (SuspendTimeout or ResumeTimeout 0) Slurm answers at once; otherwise it asks
// the controller until the job runs with its nodes up and its prolog done, for at most five
// times both timeouts. Orbit's nodes are up whenever a job runs on them.
func (c *cli) cmdWaitJob(argv []string) {
	if !c.oneArg(argv) {
		return
	}
	id := atoi(argv[1])
	if id <= 0 {
		c.exitCode = 1
		c.eprintf("Invalid job_id %s", argv[1]) // sic: Slurm prints no newline
		return
	}
	cfg := c.client().Conf
	suspend, _ := cfg.Get("SuspendTimeout")
	resume, _ := cfg.Get("ResumeTimeout")
	s, _ := strconv.Atoi(suspend)
	r, _ := strconv.Atoi(resume)
	if s == 0 || r == 0 {
		return // power save off: the nodes are ready
	}
	maxDelay := time.Duration(s+r) * 5 * time.Second
	const (
		notRunning = iota
		ready
		retry
		fatal
	)
	check := func() int {
		var rep wire.JobInfoReply
		if e := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{ShowAll: true, JobIDs: []uint32{uint32(id)}}, &rep); e != nil {
			return retry
		}
		for _, j := range rep.Jobs {
			if j.JobID != uint32(id) {
				continue
			}
			st := states.JobState(j.State)
			if !st.IsRunning() && !st.IsSuspended() {
				return notRunning
			}
			if st&states.JobConfiguring != 0 {
				return retry // its prolog runs
			}
			return ready
		}
		return fatal // the controller knows no such job
	}
	res := retry
	for i, waited := 0, time.Duration(0); waited < maxDelay; i++ {
		if i > 0 {
			if i == 1 {
				c.eprintf("scontrol: Waiting for nodes to boot\n")
			}
			time.Sleep(waitPoll)
			waited += waitPoll
		}
		if res = check(); res != retry {
			break
		}
	}
	switch res {
	case ready:
		c.eprintf("scontrol: Nodes are ready for job %d\n", id)
	case notRunning:
		c.exitCode = 1
		c.eprintf("scontrol: Job %d no longer running\n", id)
	default:
		c.exitCode = 1
		c.eprintf("scontrol: Problem running job %d\n", id)
	}
}

// atoi is C's atoi: atoll's digits, as the int glibc returns (a too long number wraps).
func atoi(s string) int64 { return int64(int32(atoll(s))) }

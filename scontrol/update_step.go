package main

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// updateStep is `update StepId=JOB[.STEP] TimeLimit=[+|-]TIME` (Slurm's
// scontrol_update_step): a job id alone names every running step of the job; +/- change the
// step's current limit, which scontrol reads first.
func (c *cli) updateStep(args []string) {
	req := wire.UpdateStepRequest{StepID: wire.NoVal}
	count := 0
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			c.exitCode = 1
			c.eprintf("Invalid input: %s\n", a)
			c.eprintf("Request aborted\n")
			return
		}
		switch {
		case abbrev(tag, "StepId", 4):
			job, rest, _ := strtoll(val)
			req.JobID = uint32(job)
			switch {
			case strings.HasPrefix(rest, "."):
				step, _, _ := strtoll(rest[1:])
				req.StepID = uint32(step)
			case rest != "":
				c.exitCode = 1
				c.eprintf("Invalid StepID parameter: %s\n", a)
				c.eprintf("Request aborted\n")
				return
			}
		case abbrev(tag, "TimeLimit", 2):
			incr, decr := strings.HasPrefix(val, "+"), strings.HasPrefix(val, "-")
			if incr || decr {
				val = val[1:]
			}
			limit, err := slurmtime.ParseTimeLimit(val)
			if err != nil || limit == wire.NoVal {
				c.errorf("Invalid TimeLimit value")
				c.exitCode = 1
				return
			}
			if incr || decr {
				cur, ok := c.stepTimeLimit(req.JobID, req.StepID)
				if !ok {
					c.exitCode = 1
					return
				}
				switch {
				case incr:
					limit += cur
				case limit > cur:
					c.errorf("TimeLimit decrement larger than current time limit (%d > %d)", limit, cur)
					c.exitCode = 1
					return
				default:
					limit = cur - limit
				}
			}
			req.TimeLimit = limit
			count++
		default:
			c.exitCode = 1
			c.eprintf("Update of this parameter is not supported: %s\n", a)
			c.eprintf("Request aborted\n")
			return
		}
	}
	if count == 0 {
		c.exitCode = 1
		c.eprintf("No changes specified\n")
		return
	}
	if e := c.call(wire.MsgUpdateStep, &req, nil); e != nil {
		c.perror("slurm_update error", e)
	}
}

// stepTimeLimit is the current time limit of live step job.step, as Slurm's _get_step_time
// reads it: false when it cannot (a step not found, or no step named, fails silently, as
// there; a failed request says so).
func (c *cli) stepTimeLimit(job, step uint32) (uint32, bool) {
	var rep wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{JobIDs: []uint32{job}, Steps: true}, &rep); e != nil {
		c.errorf("Could not load state information for step %d.%s: %s", job, strconv.FormatUint(uint64(step), 10), e.Text)
		return 0, false
	}
	for _, s := range rep.Steps {
		if s.JobID == job && s.StepID == step {
			return s.TimeLimit, true
		}
	}
	return 0, false
}

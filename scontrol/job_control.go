package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// hold, uhold, release, requeue, requeuehold, suspend, resume and top: one request per job
// id, each failure printed as "<error> for job <id>" (Slurm's update_job.c).

// jobIDArg strips the "JobId=" or "Job=" prefix Slurm accepts and parses ID or ID_TASK; ok is
// false for anything else (Orbit does not resolve Name= lists yet).
func jobIDArg(s string) (id, task uint32, ok bool) {
	if len(s) >= 6 && strings.EqualFold(s[:6], "JobID=") {
		s = s[6:]
	} else if len(s) >= 4 && strings.EqualFold(s[:4], "Job=") {
		s = s[4:]
	}
	n, rest := leadingUint(s)
	task = wire.NoVal
	if strings.HasPrefix(rest, "_") {
		t, tail := leadingUint(rest[1:])
		task, rest = uint32(t), tail
	}
	return uint32(n), task, rest == "" && n != 0
}

// jobAction sends action for every id in argv[1:] (each may be a comma list).
func (c *cli) jobAction(argv []string, action uint16, perrorPrefix string) {
	if len(argv) < 2 {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("too few arguments for keyword:%s\n", argv[0])
		}
		return
	}
	for _, arg := range argv[1:] {
		failed := false
		for _, one := range strings.Split(arg, ",") {
			id, task, ok := jobIDArg(one)
			if !ok {
				c.exitCode = 1
				failed = true
				if c.quiet != 1 {
					c.eprintf("%s for job %s\n", cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text, one)
				}
				if perrorPrefix != "" && c.quiet != 1 {
					c.eprintf("%s: %s\n", perrorPrefix, cmdclient.NewError(cmdclient.ErrnoInvalidJobID).Text)
				}
				break
			}
			if !c.sendJobUpdate(&wire.UpdateJobRequest{JobID: id, ArrayTaskID: task, Action: action}, one) {
				failed = true
				// hold/uhold/release report a failed argument a second time, as slurm_perror
				// of the last error (scontrol.c after scontrol_hold).
				if perrorPrefix != "" && c.quiet != 1 {
					c.eprintf("%s: %s\n", perrorPrefix, c.lastErr)
				}
			}
		}
		_ = failed
	}
}

func (c *cli) cmdHold(argv []string) { c.jobAction(argv, wire.JobActionHold, "slurm_suspend error") }
func (c *cli) cmdUHold(argv []string) {
	c.jobAction(argv, wire.JobActionUserHold, "slurm_suspend error")
}
func (c *cli) cmdRelease(argv []string) {
	c.jobAction(argv, wire.JobActionRelease, "slurm_suspend error")
}
func (c *cli) cmdRequeue(argv []string) { c.jobAction(argv, wire.JobActionRequeue, "") }
func (c *cli) cmdRequeueHold(argv []string) {
	c.jobAction(argv, wire.JobActionRequeueHold, "")
}

func (c *cli) cmdSuspend(argv []string) { c.jobAction(argv, wire.JobActionSuspend, "") }
func (c *cli) cmdResume(argv []string)  { c.jobAction(argv, wire.JobActionResume, "") }

func (c *cli) cmdTop(argv []string) {
	if len(argv) > 2 {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("too many arguments for keyword:%s\n", argv[0])
		}
		return
	}
	c.jobAction(argv, wire.JobActionTop, "")
}

package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// hold, uhold, release, requeue, requeuehold, suspend, resume and top: one request per job
// id, each failure printed as "<error> for job <id>" (Slurm's update_job.c).

// jobIDArg strips the "JobId=" or "Job=" prefix Slurm accepts and parses ID or ID_TASK; ok is
// false for anything else (Name= is read by jobNameArg).
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
func (c *cli) jobAction(argv []string, action uint16, perrorPrefix string, requeueFlags uint32) {
	if len(argv) < 2 {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("too few arguments for keyword:%s\n", argv[0])
		}
		return
	}
	for _, arg := range argv[1:] {
		if name, ok := jobNameArg(arg); ok && perrorPrefix != "" {
			c.holdByName(name, action, perrorPrefix) // hold, uhold and release take names
			continue
		}
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
			if ok, perTask := c.sendJobUpdateTask(&wire.UpdateJobRequest{JobID: id, ArrayTaskID: task, Action: action, RequeueFlags: requeueFlags}, one); !ok && !perTask {
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

func (c *cli) cmdHold(argv []string) { c.jobAction(argv, wire.JobActionHold, "slurm_suspend error", 0) }
func (c *cli) cmdUHold(argv []string) {
	c.jobAction(argv, wire.JobActionUserHold, "slurm_suspend error", 0)
}
func (c *cli) cmdRelease(argv []string) {
	c.jobAction(argv, wire.JobActionRelease, "slurm_suspend error", 0)
}
func (c *cli) cmdRequeue(argv []string)     { c.requeue(argv, wire.JobActionRequeue) }
func (c *cli) cmdRequeueHold(argv []string) { c.requeue(argv, wire.JobActionRequeueHold) }

// requeue is `requeue` and `requeuehold` [Incomplete] [State=SpecialExit] JOB...: the leading
// arguments that are options (Slurm's parse_requeue_flags; any prefix of Incomplete, the
// empty one too) are read as such, the rest are jobs; options alone requeue nothing.
func (c *cli) requeue(argv []string, action uint16) {
	if len(argv) < 2 {
		c.jobAction(argv, action, "", 0) // "too few arguments"
		return
	}
	var flags uint32
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if len(a) <= len("incomplete") && strings.EqualFold(a, "incomplete"[:len(a)]) {
			flags |= wire.RequeueIncomplete
			continue
		}
		if len(a) < 6 || !strings.EqualFold(a[:6], "state=") {
			break
		}
		if v := strings.ToLower(a[6:]); !strings.HasPrefix(v, "specialexit") && !strings.HasPrefix(v, "se") {
			break
		}
		flags |= wire.RequeueSpecialExit
	}
	if i == len(argv) {
		return
	}
	c.jobAction(append([]string{argv[0]}, argv[i:]...), action, "", flags)
}

func (c *cli) cmdSuspend(argv []string) { c.jobAction(argv, wire.JobActionSuspend, "", 0) }
func (c *cli) cmdResume(argv []string)  { c.jobAction(argv, wire.JobActionResume, "", 0) }

// cmdTop is scontrol top JOB_LIST (Slurm's scontrol_top_job): the list goes to the
// controller as given (after a JobId= or Job= prefix), and a failure names it whole.
func (c *cli) cmdTop(argv []string) {
	if len(argv) != 2 {
		c.exitCode = 1
		if c.quiet != 1 {
			what := "few"
			if len(argv) > 2 {
				what = "many"
			}
			c.eprintf("too %s arguments for keyword:%s\n", what, argv[0])
		}
		return
	}
	list := argv[1]
	for _, p := range []string{"jobid=", "job="} {
		if len(list) >= len(p) && strings.EqualFold(list[:len(p)], p) {
			list = list[len(p):]
		}
	}
	c.sendJobUpdate(&wire.UpdateJobRequest{Action: wire.JobActionTop, JobIDStr: list, ArrayTaskID: wire.NoVal}, list)
}

// jobNameArg reads the Name=NAME or JobName=NAME form of hold, uhold and release (after an
// optional JobId= or Job= prefix, as Slurm strips them); the whole rest is one name.
func jobNameArg(s string) (string, bool) {
	for _, p := range []string{"JobID=", "Job="} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
		}
	}
	for _, p := range []string{"Name=", "JobName="} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return s[len(p):], true
		}
	}
	return "", false
}

// holdByName applies a hold or release to every job named name, as Slurm's scontrol_hold
// does for Name=: each job with exactly that name gets the update (array tasks that run are
// skipped; another job that is not pending still gets it, and makes the command fail);
// a failed update prints "<error> for job <id>". When anything failed, the command ends
// with "slurm_suspend error: <text>", the text being the last update's outcome ("No error"
// when that one succeeded), since Slurm prints errno as the last request left it.
func (c *cli) holdByName(name string, action uint16, perrorPrefix string) {
	var rep wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{ShowAll: true}, &rep); e != nil {
		c.perror(perrorPrefix, e)
		return
	}
	if err := rep.Unpack(); err != nil {
		c.perror(perrorPrefix, cmdclient.AsError(err))
		return
	}
	failed, last := false, ""
	for i := range rep.Jobs {
		j := &rep.Jobs[i]
		if j.Name != name {
			continue
		}
		if !states.JobState(j.State).IsPending() {
			if j.ArrayTaskID != wire.NoVal && j.ArrayTaskStr == "" {
				continue
			}
			failed = true // ESLURM_JOB_NOT_PENDING, though the update is still sent
		}
		id := strconv.FormatUint(uint64(j.JobID), 10)
		switch {
		case j.ArrayTaskStr != "":
			id = fmt.Sprintf("%d_%s", j.ArrayJobID, j.ArrayTaskStr)
		case j.ArrayTaskID != wire.NoVal:
			id = fmt.Sprintf("%d_%d", j.ArrayJobID, j.ArrayTaskID)
		}
		last = "No error"
		if !c.sendJobUpdate(&wire.UpdateJobRequest{JobID: j.JobID, ArrayTaskID: wire.NoVal, Action: action}, id) {
			failed, last = true, c.lastErr
		}
	}
	if failed {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("%s: %s\n", perrorPrefix, last)
		}
	}
}

package main

import (
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdPidInfo is `scontrol pidinfo PID` (Slurm's scontrol_pid_info): the job a process of
// this machine belongs to, asked of the local slurmd, and when the job ends.
func (c *cli) cmdPidInfo(argv []string) {
	if !c.argCount(argv, "missing argument for keyword:%s\n", false) {
		return
	}
	pid := atoi(argv[1])
	var rep wire.PidJobReply
	n := c.localNode("")
	if pid <= 0 || n == nil || c.callNode(n, wire.MsgPidJob, &wire.PidJobRequest{Pid: uint32(pid)}, &rep) != nil {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("Failed to locate job for requested pid\n")
		}
		return
	}
	var jobs wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, &wire.JobInfoRequest{ShowAll: true, JobIDs: []uint32{rep.JobID}}, &jobs); e != nil {
		c.perror("Failed to get job end time", e)
		return
	}
	for _, j := range jobs.Jobs {
		if j.JobID != rep.JobID {
			continue
		}
		end := j.EndTime
		if j.TimeLimit == wire.Infinite && j.StartTime > 0 {
			end = j.StartTime + 365*24*3600 // Slurm's end of a job without a limit
		}
		c.printf("Slurm JobId=%d ends at %s\n", rep.JobID, time.Unix(end, 0).Format("Mon Jan _2 15:04:05 2006"))
		c.printf("Job remaining time is %d seconds\n", max(end-time.Now().Unix(), 0))
		return
	}
	c.perror("Failed to get job end time", cmdclient.NewError(cmdclient.ErrnoInvalidJobID))
}

package main

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdListPids is `scontrol listpids [JOBID[.STEPID]] [NODENAME]` (Slurm's
// scontrol_list_pids): the processes of the steps running on this node, from its slurmd.
func (c *cli) cmdListPids(argv []string) {
	if len(argv) > 3 {
		c.exitCode = 1
		c.eprintf("too many arguments for keyword:%s\n", argv[0])
		return
	}
	var arg, nodeName string
	if len(argv) > 1 {
		arg = argv[1]
	}
	if len(argv) > 2 {
		nodeName = argv[2]
	}
	req := &wire.StepPidsRequest{}
	all := arg == "" || arg[0] == '*'
	jobPart, stepPart, hasStep := strings.Cut(arg, ".")
	if !all {
		id, rest := strtoul(jobPart) // show_step.go
		if strings.TrimSpace(rest) != "" {
			c.exitCode = 1
			c.eprintf("\"%s\" does not look like a jobid\n", jobPart)
			return
		}
		req.JobID = uint32(id)
	}
	c.printf("%-8s %-8s %-8s %-7s %-8s\n", "PID", "JOBID", "STEPID", "LOCALID", "GLOBALID")
	if !all && hasStep {
		step, rest := strtoul(stepPart)
		if strings.TrimSpace(rest) != "" {
			c.eprintf("\"%s\" does not look like a stepid\n", arg)
			return
		}
		req.StepID = strconv.FormatUint(step, 10)
	}
	where := nodeName
	if where == "" {
		where = "(null)" // Slurm prints the name it was given
	}
	var rep wire.StepPidsReply
	n := c.localNode(nodeName)
	if n == nil {
		c.errorf("Domain socket directory %s: No such file or directory",
			conf.ExpandNodePattern(c.client().Conf.SlurmdSpoolDir, nodeName, nodeName))
	} else {
		req.NodeName = n.Name
		all := *req
		all.JobID, all.StepID = 0, "" // whether the node runs any step tells the messages apart
		if err := c.callNode(n, wire.MsgStepPids, &all, &rep); err != nil {
			c.errorf("cannot reach the slurmd of node %s: %v", n.Name, err)
		}
	}
	if len(rep.Steps) == 0 {
		c.exitCode = 1
		switch {
		case all:
			c.eprintf("No job steps exist on this node.\n")
		case req.StepID != "":
			c.eprintf("StepId=%d.%s does not exist on node %s.\n", req.JobID, req.StepID, where)
		default:
			c.eprintf("JobId=%d does not exist on node %s.\n", req.JobID, where)
		}
		return
	}
	shown := 0
	for _, s := range rep.Steps {
		if !all && (s.JobID != req.JobID || req.StepID != "" && s.StepID != req.StepID) {
			continue
		}
		shown++
		for _, t := range s.Tasks {
			c.printf("%-8d %-8d %-8s %-7d %-8d\n", t.Pid, s.JobID, s.StepID, t.LocalID, t.GlobalID)
		}
		for _, p := range s.Others {
			c.printf("%-8d %-8d %-8s %-7s %-8s\n", p, s.JobID, s.StepID, "-", "-")
		}
	}
	if shown == 0 {
		c.exitCode = 1
		if req.StepID != "" {
			c.eprintf("StepId=%d.%s does not exist on node %s.\n", req.JobID, req.StepID, where)
		} else {
			c.eprintf("There are no steps for job %d on node %s.\n", req.JobID, where)
		}
	}
}

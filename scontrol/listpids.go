package main

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// localNode is the node of slurm.conf this scontrol runs on, as Slurm's commands guess it:
// the named one, else the first whose NodeHostname is this host's short name, else (Orbit's
// emulated nodes share one machine) the first whose address is a loopback one.
func (c *cli) localNode(name string) *conf.Node {
	cfg := c.client().Conf
	if name != "" {
		for _, n := range cfg.Nodes {
			if n.Name == name {
				return n
			}
		}
		return nil
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	for _, n := range cfg.Nodes {
		if n.Hostname == host {
			return n
		}
	}
	for _, n := range cfg.Nodes {
		if ip := net.ParseIP(n.Addr); n.Addr == "localhost" || ip != nil && ip.IsLoopback() {
			return n
		}
	}
	return nil
}

// callNode sends one request to node n's slurmd.
func (c *cli) callNode(n *conf.Node, t wire.MsgType, req, resp any) error {
	cl := c.client()
	port := uint32(n.Port)
	if port == 0 {
		port = cl.Conf.SlurmdPort
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*cl.MessageTimeout)
	defer cancel()
	return wire.Call(ctx, "tcp", net.JoinHostPort(n.Addr, strconv.Itoa(int(port))), t, req, resp,
		wire.ClientOptions{MessageTimeout: cl.MessageTimeout, Signer: cl.Signer()})
}

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
		id, rest := strtol(jobPart)
		if strings.TrimSpace(rest) != "" {
			c.exitCode = 1
			c.eprintf("\"%s\" does not look like a jobid\n", jobPart)
			return
		}
		req.JobID = uint32(id)
	}
	c.printf("%-8s %-8s %-8s %-7s %-8s\n", "PID", "JOBID", "STEPID", "LOCALID", "GLOBALID")
	if !all && hasStep {
		step, rest := strtol(stepPart)
		if strings.TrimSpace(rest) != "" {
			c.eprintf("\"%s\" does not look like a stepid\n", arg)
			return
		}
		req.StepID = strconv.Itoa(int(uint32(step)))
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

// strtol is C's strtol in base 10: the number at the start of s (after blanks), and the rest.
func strtol(s string) (int64, string) {
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	j := i
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j == i {
		return 0, s
	}
	v, _ := strconv.ParseInt(t[:j], 10, 64)
	return v, t[j:]
}

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

// cmdGetent is `scontrol getent [NODENAME]` (Slurm's scontrol_getent): for each step
// running on this node, the user it runs as, as the step resolves it, and its groups (Slurm
// 22.05 sends a step none unless told to, so the list is empty).
func (c *cli) cmdGetent(argv []string) {
	name := ""
	if len(argv) > 1 {
		name = argv[1]
	}
	n := c.localNode(name)
	var rep wire.StepPidsReply
	if n == nil {
		c.errorf("Domain socket directory %s: No such file or directory",
			conf.ExpandNodePattern(c.client().Conf.SlurmdSpoolDir, name, name))
		return
	}
	if err := c.callNode(n, wire.MsgStepPids, &wire.StepPidsRequest{NodeName: n.Name}, &rep); err != nil {
		c.errorf("cannot reach the slurmd of node %s: %v", n.Name, err)
		return
	}
	for _, s := range rep.Steps {
		pw := userdb.PasswdFields(strconv.FormatUint(uint64(s.UID), 10))
		if pw == nil {
			continue
		}
		c.printf("JobId=%d.%s:\nUser:\n%s\nGroups:\n\n", s.JobID, s.StepID, strings.Join(pw, ":"))
	}
}

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdUpdate is `scontrol update SPECIFICATIONS` (Slurm's _update_it): the entity is the job
// when a JobId/JobName tag is present, else the node, else the partition.
func (c *cli) cmdUpdate(argv []string) {
	if len(argv) < 2 {
		c.exitCode = 1
		c.eprintf("too few arguments for %s keyword\n", argv[0])
		return
	}
	args := argv[1:]
	var job, node, part, other bool
	for i := 0; i < len(args); i++ {
		tag := args[i]
		if eq := strings.IndexByte(tag, '='); eq >= 0 {
			tag = tag[:eq]
		} else {
			i++
		}
		switch {
		case abbrev(tag, "NodeName", 3):
			node = true
		case abbrev(tag, "PartitionName", 3):
			part = true
		case abbrev(tag, "JobId", 3) || abbrev(tag, "JobNAME", 3):
			job = true
		case abbrev(tag, "StepId", 4), abbrev(tag, "FrontendName", 2), abbrev(tag, "ReservationName", 3),
			abbrev(tag, "SlurmctldDebug", 2):
			other = true
		}
	}
	switch {
	case job:
		c.updateJob(args)
	case other:
		c.errorf("this update is not supported by Orbit yet (only jobs, nodes and partitions)")
		c.exitCode = 1
	case node:
		c.updateNode(args)
	case part:
		c.updatePartition(args)
	default:
		c.exitCode = 1
		c.eprintf("No valid entity in update command\n")
		c.eprintf("Input line must include \"NodeName\", ")
		c.eprintf("\"PartitionName\", \"Reservation\", \"JobId\", or \"SlurmctldDebug\"\n")
	}
}

// updateJob is Slurm's scontrol_update_job for the fields Orbit supports.
func (c *cli) updateJob(args []string) {
	req := wire.UpdateJobRequest{Action: wire.JobActionUpdate, ArrayTaskID: wire.NoVal, TimeLimit: wire.NoVal,
		MinNodes: wire.NoVal, MaxNodes: wire.NoVal, Priority: wire.NoVal}
	var ids string
	count := 0
	for i := 0; i < len(args); i++ {
		tag, val, hasVal := strings.Cut(args[i], "=")
		if !hasVal {
			if abbrev(tag, "Nice", 2) {
				req.Nice, req.NiceSet = 100, true
				count++
				continue
			}
			if i+1 < len(args) {
				val = args[i+1]
				i++
			} else {
				c.exitCode = 1
				c.eprintf("Invalid input: %s\n", args[i])
				c.eprintf("Request aborted\n")
				return
			}
		}
		switch {
		case abbrev(tag, "JobId", 3):
			ids = val
			count++
		case abbrev(tag, "TimeLimit", 5):
			m, err := slurmtime.ParseTimeLimit(val)
			if err != nil || m == wire.NoVal {
				c.errorf("Invalid TimeLimit value")
				c.exitCode = 1
				return
			}
			req.TimeLimit = m
			count++
		case abbrev(tag, "Priority", 2):
			p, err := strconv.ParseUint(val, 10, 32)
			if err != nil {
				c.errorf("Invalid Priority value: %s", val)
				c.exitCode = 1
				return
			}
			req.Priority = uint32(p)
			count++
		case abbrev(tag, "Nice", 2):
			n, _ := strconv.ParseInt(val, 10, 64)
			if n > 2147483645 || n < -2147483645 {
				c.errorf("Nice value out of range (+/- %d). Value ignored", 2147483645)
				c.exitCode = 1
				return
			}
			req.Nice, req.NiceSet = int32(n), true
			count++
		case abbrev(tag, "Comment", 3):
			v := val
			req.Comment = &v
			count++
		case abbrev(tag, "NumNodes", 8) || abbrev(tag, "ReqNodes", 8):
			lo, hi, ok := parseRange(val)
			if !ok {
				c.errorf("Invalid node count %s", val)
				c.exitCode = 1
				return
			}
			req.MinNodes, req.MaxNodes = lo, hi
			count++
		case abbrev(tag, "Name", 2) || abbrev(tag, "JobName", 4):
			v := val
			req.Name = &v
			count++
		case abbrev(tag, "Partition", 2):
			v := val
			req.Partition = &v
			count++
		case abbrev(tag, "Dependency", 1):
			v := val
			req.Dependency = &v
			count++
		case abbrev(tag, "StartTime", 2) || abbrev(tag, "BeginTime", 5):
			t, err := slurmtime.ParseTime(val, time.Now())
			if err != nil {
				c.errorf("Invalid StartTime value: %s", val)
				c.exitCode = 1
				return
			}
			req.BeginTime = t.Unix()
			count++
		default:
			c.exitCode = 1
			c.eprintf("Update of this parameter is not supported: %s\n", args[i])
			c.eprintf("Request aborted\n")
			return
		}
	}
	if count == 0 || (count == 1 && ids != "") {
		c.exitCode = 1
		c.eprintf("No changes specified\n")
		return
	}
	if ids == "" {
		c.errorf("No job ID specified")
		c.exitCode = 1
		return
	}
	for _, id := range strings.Split(ids, ",") {
		n, rest := leadingUint(id)
		r := req
		r.JobID = uint32(n)
		if strings.HasPrefix(rest, "_") {
			t, tail := leadingUint(rest[1:])
			r.ArrayTaskID, rest = uint32(t), tail
		}
		if rest != "" || n == 0 {
			c.exitCode = 1
			if c.quiet != 1 {
				c.eprintf("Invalid job id specified for job %s\n", id)
			}
			continue
		}
		c.sendJobUpdate(&r, id)
	}
}

// sendJobUpdate sends one job update and prints "<error> for job <id>" on failure. For one
// array task (ID_TASK) Slurm's controller answers with a per-task result list instead, even
// when the job does not exist, and scontrol prints "<id>: <error>": the request itself
// succeeded, so the callers' "slurm_suspend error" line does not follow (perTask is true).
func (c *cli) sendJobUpdate(r *wire.UpdateJobRequest, id string) bool {
	ok, _ := c.sendJobUpdateTask(r, id)
	return ok
}

// sendJobUpdateTask is sendJobUpdate that also says whether a failure was reported per task.
func (c *cli) sendJobUpdateTask(r *wire.UpdateJobRequest, id string) (ok, perTask bool) {
	var rep wire.UpdateJobReply
	e := c.call(wire.MsgUpdateJob, r, &rep)
	text := ""
	switch {
	case e != nil:
		text = e.Text
	case rep.Errno != 0:
		text = rep.Text
	default:
		return true, false
	}
	c.exitCode = 1
	c.lastErr = text
	perTask = r.ArrayTaskID != wire.NoVal
	if c.quiet != 1 {
		if perTask {
			c.eprintf("%d_%d: %s\n", r.JobID, r.ArrayTaskID, text)
		} else {
			c.eprintf("%s for job %s\n", text, id)
		}
	}
	return false, perTask
}

// parseRange reads "N" or "N-M" (node counts); a lone N means exactly N.
func parseRange(s string) (lo, hi uint32, ok bool) {
	a, b, dash := strings.Cut(s, "-")
	x, err := strconv.ParseUint(a, 10, 32)
	if err != nil {
		return 0, 0, false
	}
	if !dash {
		return uint32(x), uint32(x), true
	}
	y, err := strconv.ParseUint(b, 10, 32)
	if err != nil {
		return 0, 0, false
	}
	return uint32(x), uint32(y), true
}

// updateNode is Slurm's scontrol_update_node for NodeName, State and Reason.
func (c *cli) updateNode(args []string) {
	req := wire.UpdateNodeRequest{ReasonUID: uint32(os.Getuid())}
	count := 0
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			c.exitCode = 1
			c.errorf("Invalid input: %s  Request aborted", a)
			return
		}
		switch {
		case abbrev(tag, "NodeName", 1):
			req.NodeNames = val
		case abbrev(tag, "Reason", 1):
			v := strings.TrimPrefix(val, "\"")
			v = strings.TrimSuffix(v, "\"")
			req.Reason = v
			count++
		case abbrev(tag, "State", 1):
			st, ok := nodeStateArg(val)
			if !ok {
				c.exitCode = 1
				c.eprintf("Invalid input: %s\n", a)
				c.eprintf("Request aborted\n")
				c.eprintf("Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n")
				c.eprintf("Not all states are valid given a node's prior state\n")
				return
			}
			if st == "" {
				c.errorf("this node state is not supported by Orbit yet: %s", val)
				c.exitCode = 1
				return
			}
			req.State = st
			count++
		case abbrev(tag, "NodeAddr", 5), abbrev(tag, "NodeHostName", 5), abbrev(tag, "ActiveFeatures", 3),
			abbrev(tag, "CpuBind", 7), abbrev(tag, "Extra", 1), abbrev(tag, "Features", 1),
			abbrev(tag, "AvailableFeatures", 3), abbrev(tag, "Gres", 1), abbrev(tag, "Weight", 1), abbrev(tag, "Comment", 1):
			c.errorf("update of node %s is not supported by Orbit yet", tag)
			c.exitCode = 1
			return
		default:
			c.exitCode = 1
			c.eprintf("Update of this parameter is not supported: %s\n", a)
			c.eprintf("Request aborted\n")
			return
		}
	}
	if (req.State == "DOWN" || req.State == "DRAIN" || req.State == "FAIL") && req.Reason == "" {
		c.exitCode = 1
		c.eprintf("You must specify a reason when DOWNING or DRAINING a node. Request denied\n")
		return
	}
	if count == 0 {
		c.exitCode = 1
		c.eprintf("No changes specified\n")
		return
	}
	if e := c.call(wire.MsgUpdateNode, &req, nil); e != nil {
		c.perror("slurm_update error", e)
	}
}

// nodeStateArg maps State= as Slurm's scontrol reads it; ok is false for a name Slurm does
// not know, st is "" for one Orbit does not support yet.
func nodeStateArg(val string) (st string, ok bool) {
	n := len(val)
	switch {
	case keywordIs(val, "NoResp", max(n, 3)), keywordIs(val, "CANCEL_REBOOT", max(n, 3)),
		keywordIs(val, "FUTURE", max(n, 3)), keywordIs(val, "POWER_DOWN_ASAP", max(n, 12)),
		keywordIs(val, "POWER_DOWN_FORCE", max(n, 12)), keywordIs(val, "POWER_DOWN", max(n, 7)),
		keywordIs(val, "POWER_UP", max(n, 7)):
		return "", true
	case keywordIs(val, "DRAIN", max(n, 3)):
		return "DRAIN", true
	case keywordIs(val, "FAIL", max(n, 3)):
		return "FAIL", true
	case keywordIs(val, "RESUME", max(n, 3)):
		return "RESUME", true
	case keywordIs(val, "UNDRAIN", max(n, 3)):
		return "UNDRAIN", true
	}
	// Any base state name (node_state_string), compared on max(len, 3) letters.
	for _, name := range []string{"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"} {
		if keywordIs(name, val, max(n, 3)) {
			switch name {
			case "DOWN", "IDLE":
				return name, true
			}
			return "", true
		}
	}
	return "", false
}

// updatePartition is Slurm's scontrol_update_part for PartitionName, State, MaxTime, Nodes.
func (c *cli) updatePartition(args []string) {
	req := wire.UpdatePartitionRequest{MaxTime: wire.NoVal}
	count := 0
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			c.exitCode = 1
			c.errorf("Invalid input: %s  Request aborted", a)
			return
		}
		switch {
		case abbrev(tag, "PartitionName", 2):
			req.Name = val
		case abbrev(tag, "MaxTime", 4):
			m, err := slurmtime.ParseTimeLimit(val)
			if err != nil || m == wire.NoVal {
				c.exitCode = 1
				c.errorf("Invalid input %s", a)
				return
			}
			req.MaxTime = m
			count++
		case abbrev(tag, "State", 2):
			n := len(val)
			switch {
			case keywordIs(val, "INACTIVE", max(n, 1)):
				req.State = "INACTIVE"
			case keywordIs(val, "DOWN", max(n, 2)):
				req.State = "DOWN"
			case keywordIs(val, "UP", max(n, 1)):
				req.State = "UP"
			case keywordIs(val, "DRAIN", max(n, 2)):
				req.State = "DRAIN"
			default:
				c.exitCode = 1
				c.errorf("Invalid input: %s", a)
				c.errorf("Acceptable State values are UP, DOWN, DRAIN and INACTIVE")
				return
			}
			count++
		case abbrev(tag, "Nodes", 1):
			req.Nodes = val
			count++
		default:
			c.errorf("update of partition %s is not supported by Orbit yet", tag)
			c.exitCode = 1
			return
		}
	}
	if count == 0 {
		c.exitCode = 1
		c.eprintf("No changes specified\n")
		return
	}
	if e := c.call(wire.MsgUpdatePartition, &req, nil); e != nil {
		c.perror("slurm_update error", e)
	}
}

var _ = fmt.Sprint

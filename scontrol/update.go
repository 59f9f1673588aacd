package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// hasArgs says whether a command was given arguments; without, it says so as Slurm's
// update, create and delete do ("too few arguments for create keyword").
func (c *cli) hasArgs(argv []string) bool {
	if len(argv) < 2 {
		c.exitCode = 1
		c.eprintf("too few arguments for %s keyword\n", argv[0])
		return false
	}
	return true
}

// cmdUpdate is `scontrol update SPECIFICATIONS` (Slurm's _update_it): the entity is the job
// when a JobId/JobName tag is present, else the reservation (whose options include
// PartitionName), else the node, else the partition.
func (c *cli) cmdUpdate(argv []string) {
	if !c.hasArgs(argv) {
		return
	}
	args := argv[1:]
	var job, node, part, resv, step, other bool
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
		case abbrev(tag, "StepId", 4):
			step = true
		case abbrev(tag, "ReservationName", 3):
			resv = true
		case abbrev(tag, "FrontendName", 2), abbrev(tag, "SlurmctldDebug", 2):
			other = true
		}
	}
	switch {
	case job:
		c.updateJob(args)
	case step:
		c.updateStep(args) // update_step.go
	case other && !resv:
		c.errorf("this update is not supported by Orbit yet (only jobs, steps, reservations, nodes and partitions)")
		c.exitCode = 1
	case resv:
		c.updateResv(args) // resv_commands.go
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
	updateSize := false // NumNodes: a job script gets the resize files (job_resize.go)
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
		case abbrev(tag, "Licenses", 1):
			v := val
			req.Licenses = &v
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
			updateSize = true
		case abbrev(tag, "ReservationName", 3):
			v := val
			req.Reservation = &v
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
		case abbrev(tag, "MailType", 5):
			m, ok := jobspec.ParseMailType(val)
			if !ok {
				c.exitCode = 1
				c.eprintf("Invalid MailType: %s\n", val)
				return
			}
			req.MailType = &m
			count++
		case abbrev(tag, "MailUser", 5):
			v := val
			req.MailUser = &v
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
	if updateSize && strings.Contains(ids, ",") {
		c.exitCode = 1 // Slurm resizes one job at a time, and says nothing
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
		if c.sendJobUpdate(&r, id) && updateSize {
			c.writeResizeFiles(r.JobID) // job_resize.go
		}
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
parse:
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
		case abbrev(tag, "ActiveFeatures", 3):
			req.ActiveFeatures = &val
			count++
		case abbrev(tag, "Extra", 1):
			req.Extra = &val
			count++
		case abbrev(tag, "Features", 1), abbrev(tag, "AvailableFeatures", 3):
			req.Features = &val
			count++
		case abbrev(tag, "Weight", 1):
			w, ok := c.nodeWeightArg(val)
			if !ok {
				break parse // Slurm's scontrol stops reading here and sends what it has
			}
			req.Weight = &w
			count++
		case abbrev(tag, "Comment", 2):
			req.Comment = &val
			count++
		case abbrev(tag, "NodeAddr", 5), abbrev(tag, "NodeHostName", 5), abbrev(tag, "CpuBind", 7),
			abbrev(tag, "Gres", 1):
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

// nodeWeightArg reads Weight= as Slurm's scontrol does (strtoul with base 0, a K suffix
// for thousands of 1024, UNLIMITED or INFINITE, at most 0xfffffff0), saying what is wrong.
func (c *cli) nodeWeightArg(val string) (uint32, bool) {
	num, rest, read, over := strtoulBase0(val)
	if read && (strings.HasPrefix(rest, "k") || strings.HasPrefix(rest, "K")) {
		num *= 1024
		rest = rest[1:]
	}
	switch {
	case !read || rest != "":
		if strings.EqualFold(val, "UNLIMITED") || strings.EqualFold(val, "INFINITE") {
			return wire.Infinite, true
		}
		c.errorf("Weight value (%s) is not a valid number", val)
	case over:
		c.errorf("Weight value (%s) is out of range", val)
	case val[0] == '-':
		c.errorf("Weight value (%s) is less than zero", val)
	case num > 0xfffffff0:
		c.errorf("Weight value (%s) is greater than %d", val, 0xfffffff0)
	default:
		return uint32(num), true
	}
	return 0, false
}

// strtoulBase0 is C's strtoul(s, &end, 0): leading blanks and a sign (a minus negates
// modulo 2^64), then a hexadecimal (0x), octal (leading 0) or decimal number; read is false
// when no digit was, over is C's ERANGE (the value is then ULONG_MAX).
func strtoulBase0(s string) (n uint64, rest string, read, over bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	base := uint64(10)
	switch {
	case len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && strings.ContainsRune("0123456789abcdefABCDEF", rune(t[2])):
		base, t = 16, t[2:]
	case len(t) > 0 && t[0] == '0':
		base = 8
	}
	i := 0
	for ; i < len(t); i++ {
		d := uint64(36)
		switch ch := t[i]; {
		case ch >= '0' && ch <= '9':
			d = uint64(ch - '0')
		case ch >= 'a' && ch <= 'f':
			d = uint64(ch-'a') + 10
		case ch >= 'A' && ch <= 'F':
			d = uint64(ch-'A') + 10
		}
		if d >= base {
			break
		}
		if n > (1<<64-1-d)/base {
			over = true
		}
		n = n*base + d
	}
	if i == 0 {
		return 0, s, false, false
	}
	switch {
	case over:
		n = 1<<64 - 1
	case neg:
		n = -n
	}
	return n, t[i:], true, over
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

// updatePartition is Slurm's scontrol_update_part: the options are read in
// scontrol_parse_part_options' order (abbreviations resolve as there) and checked as there;
// a value Slurm refuses aborts the request with Slurm's lines and "slurm_update error"
// after them. The options Orbit cannot change yet are refused by name.
func (c *cli) updatePartition(args []string) { c.partitionRequest(args, false) }

// partitionRequest reads the options of `update PartitionName=` or, with create, of `create
// PartitionName=` (Slurm's scontrol_parse_part_options, shared by both) and sends the
// request.
func (c *cli) partitionRequest(args []string, create bool) {
	req := wire.UpdatePartitionRequest{MaxTime: wire.NoVal}
	count := 0 // Slurm's update_cnt: PartitionName counts too
	named := false
	erange := false // a number overflowed: Slurm's errno is then ERANGE
	abort := func(lines ...string) {
		for _, l := range lines {
			c.errorf("%s", l)
		}
		c.exitCode = 1
		if create {
			return // Slurm's create prints no errno line
		}
		text := "No error"
		if erange {
			text = "Numerical result out of range"
		}
		c.eprintf("slurm_update error: %s\n", text)
	}
	u16 := func(what, val string) *uint16 {
		n, ok, over := parseUint(val, 0xfffe)
		erange = erange || over
		if !ok {
			abort(fmt.Sprintf("Invalid %s value: %s", what, val))
			return nil
		}
		v := uint16(n)
		return &v
	}
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			abort(fmt.Sprintf("Invalid input: %s  Request aborted", a))
			return
		}
		yesNo := func(what string) (string, bool) {
			n := max(len(val), 1)
			switch {
			case keywordIs(val, "NO", n):
				return "NO", true
			case keywordIs(val, "YES", n):
				return "YES", true
			}
			abort("Invalid input: "+a, "Acceptable "+what+" values are YES and NO")
			return "", false
		}
		switch {
		case abbrev(tag, "PartitionName", 2):
			req.Name = val
			named = true
		case abbrev(tag, "MaxTime", 4):
			m, ok := partTimeLimit(val)
			if !ok {
				abort("Invalid input " + a)
				return
			}
			req.MaxTime = m
		case abbrev(tag, "CpuBind", 7):
			c.refusePartKey(tag)
			return
		case abbrev(tag, "DefaultTime", 8):
			m, ok := partTimeLimit(val)
			if !ok {
				abort("Invalid input " + a)
				return
			}
			req.DefaultTime = &m
		case abbrev(tag, "MaxCPUsPerNode", 4):
			v := uint32(wire.Infinite)
			if !strings.EqualFold(val, "UNLIMITED") && !strings.EqualFold(val, "INFINITE") {
				n, ok, over := parseUint(val, math.MaxUint32)
				erange = erange || over
				if !ok {
					abort("Invalid MaxCPUsPerNode value: " + val)
					return
				}
				v = uint32(n)
			}
			req.MaxCPUsPerNode = &v
		case abbrev(tag, "MaxNodes", 4):
			if strings.EqualFold(val, "UNLIMITED") || strings.EqualFold(val, "INFINITE") {
				v := uint32(wire.Infinite)
				req.MaxNodes = &v
			} else if lo, msg, over := resourceArgRange(val, "MaxNodes"); msg != "" {
				erange = erange || over
				c.errorf("%s", msg)
				c.exitCode = 1 // Slurm goes on and sends what else was given
			} else {
				v := uint32(lo)
				req.MaxNodes = &v
			}
		case abbrev(tag, "MinNodes", 2):
			lo, msg, over := verifyNodeCount(val)
			erange = erange || over
			if msg != "" {
				c.errorf("%s", msg) // and Slurm takes the minimum as read so far
			}
			v := uint32(lo)
			req.MinNodes = &v
		case abbrev(tag, "Default", 7):
			v, ok := yesNo("Default")
			if !ok {
				return
			}
			req.Default = v
		case abbrev(tag, "DisableRootJobs", 1), abbrev(tag, "ExclusiveUser", 1), abbrev(tag, "Hidden", 1),
			abbrev(tag, "LLN", 1), abbrev(tag, "RootOnly", 3), abbrev(tag, "ReqResv", 3):
			name := partFlagName(tag)
			v, ok := yesNo(name)
			if !ok {
				return
			}
			if req.Flags == nil {
				req.Flags = map[string]bool{}
			}
			req.Flags[name] = v == "YES"
		case abbrev(tag, "OverSubscribe", 5), abbrev(tag, "Shared", 2):
			share, ok := parseMaxShare(val)
			if !ok {
				// Slurm cuts the value at its colon in place, so the line shows it cut.
				shown := a
				if i := strings.IndexByte(a, ':'); i >= 0 {
					shown = a[:i]
				}
				abort("Invalid input: "+shown, "Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#")
				return
			}
			req.MaxShare = &share
		case abbrev(tag, "OverTimeLimit", 5):
			c.refusePartKey(tag)
			return
		case abbrev(tag, "PreemptMode", 3):
			m, ok := conf.PreemptModeNum(val)
			if !ok {
				abort("Invalid input: " + a)
				return
			}
			req.PreemptMode = &m
		case abbrev(tag, "Priority", 3):
			v := u16("Priority", val)
			if v == nil {
				return
			}
			req.PriorityTier, req.PriorityJobFactor = v, v
		case abbrev(tag, "PriorityJobFactor", 3):
			if req.PriorityJobFactor = u16("PriorityJobFactor", val); req.PriorityJobFactor == nil {
				return
			}
		case abbrev(tag, "PriorityTier", 3):
			if req.PriorityTier = u16("PriorityTier", val); req.PriorityTier == nil {
				return
			}
		case abbrev(tag, "State", 2):
			n := max(len(val), 1)
			switch {
			case keywordIs(val, "INACTIVE", n):
				req.State = "INACTIVE"
			case keywordIs(val, "DOWN", n):
				req.State = "DOWN"
			case keywordIs(val, "UP", n):
				req.State = "UP"
			case keywordIs(val, "DRAIN", n):
				req.State = "DRAIN"
			default:
				abort("Invalid input: "+a, "Acceptable State values are UP, DOWN, DRAIN and INACTIVE")
				return
			}
		case abbrev(tag, "Nodes", 1):
			req.Nodes = val
		case abbrev(tag, "AllowGroups", 6):
			req.AllowGroups = &val
		case abbrev(tag, "AllowAccounts", 6):
			req.AllowAccounts = &val
		case abbrev(tag, "AllowQos", 6):
			req.AllowQos = &val
		case abbrev(tag, "DenyAccounts", 5):
			req.DenyAccounts = &val
		case abbrev(tag, "DenyQos", 5):
			req.DenyQos = &val
		case abbrev(tag, "AllocNodes", 6):
			req.AllocNodes = &val
		case abbrev(tag, "Alternate", 3):
			req.Alternate = &val
		case abbrev(tag, "GraceTime", 5):
			n, ok, over := parseUint(val, uint64(wire.NoVal))
			erange = erange || over
			if !ok {
				abort("Invalid GraceTime value: " + val)
				return
			}
			v := uint32(n)
			req.GraceTime = &v
		case abbrev(tag, "DefMemPerCPU", 10), abbrev(tag, "DefMemPerNode", 10), abbrev(tag, "MaxMemPerCPU", 10),
			abbrev(tag, "MaxMemPerNode", 10):
			name := "DefMemPerCPU"
			dst := &req.DefMemPerCPU
			switch {
			case abbrev(tag, "DefMemPerNode", 10):
				name, dst = "DefMemPerNode", &req.DefMemPerNode
			case abbrev(tag, "MaxMemPerCPU", 10):
				name, dst = "MaxMemPerCPU", &req.MaxMemPerCPU
			case abbrev(tag, "MaxMemPerNode", 10):
				name, dst = "MaxMemPerNode", &req.MaxMemPerNode
			}
			n, ok, over := parseUint(val, math.MaxUint64>>1)
			erange = erange || over
			if !ok {
				abort("Invalid " + name + " value: " + val)
				return
			}
			*dst = &n
		case abbrev(tag, "QoS", 3), abbrev(tag, "JobDefaults", 4), abbrev(tag, "TresBillingWeights", 1):
			c.refusePartKey(tag)
			return
		default:
			abort("Update of this parameter is not supported: "+a+"\n", "Request aborted")
			return
		}
		count++
	}
	if !named {
		c.exitCode = 1
		c.errorf("PartitionName must be given.")
		return
	}
	if create {
		c.createPartition(&req)
		return
	}
	if count <= 1 {
		c.exitCode = 1
		c.errorf("No changes specified")
		return
	}
	if e := c.call(wire.MsgUpdatePartition, &req, nil); e != nil {
		c.perror("slurm_update error", e)
	}
}

// refusePartKey refuses a partition option Slurm's scontrol knows and Orbit cannot change yet.
func (c *cli) refusePartKey(tag string) {
	c.errorf("update of partition %s is not supported by Orbit yet", tag)
	c.exitCode = 1
}

// partTimeLimit reads MaxTime or DefaultTime as scontrol does: time_str2mins, refusing what
// comes out negative but for -1/UNLIMITED.
func partTimeLimit(val string) (uint32, bool) {
	m, err := slurmtime.ParseTimeLimit(val)
	if err != nil || m == wire.NoVal || int32(m) < 0 && m != wire.Infinite {
		return 0, false
	}
	return m, true
}

// strtoll is C's strtoll in base 10: leading blanks and a sign, then digits; the value
// saturates (over is then true, C's ERANGE); rest is what follows, or s itself when no digit
// was read.
func strtoll(s string) (n int64, rest string, over bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	i := 0
	var u uint64
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		d := uint64(t[i] - '0')
		if u > (1<<63-d)/10 {
			over = true
			u = 1 << 63
		} else if !over {
			u = u*10 + d
		}
	}
	if i == 0 {
		return 0, s, false
	}
	switch {
	case neg && u >= 1<<63:
		n = math.MinInt64
	case u >= 1<<63:
		n, over = math.MaxInt64, true
	case neg:
		n = -int64(u)
	default:
		n = int64(u)
	}
	return n, t[i:], over
}

// parseUint is Slurm's parse_uint16/parse_uint32 with limit NO_VAL16 or NO_VAL: the whole
// string must be a number from 0 to limit-1 ("" is 0, as strtoll reads it).
func parseUint(s string, limit uint64) (n uint64, ok, over bool) {
	v, rest, over := strtoll(s)
	if rest != "" || v == math.MinInt64 || v == math.MaxInt64 || v < 0 || uint64(v) >= limit {
		return 0, false, over
	}
	return uint64(v), true, over
}

// scaleKM applies a k/K or m/M suffix as get_resource_arg_range does (C's long arithmetic
// wraps).
func scaleKM(n int64, rest string) (int64, string) {
	switch {
	case rest != "" && (rest[0] == 'k' || rest[0] == 'K'):
		return n * 1024, rest[1:]
	case rest != "" && (rest[0] == 'm' || rest[0] == 'M'):
		return n * 1048576, rest[1:]
	}
	return n, rest
}

// resourceArgRange is Slurm's get_resource_arg_range for one minimum: msg is the error line
// when the value is refused.
func resourceArgRange(arg, what string) (lo int64, msg string, over bool) {
	if arg == "" || arg[0] == '*' {
		return 1, "", false
	}
	bad := fmt.Sprintf("Invalid numeric value \"%s\" for %s.", arg, what)
	n, rest, over := strtoll(arg)
	n, rest = scaleKM(n, rest)
	if rest != "" && rest[0] != '-' || n < 0 {
		return 0, bad, over
	}
	if n > math.MaxInt32 {
		return 0, fmt.Sprintf("Numeric argument (%d) to big for %s.", n, what), over
	}
	lo = n
	if rest == "" {
		return lo, "", over
	}
	n, rest, o := strtoll(rest[1:])
	over = over || o
	n, rest = scaleKM(n, rest)
	if rest != "" && rest[0] != '-' || n <= 0 {
		return 0, bad, over
	}
	if n > math.MaxInt32 {
		return 0, fmt.Sprintf("Numeric argument (%d) to big for %s.", n, what), over
	}
	return lo, "", over
}

// strToNodes is Slurm's _str_to_nodes: a C int count with k and m suffixes; -1 when no digit.
func strToNodes(s string) (int32, string, bool) {
	n, rest, over := strtoll(s)
	if rest == s {
		return -1, s, false
	}
	if rest != "" && (rest[0] == 'k' || rest[0] == 'K') {
		n, rest = n*1024, rest[1:]
	}
	if rest != "" && (rest[0] == 'm' || rest[0] == 'M') {
		n, rest = n*1024*1024, rest[1:]
	}
	return int32(n), rest, over
}

// verifyNodeCount is Slurm's verify_node_count for MinNodes: the minimum as far as it was
// read (1 to begin with) and the error line when the value is refused (Slurm still uses that
// minimum).
func verifyNodeCount(arg string) (lo int32, msg string, over bool) {
	blank := func(s string) bool { return strings.TrimLeft(s, " \t\n\v\f\r") == "" }
	notCount := func(s string) string { return fmt.Sprintf("\"%s\" is not a valid node count", s) }
	var hi int32
	if i := strings.IndexByte(arg, '-'); i >= 0 {
		var rest string
		lo, rest, over = strToNodes(arg[:i])
		if !blank(rest) {
			return lo, notCount(arg[:i]), over
		}
		if lo < 0 {
			lo = 1
		}
		var o bool
		hi, rest, o = strToNodes(arg[i+1:])
		over = over || o
		if !blank(rest) {
			return lo, notCount(arg[i+1:]), over
		}
	} else {
		var rest string
		lo, rest, over = strToNodes(arg)
		hi = lo
		if !blank(rest) || lo < 0 {
			return lo, notCount(arg), over
		}
	}
	if hi != 0 && hi < lo {
		return lo, fmt.Sprintf("Maximum node count %d is less than minimum node count %d", hi, lo), over
	}
	return lo, "", over
}

// parseMaxShare reads OverSubscribe (or Shared) into Slurm's max_share: NO, EXCLUSIVE,
// YES[:n] and FORCE[:n], each word abbreviated to any prefix.
func parseMaxShare(val string) (uint16, bool) {
	word, num, colon := strings.Cut(val, ":")
	count := func() uint16 {
		if !colon {
			return 4
		}
		n, _, _ := strtoll(num)
		return uint16(n)
	}
	n := max(len(word), 1)
	switch {
	case keywordIs(word, "NO", n):
		return 1, true
	case keywordIs(word, "EXCLUSIVE", n):
		return 0, true
	case keywordIs(word, "YES", n):
		return count(), true
	case keywordIs(word, "FORCE", n):
		return count() | 0x8000, true
	}
	return 0, false
}

// partFlagName is the flag a partition option names (its tag may be abbreviated).
func partFlagName(tag string) string {
	for _, name := range []string{"DisableRootJobs", "ExclusiveUser", "Hidden", "LLN", "RootOnly", "ReqResv"} {
		if len(tag) <= len(name) && strings.EqualFold(tag, name[:len(tag)]) {
			return name
		}
	}
	return tag
}

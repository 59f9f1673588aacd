package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// showJob is `scontrol show job [ID]` (Slurm's scontrol_print_job).
func (c *cli) showJob(_ string, val *string, _ []string) {
	var want uint32
	arrayTask := wire.NoVal
	if val != nil {
		s := *val
		for i := 0; i < len(s); i++ {
			if !(s[i] >= '0' && s[i] <= '9') && s[i] != '_' && s[i] != '+' {
				c.perror("scontrol_print_job error", cmdclient.NewError(cmdclient.ErrnoInvalidJobID))
				return
			}
		}
		id, rest := leadingUint(s)
		want = uint32(id)
		if strings.HasPrefix(rest, "_") {
			t, _ := leadingUint(rest[1:])
			arrayTask = uint32(t)
		}
	}
	req := &wire.JobInfoRequest{ShowAll: c.all}
	if want != 0 {
		req.JobIDs = []uint32{want}
	}
	var rep wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, req, &rep); e != nil {
		c.perror("slurm_load_jobs error", e)
		return
	}
	if want != 0 && len(rep.Jobs) == 0 {
		// Slurm's controller answers a lookup of an unknown id with an error.
		c.perror("slurm_load_jobs error", cmdclient.NewError(cmdclient.ErrnoInvalidJobID))
		return
	}
	if c.quiet == -1 {
		fmt.Fprintf(c.stdout, "last_update_time=%s, records=%d\n", c.timeStr(rep.LastUpdate), len(rep.Jobs))
	}
	printed := 0
	for i := range rep.Jobs {
		j := &rep.Jobs[i]
		if arrayTask != wire.NoVal && j.ArrayTaskID != arrayTask && !taskInPending(j, arrayTask) {
			continue
		}
		if arrayTask != wire.NoVal && j.ArrayTaskStr != "" {
			cp := *j
			cp.ArrayTaskStr, cp.ArrayTaskID = "", arrayTask
			j = &cp
		}
		c.stdout.WriteString(c.sprintJob(j, time.Now()))
		printed++
	}
	if printed == 0 {
		if val != nil {
			c.exitCode = 1
			if c.quiet != 1 {
				if arrayTask != wire.NoVal {
					fmt.Fprintf(c.stdout, "Job %d_%d not found\n", want, arrayTask)
				} else {
					fmt.Fprintf(c.stdout, "Job %d not found\n", want)
				}
			}
		} else if c.quiet != 1 {
			c.stdout.WriteString("No jobs in the system\n")
		}
	}
}

// taskInPending says whether task is among an array record's pending indices.
func taskInPending(j *wire.JobInfo, task uint32) bool {
	if j.ArrayTaskStr == "" {
		return false
	}
	spec := j.ArrayTaskStr
	if i := strings.IndexByte(spec, '%'); i >= 0 {
		spec = spec[:i]
	}
	for _, part := range strings.Split(spec, ",") {
		lo, rest := leadingUint(part)
		hi, step := lo, uint64(1)
		if strings.HasPrefix(rest, "-") {
			hi, rest = leadingUint(rest[1:])
			if strings.HasPrefix(rest, ":") {
				step, _ = leadingUint(rest[1:])
			}
		}
		if uint64(task) >= lo && uint64(task) <= hi && step > 0 && (uint64(task)-lo)%step == 0 {
			return true
		}
	}
	return false
}

// leadingUint reads the decimal number s starts with, as strtol does, and the rest.
func leadingUint(s string) (uint64, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseUint(s[:i], 10, 64)
	return n, s[i:]
}

// timeStr prints a time_t as slurm_make_time_str does.
func (c *cli) timeStr(secs int64) string { return slurmtime.FormatUnix(secs, time.Local) }

func nullStr(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

// record builds one `scontrol show` record: fields separated by line ends ("\n   ", or " "
// with -o), closed by a blank line (or one newline with -o).
type record struct {
	b       strings.Builder
	lineEnd string
	one     bool
}

func newRecord(oneLiner bool) *record {
	r := &record{lineEnd: "\n   ", one: oneLiner}
	if oneLiner {
		r.lineEnd = " "
	}
	return r
}

func (r *record) f(format string, a ...any) { fmt.Fprintf(&r.b, format, a...) }
func (r *record) s(s string)                { r.b.WriteString(s) }
func (r *record) nl()                       { r.b.WriteString(r.lineEnd) }
func (r *record) end() string {
	if r.one {
		r.b.WriteString("\n")
	} else {
		r.b.WriteString("\n\n")
	}
	return r.b.String()
}

// sprintJob renders one job as Slurm's slurm_sprint_job_info does, with the lines Orbit's
// jobs can have (no het jobs, federation, burst buffers, cron, power or TRES-per-X lines).
func (c *cli) sprintJob(j *wire.JobInfo, now time.Time) string {
	r := newRecord(c.oneLiner)
	st := states.JobState(j.State)
	r.f("JobId=%d ", j.JobID)
	if j.ArrayJobID != 0 {
		if j.ArrayTaskStr != "" {
			r.f("ArrayJobId=%d ArrayTaskId=%s ", j.ArrayJobID, j.ArrayTaskStr)
		} else {
			r.f("ArrayJobId=%d ArrayTaskId=%d ", j.ArrayJobID, j.ArrayTaskID)
		}
		if j.ArrayMaxTasks != 0 {
			r.f("ArrayTaskThrottle=%d ", j.ArrayMaxTasks)
		}
	}
	r.f("JobName=%s", j.Name)
	r.nl()
	r.f("UserId=%s(%d) GroupId=%s(%d) MCS_label=N/A", j.UserName, j.UserID, j.GroupName, j.GroupID)
	r.nl()
	r.f("Priority=%d Nice=%d Account=%s QOS=%s", j.Priority, j.Nice, nullStr(j.Account), nullStr(j.QOS))
	r.nl()
	reason := states.Reason(j.Reason).String()
	if j.StateDesc != "" {
		reason = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' {
				return '_'
			}
			return r
		}, j.StateDesc)
	}
	r.f("JobState=%s Reason=%s Dependency=%s", st.String(), reason, nullStr(j.Dependency))
	r.nl()
	r.f("Requeue=%d Restarts=%d BatchFlag=%d Reboot=0 ExitCode=%s", b2i(j.Requeue), j.Restarts, b2i(j.BatchFlag), exitCode(j.ExitCode))
	r.nl()
	if c.details {
		r.f("DerivedExitCode=%s", exitCode(j.DerivedExit))
		r.nl()
	}
	var run int64
	switch {
	case st.IsPending():
	case st.IsSuspended():
		run = j.PreSusTime
	default:
		end := j.EndTime
		if st.IsRunning() || end == 0 {
			end = now.Unix()
		}
		if j.SuspendTime != 0 {
			run = end - j.SuspendTime + j.PreSusTime
		} else {
			run = end - j.StartTime
		}
	}
	tmin := "N/A"
	if j.TimeMin != 0 && j.TimeMin != wire.NoVal {
		tmin = slurmtime.FormatTimeLimit(j.TimeMin)
	}
	r.f("RunTime=%s TimeLimit=%s TimeMin=%s", slurmtime.FormatElapsed(run), slurmtime.FormatTimeLimit(j.TimeLimit), tmin)
	r.nl()
	r.f("SubmitTime=%s EligibleTime=%s", c.timeStr(j.SubmitTime), c.timeStr(j.EligibleTime))
	r.nl()
	r.f("AccrueTime=%s", c.timeStr(j.AccrueTime))
	r.nl()
	endStr := c.timeStr(j.EndTime)
	if j.TimeLimit == wire.Infinite && j.EndTime > now.Unix() {
		endStr = "Unknown"
	}
	deadline := "N/A"
	if j.Deadline != 0 {
		deadline = c.timeStr(j.Deadline)
	}
	r.f("StartTime=%s EndTime=%s Deadline=%s", c.timeStr(j.StartTime), endStr, deadline)
	r.nl()
	susp := "None"
	if j.SuspendTime != 0 {
		susp = c.timeStr(j.SuspendTime)
	}
	r.f("SuspendTime=%s SecsPreSuspend=%d LastSchedEval=%s Scheduler=Main", susp, j.PreSusTime, c.timeStr(j.LastSchedEval))
	r.nl()
	r.f("Partition=%s AllocNode:Sid=%s:%d", j.Partition, j.AllocNode, j.AllocSID)
	r.nl()
	r.f("ReqNodeList=%s ExcNodeList=%s", nullStr(j.ReqNodes), nullStr(j.ExcNodes))
	r.nl()
	r.f("NodeList=%s", sortedHostlist(j.NodeList))
	r.nl()
	if j.BatchHost != "" {
		r.f("BatchHost=%s", j.BatchHost)
		r.nl()
	}
	minN, maxN := j.NumNodes, uint32(0)
	if st.IsPending() {
		maxN = j.MaxNodes
		if maxN != 0 && maxN < minN {
			minN = maxN
		}
	}
	nodes := strconv.FormatUint(uint64(minN), 10)
	if maxN > 0 {
		nodes += "-" + strconv.FormatUint(uint64(maxN), 10)
	}
	tasks := "N/A"
	if j.NumTasks != wire.NoVal {
		tasks = strconv.FormatUint(uint64(j.NumTasks), 10)
	}
	r.f("NumNodes=%s NumCPUs=%d NumTasks=%s CPUs/Task=%d ReqB:S:C:T=0:0:*:*", nodes, j.NumCPUs, tasks, max(j.CPUsPerTask, 1))
	r.nl()
	r.f("TRES=%s", j.TRES)
	r.nl()
	r.f("Socks/Node=* NtasksPerN:B:S:C=%d:0:*:* CoreSpec=*", j.NTasksPerNode)
	r.nl()
	if c.details && j.NodeList != "" && !st.IsPending() {
		r.s("JOB_GRES=(null)")
		r.nl()
		c.sprintCPUIDs(r, j)
	}
	memKind, mem := "Node", j.MemPerNode
	if j.MemPerCPU != 0 && j.MemPerCPU != wire.NoVal64 {
		memKind, mem = "CPU", j.MemPerCPU
	}
	if mem == wire.NoVal64 {
		mem = 0
	}
	r.f("MinCPUsNode=%d MinMemory%s=%s MinTmpDiskNode=0", max(j.MinCPUsNode, 1), memKind, memsize.FormatMB(mem))
	r.nl()
	r.f("Features=%s DelayBoot=00:00:00", nullStr(j.Features))
	r.nl()
	if j.Reservation != "" {
		r.f("Reservation=%s", j.Reservation)
		r.nl()
	}
	r.f("OverSubscribe=%s Contiguous=%d Licenses=%s Network=%s", j.OverSubscribe, b2i(j.Contiguous), nullStr(j.Licenses), nullStr(j.Network))
	r.nl()
	r.f("Command=%s", nullStr(j.Command))
	r.nl()
	r.f("WorkDir=%s", j.WorkDir)
	if j.Comment != "" {
		r.nl()
		r.f("Comment=%s ", j.Comment)
	}
	if j.BatchFlag {
		r.nl()
		r.f("StdErr=%s", stdPath(j, j.StdErr, j.StdOut, true))
		r.nl()
		in := "/dev/null"
		if j.StdIn != "" {
			in = fnameFormat(j, j.StdIn)
		}
		r.f("StdIn=%s", in)
		r.nl()
		r.f("StdOut=%s", stdPath(j, j.StdOut, "", false))
	}
	r.nl()
	r.s("Power=")
	if j.MailType != 0 && j.MailUser != "" {
		r.nl()
		r.f("MailUser=%s MailType=%s", j.MailUser, mailTypeString(j.MailType))
	}
	r.nl()
	return r.end()
}

// sprintCPUIDs prints the -d lines "  Nodes=... CPU_IDs=... Mem=... GRES=": Orbit allocates
// the lowest-numbered CPUs of each node, so a node's IDs are 0..n-1.
func (c *cli) sprintCPUIDs(r *record, j *wire.JobInfo) {
	names, err := hostlist.Expand(j.NodeList)
	if err != nil || len(names) != len(j.CPUsPerNode) {
		return
	}
	flush := func(group []string, cpus uint32) {
		if len(group) == 0 {
			return
		}
		ids := "0"
		if cpus > 1 {
			ids = fmt.Sprintf("0-%d", cpus-1)
		}
		r.f("  Nodes=%s CPU_IDs=%s Mem=0 GRES=", hostlist.Compress(group), ids)
		r.nl()
	}
	var group []string
	var last uint32
	for i, n := range names {
		if i > 0 && j.CPUsPerNode[i] != last {
			flush(group, last)
			group = nil
		}
		group = append(group, n)
		last = j.CPUsPerNode[i]
	}
	flush(group, last)
}

func sortedHostlist(list string) string {
	if list == "" {
		return ""
	}
	names, err := hostlist.Expand(list)
	if err != nil {
		return list
	}
	return hostlist.CompressSorted(names)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// exitCode prints a wait(2) status as "exit:signal".
func exitCode(status uint32) string {
	if sig := status & 0x7f; sig != 0 && sig != 0x7f {
		return fmt.Sprintf("0:%d", sig)
	}
	return fmt.Sprintf("%d:0", (status>>8)&0xff)
}

// stdPath is slurm_get_job_stdout/stderr: the pattern with %A %a %j %u %x filled in, or the
// default slurm-%j.out (slurm-%A_%a.out for array tasks) in the working directory.
func stdPath(j *wire.JobInfo, pattern, fallback string, isErr bool) string {
	if pattern == "" && isErr {
		pattern = fallback
	}
	if pattern != "" {
		return fnameFormat(j, pattern)
	}
	if j.ArrayJobID != 0 {
		return fmt.Sprintf("%s/slurm-%d_%d.out", j.WorkDir, j.ArrayJobID, j.ArrayTaskID)
	}
	return fmt.Sprintf("%s/slurm-%d.out", j.WorkDir, j.JobID)
}

// fnameFormat is Slurm's _fname_format: only %A, %a, %j, %u and %x are expanded (others stay
// as typed), and a relative result is placed in the working directory.
func fnameFormat(j *wire.JobInfo, p string) string {
	arrayID := j.JobID
	if j.ArrayTaskID != wire.NoVal {
		arrayID = j.ArrayJobID
	}
	p = strings.ReplaceAll(p, "%A", strconv.FormatUint(uint64(arrayID), 10))
	p = strings.ReplaceAll(p, "%a", strconv.FormatUint(uint64(j.ArrayTaskID), 10))
	p = strings.ReplaceAll(p, "%j", strconv.FormatUint(uint64(j.JobID), 10))
	p = strings.ReplaceAll(p, "%u", j.UserName)
	p = strings.ReplaceAll(p, "%x", j.Name)
	if strings.HasPrefix(p, "/") {
		return p
	}
	return j.WorkDir + "/" + p
}

// mailTypeString is Slurm's print_mail_type.
func mailTypeString(t uint16) string {
	if t == 0 {
		return "NONE"
	}
	names := []struct {
		bit  uint16
		name string
	}{{0x0001, "BEGIN"}, {0x0002, "END"}, {0x0004, "FAIL"}, {0x0008, "REQUEUE"}, {0x0010, "TIME_LIMIT"},
		{0x0020, "TIME_LIMIT_90"}, {0x0040, "TIME_LIMIT_80"}, {0x0080, "TIME_LIMIT_50"}, {0x0100, "ARRAY_TASKS"},
		{0x0200, "INVALID_DEPENDENCY"}, {0x0400, "STAGE_OUT"}}
	var out []string
	for _, n := range names {
		if t&n.bit != 0 {
			out = append(out, n.name)
		}
	}
	return strings.Join(out, ",")
}

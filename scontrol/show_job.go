package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
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
	// The listing of a large queue is garbage only once printed: collecting it early and
	// often only costs time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	req := &wire.JobInfoRequest{ShowAll: c.all, Packed: true, PackedRefs: true}
	if want != 0 {
		req.JobIDs = []uint32{want}
	}
	var rep wire.JobInfoReply
	if e := c.call(wire.MsgJobInfo, req, &rep); e != nil {
		c.perror("slurm_load_jobs error", e)
		return
	}
	// The jobs are printed as they are decoded, never held as a list. A first pass counts
	// them (-v prints the count first) and checks the whole reply, so a malformed one is an
	// error before anything is printed; it allocates nothing.
	records := 0
	if err := rep.EachJob(func(*wire.JobInfo) bool { records++; return true }); err != nil {
		c.perror("slurm_load_jobs error", cmdclient.AsError(err))
		return
	}
	if want != 0 && records == 0 {
		// Slurm's controller answers a lookup of an unknown id with an error.
		c.perror("slurm_load_jobs error", cmdclient.NewError(cmdclient.ErrnoInvalidJobID))
		return
	}
	if c.quiet == -1 {
		fmt.Fprintf(c.stdout, "last_update_time=%s, records=%d\n", c.timeStr(rep.LastUpdate), records)
	}
	printed := 0
	now := time.Now()
	rep.EachJob(func(j *wire.JobInfo) bool {
		if arrayTask != wire.NoVal && j.ArrayTaskID != arrayTask && !taskInPending(j, arrayTask) {
			return true
		}
		if arrayTask != wire.NoVal && j.ArrayTaskStr != "" {
			cp := *j
			cp.ArrayTaskStr, cp.ArrayTaskID = "", arrayTask
			j = &cp
		}
		c.writeJob(j, now)
		printed++
		return true
	})
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
func (c *cli) timeStr(secs int64) string {
	// Jobs of a large queue share their times (submitted in the same second, evaluated at
	// submission): formatting each once keeps `scontrol show job` of 10,000 jobs quick.
	if s, ok := timeStrs[secs]; ok {
		return s
	}
	s := slurmtime.FormatUnix(secs, time.Local)
	if len(timeStrs) >= 4096 {
		clear(timeStrs)
	}
	timeStrs[secs] = s
	return s
}

// timeStrs caches timeStr's answers. scontrol runs its commands one at a time.
var timeStrs = map[int64]string{}

func nullStr(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

// record builds one `scontrol show` record: fields separated by line ends ("\n   ", or " "
// with -o), closed by a blank line (or one newline with -o).
type record struct {
	b       recBuf
	lineEnd string
	one     bool
}

// recBuf is a strings.Builder whose buffer can be emptied and filled again: `scontrol show
// job` builds 10,000 records in one (a fresh buffer each was 15 MB of new memory).
type recBuf struct{ b []byte }

func (w *recBuf) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
func (w *recBuf) WriteString(s string)        { w.b = append(w.b, s...) }
func (w *recBuf) WriteByte(c byte) error      { w.b = append(w.b, c); return nil }
func (w *recBuf) Grow(n int)                  { w.b = append(make([]byte, 0, len(w.b)+n), w.b...) }
func (w *recBuf) String() string              { return string(w.b) }

func newRecord(oneLiner bool) *record {
	r := &record{lineEnd: "\n   ", one: oneLiner}
	r.b.Grow(1536) // a job's record, at once rather than by doubling from nothing
	if oneLiner {
		r.lineEnd = " "
	}
	return r
}

// f appends format with its arguments as fmt.Fprintf would. The records use only %s with
// strings and %d with integers, which it writes itself: fmt's general machinery was most of
// `scontrol show job`'s time with a large queue. Anything else goes to fmt.
func (r *record) f(format string, a ...any) {
	if strings.Count(format, "%") != len(a) {
		fmt.Fprintf(&r.b, format, a...) // %%, or a mismatch fmt reports its own way
		return
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			r.b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) || len(a) == 0 || !r.arg(format[i+1], a[0]) {
			fmt.Fprintf(&r.b, format[i:], a...)
			return
		}
		a = a[1:]
		i++
	}
}

// arg writes v for verb when it is a %s string or a %d integer; false for anything else.
func (r *record) arg(verb byte, v any) bool {
	var buf [24]byte
	switch verb {
	case 's':
		s, ok := v.(string)
		if ok {
			r.b.WriteString(s)
		}
		return ok
	case 'd':
		switch n := v.(type) {
		case int:
			r.b.Write(strconv.AppendInt(buf[:0], int64(n), 10))
		case int32:
			r.b.Write(strconv.AppendInt(buf[:0], int64(n), 10))
		case int64:
			r.b.Write(strconv.AppendInt(buf[:0], n, 10))
		case uint16:
			r.b.Write(strconv.AppendUint(buf[:0], uint64(n), 10))
		case uint32:
			r.b.Write(strconv.AppendUint(buf[:0], uint64(n), 10))
		case uint64:
			r.b.Write(strconv.AppendUint(buf[:0], n, 10))
		default:
			return false
		}
		return true
	}
	return false
}

func (r *record) s(s string) { r.b.WriteString(s) }

// rnum appends an integer in decimal, as %d does, without boxing it (sprintJob prints a
// dozen per job).
func rnum[T int | int32 | int64 | uint16 | uint32 | uint64](r *record, v T) {
	var buf [24]byte
	if v < 0 {
		r.b.Write(strconv.AppendInt(buf[:0], int64(v), 10))
		return
	}
	r.b.Write(strconv.AppendUint(buf[:0], uint64(v), 10))
}

func (r *record) nl() { r.b.WriteString(r.lineEnd) }
func (r *record) end() string {
	r.close()
	return r.b.String()
}

// close ends the record.
func (r *record) close() {
	if r.one {
		r.b.WriteString("\n")
	} else {
		r.b.WriteString("\n\n")
	}
}

// sprintJob renders one job as Slurm's slurm_sprint_job_info does, with the lines Orbit's
// jobs can have (no het jobs, federation, burst buffers, cron, power or TRES-per-X lines).
func (c *cli) sprintJob(j *wire.JobInfo, now time.Time) string {
	r := newRecord(c.oneLiner)
	c.appendJob(r, j, now)
	return r.end()
}

// writeJob prints what sprintJob returns, built in one buffer reused from job to job.
func (c *cli) writeJob(j *wire.JobInfo, now time.Time) {
	if jobRec == nil || jobRec.one != c.oneLiner {
		jobRec = newRecord(c.oneLiner)
	}
	r := jobRec
	r.b.b = r.b.b[:0]
	c.appendJob(r, j, now)
	r.close()
	c.stdout.Write(r.b.b)
}

// jobRec is writeJob's buffer. scontrol runs its commands one at a time.
var jobRec *record

// appendJob appends the record of j to r.
func (c *cli) appendJob(r *record, j *wire.JobInfo, now time.Time) {
	st := states.JobState(j.State)
	r.s("JobId=")
	rnum(r, j.JobID)
	r.s(" ")
	if j.ArrayJobID != 0 {
		if j.ArrayTaskStr != "" {
			r.s("ArrayJobId=")
			rnum(r, j.ArrayJobID)
			r.s(" ArrayTaskId=")
			r.s(j.ArrayTaskStr)
			r.s(" ")
		} else {
			r.s("ArrayJobId=")
			rnum(r, j.ArrayJobID)
			r.s(" ArrayTaskId=")
			rnum(r, j.ArrayTaskID)
			r.s(" ")
		}
		if j.ArrayMaxTasks != 0 {
			r.s("ArrayTaskThrottle=")
			rnum(r, j.ArrayMaxTasks)
			r.s(" ")
		}
	}
	r.s("JobName=")
	r.s(j.Name)
	r.nl()
	r.s("UserId=")
	r.s(j.UserName)
	r.s("(")
	rnum(r, j.UserID)
	r.s(") GroupId=")
	r.s(j.GroupName)
	r.s("(")
	rnum(r, j.GroupID)
	r.s(") MCS_label=")
	if j.MCSLabel != "" {
		r.s(j.MCSLabel)
	} else {
		r.s("N/A")
	}
	r.nl()
	r.s("Priority=")
	rnum(r, j.Priority)
	r.s(" Nice=")
	rnum(r, j.Nice)
	r.s(" Account=")
	r.s(nullStr(j.Account))
	r.s(" QOS=")
	r.s(nullStr(j.QOS))
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
	r.s("JobState=")
	r.s(st.String())
	r.s(" Reason=")
	r.s(reason)
	r.s(" Dependency=")
	r.s(nullStr(j.Dependency))
	r.nl()
	r.s("Requeue=")
	rnum(r, b2i(j.Requeue))
	r.s(" Restarts=")
	rnum(r, j.Restarts)
	r.s(" BatchFlag=")
	rnum(r, b2i(j.BatchFlag))
	r.s(" Reboot=")
	rnum(r, b2i(j.Reboot))
	r.s(" ExitCode=")
	r.s(exitCode(j.ExitCode))
	r.nl()
	if c.details {
		r.s("DerivedExitCode=")
		r.s(exitCode(j.DerivedExit))
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
	r.s("RunTime=")
	r.s(slurmtime.FormatElapsed(run))
	r.s(" TimeLimit=")
	r.s(slurmtime.FormatTimeLimit(j.TimeLimit))
	r.s(" TimeMin=")
	r.s(tmin)
	r.nl()
	r.s("SubmitTime=")
	r.s(c.timeStr(j.SubmitTime))
	r.s(" EligibleTime=")
	r.s(c.timeStr(j.EligibleTime))
	r.nl()
	r.s("AccrueTime=")
	r.s(c.timeStr(j.AccrueTime))
	r.nl()
	if j.ResizeTime != 0 {
		r.s("ResizeTime=")
		r.s(c.timeStr(j.ResizeTime))
		r.nl()
	}
	endStr := c.timeStr(j.EndTime)
	if j.TimeLimit == wire.Infinite && j.EndTime > now.Unix() {
		endStr = "Unknown"
	}
	deadline := "N/A"
	if j.Deadline != 0 {
		deadline = c.timeStr(j.Deadline)
	}
	r.s("StartTime=")
	r.s(c.timeStr(j.StartTime))
	r.s(" EndTime=")
	r.s(endStr)
	r.s(" Deadline=")
	r.s(deadline)
	r.nl()
	if j.PreemptableTime != 0 {
		r.s("PreemptEligibleTime=")
		r.s(c.timeStr(j.PreemptableTime))
		r.s(" PreemptTime=")
		if j.PreemptTime == 0 {
			r.s("None")
		} else {
			r.s(c.timeStr(j.PreemptTime))
		}
		r.nl()
	}
	susp := "None"
	if j.SuspendTime != 0 {
		susp = c.timeStr(j.SuspendTime)
	}
	r.s("SuspendTime=")
	r.s(susp)
	r.s(" SecsPreSuspend=")
	rnum(r, j.PreSusTime)
	r.s(" LastSchedEval=")
	r.s(c.timeStr(j.LastSchedEval))
	if j.SchedBackfill {
		r.s(" Scheduler=Backfill")
		if st.IsPending() {
			r.s(":*") // marked by the last backfill pass, as Slurm's job-info unpacking flags it
		}
	} else {
		r.s(" Scheduler=Main")
	}
	r.nl()
	r.s("Partition=")
	r.s(j.Partition)
	r.s(" AllocNode:Sid=")
	r.s(j.AllocNode)
	r.s(":")
	rnum(r, j.AllocSID)
	r.nl()
	r.s("ReqNodeList=")
	r.s(nullStr(j.ReqNodes))
	r.s(" ExcNodeList=")
	r.s(nullStr(j.ExcNodes))
	r.nl()
	r.s("NodeList=")
	r.s(sortedHostlist(j.NodeList))
	if j.SchedNodes != "" {
		r.s(" SchedNodeList=")
		r.s(j.SchedNodes)
	}
	r.nl()
	if j.BatchFeatures != "" {
		r.s("BatchFeatures=")
		r.s(j.BatchFeatures)
	}
	if j.BatchHost != "" {
		if j.BatchFeatures != "" {
			r.s(" ")
		}
		r.s("BatchHost=")
		r.s(j.BatchHost)
	}
	if j.BatchFeatures != "" || j.BatchHost != "" {
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
	r.s("NumNodes=")
	r.s(nodes)
	r.s(" NumCPUs=")
	rnum(r, j.NumCPUs)
	r.s(" NumTasks=")
	r.s(tasks)
	r.s(" CPUs/Task=")
	rnum(r, max(j.CPUsPerTask, 1))
	r.s(" ReqB:S:C:T=0:0:") // Orbit keeps no boards, nor sockets per board
	r.s(countOrStar(j.CoresPerSocket))
	r.s(":")
	r.s(countOrStar(j.ThreadsPerCore))
	r.nl()
	r.s("TRES=")
	r.s(j.TRES)
	r.nl()
	r.s("Socks/Node=")
	r.s(countOrStar(j.SocketsPerNode))
	r.s(" NtasksPerN:B:S:C=")
	rnum(r, j.NTasksPerNode)
	r.s(":0:") // no boards
	r.s(countOrStar(j.NTasksPerSocket))
	r.s(":")
	r.s(countOrStar(j.NTasksPerCore))
	r.s(" CoreSpec=*")
	r.nl()
	if c.details && j.NodeList != "" && !st.IsPending() {
		r.s("JOB_GRES=")
		r.s(nullStr(j.GresTotal))
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
	r.s("MinCPUsNode=")
	rnum(r, max(j.MinCPUsNode, 1))
	r.s(" MinMemory")
	r.s(memKind)
	r.s("=")
	r.s(memsize.FormatMB(mem))
	r.s(" MinTmpDiskNode=")
	r.s(memsize.FormatMB(j.TmpDiskMB))
	r.nl()
	r.s("Features=")
	r.s(nullStr(j.Features))
	r.s(" DelayBoot=")
	r.s(slurmtime.FormatElapsed(int64(j.DelayBoot)))
	r.nl()
	if j.ClusterFeatures != "" {
		r.s("ClusterFeatures=")
		r.s(j.ClusterFeatures)
		r.nl()
	}
	if j.Prefer != "" {
		r.s("Prefer=")
		r.s(j.Prefer)
		r.nl()
	}
	if j.Reservation != "" {
		r.s("Reservation=")
		r.s(j.Reservation)
		r.nl()
	}
	r.s("OverSubscribe=")
	r.s(j.OverSubscribe)
	r.s(" Contiguous=")
	rnum(r, b2i(j.Contiguous))
	r.s(" Licenses=")
	if !j.LicensesEmpty {
		r.s(nullStr(j.Licenses))
	}
	r.s(" Network=")
	r.s(nullStr(j.Network))
	r.nl()
	r.s("Command=")
	r.s(nullStr(j.Command))
	r.nl()
	r.s("WorkDir=")
	r.s(j.WorkDir)
	if j.Comment != "" {
		r.nl()
		r.s("Comment=")
		r.s(j.Comment)
		r.s(" ")
	}
	if j.BatchFlag {
		r.nl()
		r.s("StdErr=")
		r.s(stdPath(j, j.StdErr, j.StdOut, true))
		r.nl()
		in := "/dev/null"
		if j.StdIn != "" {
			in = fnameFormat(j, j.StdIn)
		}
		r.s("StdIn=")
		r.s(in)
		r.nl()
		r.s("StdOut=")
		r.s(stdPath(j, j.StdOut, "", false))
	}
	if j.ReqSwitch != 0 {
		r.nl()
		r.s("Switches=")
		rnum(r, j.ReqSwitch)
		r.s("@")
		r.s(slurmtime.FormatElapsed(int64(j.SwitchWait)))
	}
	if j.BurstBuffer != "" {
		r.nl()
		r.s("BurstBuffer=")
		r.s(j.BurstBuffer)
	}
	if freq := cpuFreqDebug(j.CPUFreqMin, j.CPUFreqMax, j.CPUFreqGov); freq != "" {
		r.nl()
		r.s(freq)
	}
	r.nl()
	r.s("Power=")
	if j.PowerFlags&jobspec.PowerLevel != 0 {
		r.s("LEVEL")
	}
	if flags := jobBitflags(j); flags != "" {
		r.nl()
		r.s(flags)
	}
	// The TRES lines, in Slurm's order, each only when set.
	for _, l := range [][2]string{
		{"CpusPerTres=", j.CpusPerTres}, {"MemPerTres=", j.MemPerTres}, {"TresBind=", j.TresBind},
		{"TresFreq=", j.TresFreq}, {"TresPerJob=", j.TresPerJob},
		{"TresPerNode=", j.Gres}, // --gres, as Slurm keeps it ("gres:gpu:2")
		{"TresPerTask=", j.TresPerTask},
	} {
		if l[1] != "" {
			r.nl()
			r.s(l[0])
			r.s(l[1])
		}
	}
	if j.MailType != 0 && j.MailUser != "" {
		r.nl()
		r.s("MailUser=")
		r.s(j.MailUser)
		r.s(" MailType=")
		r.s(jobspec.MailTypeString(j.MailType))
	}
	if j.Container != "" {
		r.nl()
		r.s("Container=")
		r.s(j.Container)
	}
	r.nl()
}

// jobBitflags is the line scontrol prints after Power= for the job's flags, each
// "Name=Value" run together as Slurm 22.05 prints them ("KillOInInvalidDependent=YesSpreadJob=Yes").
func jobBitflags(j *wire.JobInfo) string {
	var b strings.Builder
	switch j.GresFlags {
	case "disable-binding":
		b.WriteString("GresEnforceBind=No")
	case "enforce-binding":
		b.WriteString("GresEnforceBind=Yes")
	}
	switch j.KillInvalidDep {
	case 1:
		b.WriteString("KillOInInvalidDependent=Yes")
	case 2:
		b.WriteString("KillOInInvalidDependent=No")
	}
	if j.SpreadJob {
		b.WriteString("SpreadJob=Yes")
	}
	return b.String()
}

// sprintCPUIDs prints the -d lines "  Nodes=... CPU_IDs=... Mem=... GRES=": Orbit allocates
// the lowest-numbered CPUs of each node, so a node's IDs are 0..n-1; Mem is the memory held
// on each node (0 where memory is not consumable).
func (c *cli) sprintCPUIDs(r *record, j *wire.JobInfo) {
	names, err := hostlist.Expand(j.NodeList)
	if err != nil || len(names) != len(j.CPUsPerNode) {
		return
	}
	var gres []string // each node's GRES= (the controller's GresDetail)
	if j.GresDetail != "" {
		gres = strings.Split(j.GresDetail, "|")
	}
	gresOf := func(i int) string {
		if i < len(gres) {
			return gres[i]
		}
		return ""
	}
	flush := func(group []string, cpus uint32, g string) {
		if len(group) == 0 {
			return
		}
		ids := "0"
		if cpus > 1 {
			ids = fmt.Sprintf("0-%d", cpus-1)
		}
		r.f("  Nodes=%s CPU_IDs=%s Mem=%d GRES=%s", hostlist.Compress(group), ids, j.MemAlloc, g)
		r.nl()
	}
	var group []string
	var last uint32
	lastGres := ""
	for i, n := range names {
		// Slurm starts a new line where the CPUs or the GRES differ from the node before.
		if i > 0 && (j.CPUsPerNode[i] != last || gresOf(i) != lastGres) {
			flush(group, last, lastGres)
			group = nil
		}
		group = append(group, n)
		last, lastGres = j.CPUsPerNode[i], gresOf(i)
	}
	flush(group, last, lastGres)
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

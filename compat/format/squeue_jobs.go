package format

import (
	"fmt"
	"strconv"
	"strings"
)

type jobField = Field[*JobRow]

// f builds a field; names is a space-separated list of -O names, where a trailing "*" marks
// a name Slurm matches by its leading part.
func mkField[R any](letter byte, names, title string, v func(R) Cell) Field[R] {
	fd := Field[R]{Letter: letter, Title: title, Value: v}
	for _, n := range strings.Fields(names) {
		if strings.HasSuffix(n, "*") {
			fd.PrefixNames = append(fd.PrefixNames, strings.TrimSuffix(n, "*"))
		} else {
			fd.Names = append(fd.Names, n)
		}
	}
	return fd
}

func jstr(letter byte, names, title string, get func(*JobRow) string) jobField {
	return mkField(letter, names, title, func(j *JobRow) Cell { return Str(get(j)) })
}

func jnull(letter byte, names, title string, get func(*JobRow) string) jobField {
	return jstr(letter, names, title, func(j *JobRow) string { return null(get(j)) })
}

func jna(names, title string, get func(*JobRow) string) jobField {
	return jstr(0, names, title, func(j *JobRow) string { return orNA(get(j)) })
}

func jint(letter byte, names, title string, get func(*JobRow) int64) jobField {
	return jstr(letter, names, title, func(j *JobRow) string { return strconv.FormatInt(get(j), 10) })
}

func jtime(letter byte, names, title string, get func(*JobRow) Cell) jobField {
	return mkField(letter, names, title, get)
}

// u16na prints N/A for NoVal16 (and for Infinite16 when alsoInf).
func u16na(v uint16, alsoInf bool) string {
	if v == NoVal16 || (alsoInf && v == Infinite16) {
		return "N/A"
	}
	return strconv.Itoa(int(v))
}

func u16star(v uint16, noConvert bool) string {
	if v == NoVal16 {
		return "*"
	}
	return ConvertNumUnit(float64(v), UnitNone, noConvert)
}

func timeLimit(min uint32, uncut bool) Cell {
	switch min {
	case Infinite:
		return Str("UNLIMITED")
	case NoVal:
		return Str("NOT_SET")
	}
	return Cell{Text: Secs(int64(min) * 60), NoCut: uncut}
}

// jobIDText is %i: array tasks as id_task, pending array records as id_[tasks],
// heterogeneous components as id+offset.
func jobIDText(j *JobRow) Cell {
	switch {
	case j.ArrayTaskStr != "":
		return Cell{Text: fmt.Sprintf("%d_[%s]", j.ArrayJobID, j.ArrayTaskStr), NoCut: j.ArrayTaskStrUncut}
	case j.ArrayTaskID != NoVal:
		return Str(fmt.Sprintf("%d_%d", j.ArrayJobID, j.ArrayTaskID))
	case j.HetJobID != 0:
		return Str(fmt.Sprintf("%d+%d", j.HetJobID, j.HetJobOffset))
	}
	return Str(strconv.FormatUint(uint64(j.JobID), 10))
}

func isArray(j *JobRow) bool { return j.ArrayTaskStr != "" || j.ArrayTaskID != NoVal }

// SqueueJobFields is every field of `squeue` (job view) in Slurm 22.05: -o letters, -O names
// and header titles as the reference prints them.
var SqueueJobFields = []jobField{
	jnull('a', "account", "ACCOUNT", func(j *JobRow) string { return j.Account }),
	jnull(0, "container", "CONTAINER", func(j *JobRow) string { return j.Container }),
	jint('A', "jobid", "JOBID", func(j *JobRow) int64 { return int64(j.JobID) }),
	jstr('b', "gres tres-per-node", "TRES_PER_NODE", func(j *JobRow) string { return orNA(j.TRESPerNode) }),
	jstr('B', "batchhost", "EXEC_HOST", func(j *JobRow) string {
		h := j.AllocNode
		if j.BatchFlag {
			h = j.BatchHost
		}
		if h == "" {
			return "n/a"
		}
		return h
	}),
	jnull(0, "burstbuffer", "BURST_BUFFER", func(j *JobRow) string { return j.BurstBuffer }),
	jnull(0, "burstbufferstate", "BURST_BUFFER_STATE", func(j *JobRow) string { return j.BurstBufferState }),
	jnull(0, "cluster", "CLUSTER", func(j *JobRow) string { return j.Cluster }),
	jstr(0, "delayboot", "DELAY_BOOT", func(j *JobRow) string { return Secs(int64(j.DelayBoot)) }),
	jstr('c', "mincpus", "MIN_CPUS", func(j *JobRow) string { return ConvertNumUnit(float64(j.MinCPUs), UnitNone, j.NoConvert) }),
	jint('C', "numcpus", "CPUS", func(j *JobRow) int64 { return int64(j.NumCPUs) }),
	jstr('d', "mintmpdisk", "MIN_TMP_DISK", func(j *JobRow) string {
		return ConvertNumUnit(float64(j.MinTmpDiskMB), UnitMega, j.NoConvert)
	}),
	jint('D', "numnodes", "NODES", func(j *JobRow) int64 { return int64(j.NumNodes) }),
	jint(0, "numtask*", "TASKS", func(j *JobRow) int64 { return int64(j.NumTasks) }),
	jtime('e', "endtime", "END_TIME", func(j *JobRow) Cell {
		if j.TimeLimit == Infinite && j.End.After(j.Now) {
			return Str("NONE")
		}
		return Str(Time(j.End))
	}),
	jnull('E', "dependency", "DEPENDENCY", func(j *JobRow) string { return j.Dependency }),
	jnull('f', "feature", "FEATURES", func(j *JobRow) string { return j.Features }),
	jnull(0, "clusterfeature", "CLUSTER_FEATURES", func(j *JobRow) string { return j.ClusterFeatures }),
	jnull(0, "prefer", "PREFER", func(j *JobRow) string { return j.Prefer }),
	jint('F', "arrayjobid", "ARRAY_JOB_ID", func(j *JobRow) int64 {
		if isArray(j) {
			return int64(j.ArrayJobID)
		}
		return int64(j.JobID)
	}),
	jstr('g', "groupname", "GROUP", func(j *JobRow) string {
		if j.GroupName != "" {
			return j.GroupName
		}
		return strconv.FormatUint(uint64(j.GroupID), 10)
	}),
	jint('G', "groupid", "GROUP", func(j *JobRow) int64 { return int64(j.GroupID) }),
	jnull('h', "oversubscribe shared", "OVER_SUBSCRIBE", func(j *JobRow) string { return j.OverSubscribe }),
	jstr('H', "sockets", "SOCKETS_PER_NODE", func(j *JobRow) string { return u16star(j.Sockets, j.NoConvert) }),
	mkField('i', "jobarrayid", "JOBID", jobIDText),
	jstr('I', "cores", "CORES_PER_SOCKET", func(j *JobRow) string { return u16star(j.Cores, j.NoConvert) }),
	jnull('j', "name", "NAME", func(j *JobRow) string { return j.Name }),
	jstr('J', "threads", "THREADS_PER_CORE", func(j *JobRow) string { return u16star(j.Threads, j.NoConvert) }),
	jnull(0, "admin_comment", "ADMIN_COMMENT", func(j *JobRow) string { return j.AdminComment }),
	jnull(0, "system_comment", "SYSTEM_COMMENT", func(j *JobRow) string { return j.SystemComment }),
	jnull('k', "comment", "COMMENT", func(j *JobRow) string { return j.Comment }),
	jstr('K', "arraytaskid", "ARRAY_TASK_ID", func(j *JobRow) string {
		switch {
		case j.ArrayTaskStr != "":
			return j.ArrayTaskStr
		case j.ArrayTaskID != NoVal:
			return strconv.FormatUint(uint64(j.ArrayTaskID), 10)
		}
		return "N/A"
	}),
	mkField('l', "timelimit", "TIME_LIMIT", func(j *JobRow) Cell { return timeLimit(j.TimeLimit, true) }),
	mkField('L', "timeleft", "TIME_LEFT", func(j *JobRow) Cell {
		c := timeLimit(j.TimeLimit, true)
		if j.TimeLimit != Infinite && j.TimeLimit != NoVal {
			c.Text = Secs(int64(j.TimeLimit)*60 - j.TimeUsed())
		}
		return c
	}),
	jstr('m', "minmemory", "MIN_MEMORY", func(j *JobRow) string {
		return ConvertNumUnit(float64(j.MinMemoryMB), UnitMega, j.NoConvert)
	}),
	mkField('M', "timeused", "TIME", func(j *JobRow) Cell { return Uncut(Secs(j.TimeUsed())) }),
	mkField('n', "reqnodes", "REQ_NODES", func(j *JobRow) Cell { return Uncut(j.ReqNodes) }),
	withTitleNoCut(mkField('N', "nodelist", "NODELIST", func(j *JobRow) Cell { return Uncut(j.NodeList) })),
	jnull('o', "command", "COMMAND", func(j *JobRow) string { return j.Command }),
	jint('O', "contiguous", "CONTIGUOUS", func(j *JobRow) int64 { return int64(j.Contiguous) }),
	jstr('p', "priority", "PRIORITY", func(j *JobRow) string {
		return fmt.Sprintf("%16.14f", float64(j.Priority)/float64(uint32(0xffffffff)))
	}),
	jnull('P', "partition", "PARTITION", func(j *JobRow) string { return j.Partition }),
	jnull('q', "qos", "QOS", func(j *JobRow) string { return j.QOS }),
	jint('Q', "prioritylong", "PRIORITY", func(j *JobRow) int64 { return int64(j.Priority) }),
	jstr('r', "reason", "REASON", func(j *JobRow) string { return j.ReasonText() }),
	withTitleNoCut(mkField('R', "reasonlist", "NODELIST(REASON)", func(j *JobRow) Cell {
		if j.showsReason() {
			return Str("(" + j.ReasonText() + ")")
		}
		return Uncut(j.NodeList)
	})),
	jstr('s', "selectjobinfo", "", func(j *JobRow) string { return j.SelectJobInfo }),
	jtime('S', "starttime", "START_TIME", func(j *JobRow) Cell { return Str(Time(j.Start)) }),
	jtime(0, "lastschedeval", "LAST_SCHED_EVAL", func(j *JobRow) Cell { return Str(Time(j.LastSchedEval)) }),
	jstr('t', "statecompact", "ST", func(j *JobRow) string { return j.State.Compact() }),
	jstr('T', "state", "STATE", func(j *JobRow) string { return j.State.String() }),
	jint('U', "userid", "UID", func(j *JobRow) int64 { return int64(j.UserID) }),
	jstr('u', "username", "USER", func(j *JobRow) string {
		if j.UserName != "" {
			return j.UserName
		}
		return strconv.FormatUint(uint64(j.UserID), 10)
	}),
	jnull('v', "reservation", "RESERVATION", func(j *JobRow) string { return j.Reservation }),
	jtime('V', "submittime", "SUBMIT_TIME", func(j *JobRow) Cell { return Str(Time(j.Submit)) }),
	jint(0, "pendingtime", "PENDING_TIME", func(j *JobRow) int64 {
		if !j.Start.IsZero() && j.Start.Before(j.Now) {
			return j.Start.Unix() - j.Submit.Unix()
		}
		return j.Now.Unix() - j.Submit.Unix()
	}),
	jnull('w', "wckey", "WCKEY", func(j *JobRow) string { return j.WCKey }),
	jstr('W', "licenses", "LICENSES", func(j *JobRow) string {
		if j.LicensesEmpty {
			return ""
		}
		return null(j.Licenses)
	}),
	jstr('X', "corespec", "CORE_SPEC", func(j *JobRow) string {
		const coreSpecThread = 0x8000
		switch {
		case j.CoreSpec == NoVal16:
			return "N/A"
		case j.CoreSpec&coreSpecThread != 0:
			return fmt.Sprintf("%d Threads", j.CoreSpec&^coreSpecThread)
		}
		return strconv.Itoa(int(j.CoreSpec))
	}),
	jint('y', "nice", "NICE", func(j *JobRow) int64 { return int64(j.Nice) }),
	withTitleNoCut(mkField('Y', "schednodes", "SCHEDNODES", func(j *JobRow) Cell { return Uncut(null(j.SchedNodes)) })),
	jstr('z', "sct", "S:C:T", func(j *JobRow) string {
		return u16star(j.Sockets, j.NoConvert) + ":" + u16star(j.Cores, j.NoConvert) + ":" + u16star(j.Threads, j.NoConvert)
	}),
	jnull('Z', "workdir", "WORK_DIR", func(j *JobRow) string { return j.WorkDir }),
	jtime(0, "accruetime", "ACCRUE_TIME", func(j *JobRow) Cell { return Str(Time(j.Accrue)) }),
	jnull(0, "allocnodes", "ALLOC_NODES", func(j *JobRow) string { return j.AllocNode }),
	jint(0, "allocsid", "ALLOC_SID", func(j *JobRow) int64 { return int64(j.AllocSID) }),
	jint(0, "associd", "ASSOC_ID", func(j *JobRow) int64 { return int64(j.AssocID) }),
	jint(0, "batchflag", "BATCH_FLAG", func(j *JobRow) int64 {
		if j.BatchFlag {
			return 1
		}
		return 0
	}),
	jstr(0, "boardspernode", "BOARDS_PER_NODE", func(j *JobRow) string { return u16na(j.BoardsPerNode, false) }),
	jstr(0, "cpuspertask cpus-per-task", "CPUS_PER_TASK", func(j *JobRow) string { return u16na(j.CPUsPerTask, false) }),
	jint(0, "derivedec", "DERIVED_EC", func(j *JobRow) int64 { return int64(j.DerivedEC) }),
	jtime(0, "eligibletime", "ELIGIBLE_TIME", func(j *JobRow) Cell { return Str(Time(j.Eligible)) }),
	jint(0, "exit_code", "EXIT_CODE", func(j *JobRow) int64 { return int64(j.ExitCode) }),
	jstr(0, "origin", "ORIGIN", func(j *JobRow) string { return naOr(j.FedOrigin, "NA") }),
	jstr(0, "originraw", "ORIGIN_RAW", func(j *JobRow) string { return naOr(j.FedOriginRaw, "NA") }),
	jstr(0, "siblingsactive", "ACTIVE_SIBLINGS", func(j *JobRow) string { return naOr(j.FedSiblingsActive, "NA") }),
	jstr(0, "siblingsactiveraw", "ACTIVE_SIBLINGS_RAW", func(j *JobRow) string { return naOr(j.FedSiblingsActiveRaw, "NA") }),
	jstr(0, "siblingsviable", "VIABLE_SIBLINGS", func(j *JobRow) string { return naOr(j.FedSiblingsViable, "NA") }),
	// Slurm's header for this field really is misspelt.
	jstr(0, "siblingsviableraw", "VIALBLE_SIBLINGS_RAW", func(j *JobRow) string { return naOr(j.FedSiblingsViableRaw, "NA") }),
	jint(0, "maxcpus", "MAX_CPUS", func(j *JobRow) int64 {
		if j.MaxCPUs != 0 {
			return int64(j.MaxCPUs)
		}
		return int64(j.NumCPUs)
	}),
	jint(0, "maxnodes", "MAX_NODES", func(j *JobRow) int64 {
		if j.MaxNodes != 0 {
			return int64(j.MaxNodes)
		}
		return int64(j.NumNodes)
	}),
	jnull(0, "network", "NETWORK", func(j *JobRow) string { return j.Network }),
	jstr(0, "ntpercore", "NTASKS_PER_CORE", func(j *JobRow) string { return u16na(j.NTasksPerCore, true) }),
	jstr(0, "ntpernode", "NTASKS_PER_NODE", func(j *JobRow) string { return u16na(j.NTasksPerNode, true) }),
	jstr(0, "ntpersocket", "NTASKS_PER_SOCKET", func(j *JobRow) string { return u16na(j.NTasksPerSocket, true) }),
	jstr(0, "ntperboard", "NTASKS_PER_BOARD", func(j *JobRow) string { return u16na(j.NTasksPerBoard, true) }),
	jtime(0, "preempttime", "PREEMPT_TIME", func(j *JobRow) Cell { return Str(Time(j.PreemptTime)) }),
	jstr(0, "profile", "PROFILE", func(j *JobRow) string { return naOr(j.Profile, "NotSet") }),
	jint(0, "reboot", "REBOOT", func(j *JobRow) int64 { return int64(j.Reboot) }),
	jint(0, "reqswitch", "REQ_SWITCH", func(j *JobRow) int64 { return int64(j.ReqSwitch) }),
	jint(0, "requeue", "REQUEUE", func(j *JobRow) int64 { return int64(j.Requeue) }),
	mkField(0, "resizetime", "RESIZE_TIME", func(j *JobRow) Cell {
		if j.ResizeTime != 0 {
			return Str(Secs(j.ResizeTime * 60))
		}
		return Uncut("N/A")
	}),
	jint(0, "restartcnt", "RESTART_COUNT", func(j *JobRow) int64 { return int64(j.RestartCnt) }),
	jint(0, "sperboard", "SOCKETS_PER_BOARD", func(j *JobRow) int64 { return int64(j.SocketsPerBoard) }),
	jstr(0, "stderr", "STDERR", func(j *JobRow) string {
		switch {
		case !j.BatchFlag:
			return "N/A"
		case j.StdErr != "":
			return j.StdErr
		case j.StdOut != "":
			return j.StdOut
		}
		return fmt.Sprintf("%s/slurm-%d.out", null(j.WorkDir), j.JobID)
	}),
	jnull(0, "stdin", "STDIN", func(j *JobRow) string { return j.StdIn }),
	jstr(0, "stdout", "STDOUT", func(j *JobRow) string {
		if j.StdOut != "" {
			return j.StdOut
		}
		return fmt.Sprintf("%s/slurm-%d.out", null(j.WorkDir), j.JobID)
	}),
	jstr(0, "mintime", "TIME_MIN", func(j *JobRow) string { return Secs(int64(j.TimeMin) * 60) }),
	jstr(0, "wait4switch", "WAIT4SWITCH", func(j *JobRow) string { return Secs(int64(j.Wait4Switch)) }),
	jna("cpus-per-tres", "CPUS_PER_TRES", func(j *JobRow) string { return j.CPUsPerTRES }),
	jna("mem-per-tres", "MEM_PER_TRES", func(j *JobRow) string { return j.MemPerTRES }),
	jstr(0, "tres tres-alloc", "TRES_ALLOC", func(j *JobRow) string {
		if j.TRESAlloc != "" {
			return j.TRESAlloc
		}
		return orNA(j.TRESReq)
	}),
	jna("tres-bind", "TRES_BIND", func(j *JobRow) string { return j.TRESBind }),
	jna("tres-freq", "TRES_FREQ", func(j *JobRow) string { return j.TRESFreq }),
	jna("tres-per-job", "TRES_PER_JOB", func(j *JobRow) string { return j.TRESPerJob }),
	jna("tres-per-socket", "TRES_PER_SOCKET", func(j *JobRow) string { return j.TRESPerSocket }),
	jna("tres-per-task", "TRES_PER_TASK", func(j *JobRow) string { return j.TRESPerTask }),
	jnull(0, "mcslabel", "MCSLABEL", func(j *JobRow) string { return j.MCSLabel }),
	jtime(0, "deadline", "DEADLINE", func(j *JobRow) Cell { return Str(Time(j.Deadline)) }),
	jstr(0, "packjobid hetjobid", "HET_JOB_ID", func(j *JobRow) string {
		if j.HetJobID == 0 {
			return "N/A"
		}
		return strconv.FormatUint(uint64(j.HetJobID), 10)
	}),
	jstr(0, "packjoboffset hetjoboffset", "HET_JOB_OFFSET", func(j *JobRow) string {
		if j.HetJobID == 0 {
			return "N/A"
		}
		return strconv.FormatUint(uint64(j.HetJobOffset), 10)
	}),
	jstr(0, "packjobidset hetjobidset", "HET_JOB_ID_SET", func(j *JobRow) string {
		if j.HetJobID == 0 {
			return "N/A"
		}
		return null(j.HetJobIDSet)
	}),
	mkField('x', "", "EXC_NODES", func(j *JobRow) Cell { return Uncut(j.ExcNodes) }),
}

func withTitleNoCut[R any](f Field[R]) Field[R] {
	f.TitleNoCut = true
	return f
}

func naOr(s, na string) string {
	if s == "" {
		return na
	}
	return s
}

// SqueueJobs is the table behind `squeue` without -s.
var SqueueJobs = &Table[*JobRow]{
	Command:       "squeue",
	Fields:        SqueueJobFields,
	Dialect:       DialectSqueue,
	InvalidLetter: "squeue: error: Invalid job format specification: %s",
	InvalidName:   "squeue: error: Invalid job format specification: %s",
}

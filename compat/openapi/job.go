package openapi

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// JobContext is what a v0.0.38 job object needs beyond wire.JobInfo.
type JobContext struct {
	// ClusterName is slurm.conf's ClusterName (the job's "cluster").
	ClusterName string
	// Nodes, by name, give the socket/core layout job_resources is described with and the
	// memory a job that asked for none is charged in tres_req_str.
	Nodes map[string]wire.NodeInfo
}

// Jobs renders the answer to GET /slurm/v0.0.38/jobs/ (what squeue --json prints): the
// response skeleton and one object per job, in the order given.
func Jobs(jobs []wire.JobInfo, ctx JobContext) *Value {
	r := NewResponse()
	list := r.Set("jobs", NewList())
	for i := range jobs {
		list.Append(Job(&jobs[i], ctx))
	}
	return r
}

// Job renders one job as v0.0.38's dump_job_info does: the same keys in the same order,
// null where Slurm's value is NO_VAL/INFINITE or not known, "" (JSON) / null (YAML) for an
// unset string. Fields Orbit does not have (federation, burst buffers, heterogeneous jobs,
// core specialization, CPU frequency, profiling) print as Slurm prints them unset.
func Job(j *wire.JobInfo, ctx JobContext) *Value {
	st := states.JobState(j.State)
	pending := st.IsPending()
	d := NewDict()
	d.Set("account", Str(j.Account))
	d.Set("accrue_time", IntValue(j.AccrueTime))
	d.Set("admin_comment", Str(""))
	d.Set("array_job_id", IntValue(int64(j.ArrayJobID)))
	d.Set("array_task_id", u32OrNull(j.ArrayTaskID))
	d.Set("array_max_tasks", IntValue(int64(j.ArrayMaxTasks)))
	d.Set("array_task_string", Str(j.ArrayTaskStr))
	d.Set("association_id", IntValue(0))
	d.Set("batch_features", Str(""))
	d.Set("batch_flag", BoolValue(j.BatchFlag))
	d.Set("batch_host", Str(j.BatchHost))
	d.Set("flags", jobFlags(j, st))
	d.Set("burst_buffer", Str(""))
	d.Set("burst_buffer_state", Str(""))
	d.Set("cluster", Str(ctx.ClusterName))
	d.Set("cluster_features", Str(""))
	d.Set("command", Str(j.Command))
	d.Set("comment", Str(j.Comment))
	d.Set("container", Str(""))
	d.Set("contiguous", BoolValue(j.Contiguous))
	d.Set("core_spec", NullValue())
	d.Set("thread_spec", NullValue())
	d.Set("cores_per_socket", NullValue())
	// billable_tres is computed when the job starts; Slurm's default billing is the CPU count.
	if pending {
		d.Set("billable_tres", NullValue())
	} else if b, ok := tresValue(j.TRES, "billing"); ok {
		d.Set("billable_tres", FloatValue(float64(b)))
	} else {
		d.Set("billable_tres", FloatValue(float64(j.NumCPUs)))
	}
	// Slurm 22.05 tests cpu_freq_min here, not cpus_per_task (a bug it prints faithfully):
	// with no --cpu-freq, cpus_per_task is always null.
	d.Set("cpus_per_task", NullValue())
	d.Set("cpu_frequency_minimum", NullValue())
	d.Set("cpu_frequency_maximum", NullValue())
	d.Set("cpu_frequency_governor", NullValue())
	d.Set("cpus_per_tres", Str(""))
	d.Set("deadline", IntValue(j.Deadline))
	d.Set("delay_boot", IntValue(0))
	d.Set("dependency", Str(j.Dependency))
	d.Set("derived_exit_code", IntValue(int64(j.DerivedExit)))
	d.Set("eligible_time", IntValue(j.EligibleTime))
	d.Set("end_time", IntValue(j.EndTime))
	d.Set("excluded_nodes", Str(j.ExcNodes))
	d.Set("exit_code", IntValue(int64(j.ExitCode)))
	d.Set("features", Str(j.Features))
	d.Set("federation_origin", Str(""))
	d.Set("federation_siblings_active", Str(""))
	d.Set("federation_siblings_viable", Str(""))
	d.Set("gres_detail", NewList())
	if j.GroupID == wire.NoVal {
		d.Set("group_id", NullValue())
	} else {
		d.Set("group_id", IntValue(int64(j.GroupID)))
		if j.GroupName == "" {
			d.Set("group_name", NullValue()) // gid_to_string_or_null gave NULL
		} else {
			d.Set("group_name", Str(j.GroupName))
		}
	}
	d.Set("job_id", u32OrNull(j.JobID))
	if !pending && j.NodeList != "" {
		d.Set("job_resources", jobResources(j, ctx))
	}
	d.Set("job_state", Str(st.String()))
	d.Set("last_sched_evaluation", IntValue(j.LastSchedEval))
	d.Set("licenses", Str(j.Licenses))
	d.Set("max_cpus", IntValue(0))
	d.Set("max_nodes", u32OrNull(j.MaxNodes))
	d.Set("mcs_label", Str(""))
	d.Set("memory_per_tres", Str(""))
	d.Set("name", Str(j.Name))
	d.Set("nodes", Str(j.NodeList))
	if j.Nice == 0 {
		d.Set("nice", NullValue()) // Slurm stores nice 0 as NICE_OFFSET and prints null
	} else {
		d.Set("nice", IntValue(int64(j.Nice)))
	}
	d.Set("tasks_per_core", NullValue())
	d.Set("tasks_per_node", IntValue(int64(validOrZero(j.NTasksPerNode))))
	d.Set("tasks_per_socket", NullValue())
	d.Set("tasks_per_board", IntValue(0))
	if j.NumTasks != wire.NoVal && j.NumTasks != wire.Infinite {
		d.Set("cpus", IntValue(int64(j.NumCPUs)))
	} else {
		d.Set("cpus", NullValue())
	}
	d.Set("node_count", IntValue(int64(j.NumNodes)))
	if j.NumTasks != wire.NoVal && j.NumTasks != wire.Infinite {
		d.Set("tasks", IntValue(int64(j.NumTasks)))
	} else {
		d.Set("tasks", NullValue())
	}
	d.Set("het_job_id", IntValue(0))
	d.Set("het_job_id_set", Str(""))
	d.Set("het_job_offset", IntValue(0))
	d.Set("partition", Str(j.Partition))
	d.Set("prefer", Str(""))
	switch {
	case memSet(j.MemPerCPU):
		d.Set("memory_per_node", NullValue())
		d.Set("memory_per_cpu", IntValue(int64(j.MemPerCPU)))
	case memSet(j.MemPerNode):
		d.Set("memory_per_node", IntValue(int64(j.MemPerNode)))
		d.Set("memory_per_cpu", NullValue())
	default:
		d.Set("memory_per_node", NullValue())
		d.Set("memory_per_cpu", NullValue())
	}
	d.Set("minimum_cpus_per_node", IntValue(int64(j.MinCPUsNode)))
	d.Set("minimum_tmp_disk_per_node", IntValue(0))
	d.Set("preempt_time", IntValue(j.PreemptTime))
	d.Set("pre_sus_time", IntValue(j.PreSusTime))
	if j.Priority == wire.NoVal || j.Priority == wire.Infinite {
		d.Set("priority", NullValue())
	} else {
		d.Set("priority", IntValue(int64(j.Priority)))
	}
	d.Set("profile", NullValue())
	d.Set("qos", Str(j.QOS))
	d.Set("reboot", BoolValue(false))
	d.Set("required_nodes", Str(j.ReqNodes))
	d.Set("requeue", BoolValue(j.Requeue))
	d.Set("resize_time", IntValue(0))
	d.Set("restart_cnt", IntValue(int64(j.Restarts)))
	d.Set("resv_name", Str(j.Reservation))
	d.Set("shared", shared(jobspec.Shared(j.Shared)))
	flags := d.Set("show_flags", NewList())
	for _, f := range []string{"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"} {
		flags.AppendStr(f)
	}
	d.Set("sockets_per_board", IntValue(0))
	d.Set("sockets_per_node", NullValue())
	d.Set("start_time", IntValue(j.StartTime))
	d.Set("state_description", Str(j.StateDesc))
	d.Set("state_reason", Str(states.Reason(j.Reason).String()))
	d.Set("standard_error", Str(j.StdErr))
	d.Set("standard_input", Str(j.StdIn))
	d.Set("standard_output", Str(j.StdOut))
	d.Set("submit_time", IntValue(j.SubmitTime))
	d.Set("suspend_time", IntValue(j.SuspendTime))
	d.Set("system_comment", Str(""))
	// Slurm sets "container" a second time here; the key keeps its first place.
	d.Set("container", Str(""))
	if j.TimeLimit == wire.Infinite {
		d.Set("time_limit", NullValue())
	} else {
		d.Set("time_limit", IntValue(int64(j.TimeLimit)))
	}
	if j.TimeMin == wire.Infinite {
		d.Set("time_minimum", NullValue())
	} else {
		d.Set("time_minimum", IntValue(int64(validOrZero(j.TimeMin))))
	}
	d.Set("threads_per_core", NullValue())
	d.Set("tres_bind", Str(""))
	d.Set("tres_freq", Str(""))
	d.Set("tres_per_job", Str(""))
	d.Set("tres_per_node", Str(""))
	d.Set("tres_per_socket", Str(""))
	d.Set("tres_per_task", Str(""))
	if pending {
		d.Set("tres_req_str", Str(j.TRES))
		d.Set("tres_alloc_str", Str(""))
	} else {
		d.Set("tres_req_str", Str(requestedTRES(j, ctx)))
		d.Set("tres_alloc_str", Str(j.TRES))
	}
	d.Set("user_id", IntValue(int64(j.UserID)))
	d.Set("user_name", Str(j.UserName))
	d.Set("wckey", Str(j.WCKey))
	d.Set("current_working_directory", Str(j.WorkDir))
	return d
}

// jobFlags is the job's bitflags as Slurm names them, in Slurm's order, for the flags Orbit
// can tell: TRES_STR_CALC once a job has ended (its TRES strings are final),
// JOB_WAS_RUNNING while it runs, JOB_MEM_SET when it asked for memory.
func jobFlags(j *wire.JobInfo, st states.JobState) *Value {
	l := NewList()
	if st.IsFinished() {
		l.AppendStr("TRES_STR_CALC")
	}
	if st.IsRunning() || st.IsSuspended() {
		l.AppendStr("JOB_WAS_RUNNING")
	}
	if memSet(j.MemPerNode) || memSet(j.MemPerCPU) {
		l.AppendStr("JOB_MEM_SET")
	}
	return l
}

// jobResources is the job_resources object of an allocated job (based on Slurm's
// log_job_resources), for SelectTypeParameters=CR_CPU: allocated_cpus. Orbit does not
// track which cores a job holds, only how many CPUs on each node; the cores are listed
// from the first one of each node, socket by socket.
func jobResources(j *wire.JobInfo, ctx JobContext) *Value {
	r := NewDict()
	r.Set("nodes", Str(j.NodeList))
	r.Set("allocated_cpus", IntValue(int64(j.NumCPUs)))
	names, _ := hostlist.Expand(j.NodeList)
	r.Set("allocated_hosts", IntValue(int64(len(names))))
	list := r.Set("allocated_nodes", NewList())
	for i, name := range names {
		var cpus uint32
		if i < len(j.CPUsPerNode) {
			cpus = j.CPUsPerNode[i]
		} else if len(names) > 0 {
			cpus = j.NumCPUs / uint32(len(names))
		}
		n := list.Append(NewDict())
		sockets := n.Set("sockets", NewDict())
		node := ctx.Nodes[name]
		coresPerSocket := node.CoresPerSocket
		threads := node.ThreadsPerCore
		if threads == 0 {
			threads = 1
		}
		if coresPerSocket == 0 {
			coresPerSocket = cpus
		}
		cores := (cpus + threads - 1) / threads
		for c := uint32(0); c < cores; c++ {
			sk := strconv.FormatUint(uint64(c/coresPerSocket), 10)
			s := sockets.Get(sk)
			if s == nil {
				s = sockets.Set(sk, NewDict())
				s.Set("cores", NewDict())
			}
			s.Get("cores").Set(strconv.FormatUint(uint64(c%coresPerSocket), 10), Str("allocated"))
		}
		n.Set("nodename", Str(name))
		n.Set("cpus_used", IntValue(0))
		n.Set("memory_used", IntValue(0))
		var mem uint64
		switch {
		case memSet(j.MemPerCPU):
			mem = j.MemPerCPU * uint64(cpus)
		case memSet(j.MemPerNode):
			mem = j.MemPerNode
		}
		n.Set("memory_allocated", IntValue(int64(mem)))
	}
	return r
}

// requestedTRES rebuilds tres_req_str for a job that has started: Orbit's wire TRES then
// holds the allocation, so the request is rebuilt from what was asked (a job that asked
// for no memory is charged its nodes' whole memory, as Slurm does without DefMemPerCPU).
func requestedTRES(j *wire.JobInfo, ctx JobContext) string {
	var mem uint64
	switch {
	case memSet(j.MemPerCPU):
		mem = j.MemPerCPU * uint64(j.NumCPUs)
	case memSet(j.MemPerNode):
		mem = j.MemPerNode * uint64(j.NumNodes)
	default:
		names, _ := hostlist.Expand(j.NodeList)
		for _, n := range names {
			mem += ctx.Nodes[n].RealMemory
		}
	}
	billing := uint64(j.NumCPUs)
	if b, ok := tresValue(j.TRES, "billing"); ok {
		billing = b
	}
	var b strings.Builder
	b.WriteString("cpu=" + strconv.FormatUint(uint64(j.NumCPUs), 10))
	if mem > 0 {
		b.WriteString(",mem=" + strconv.FormatUint(mem, 10) + "M")
	}
	b.WriteString(",node=" + strconv.FormatUint(uint64(j.NumNodes), 10))
	b.WriteString(",billing=" + strconv.FormatUint(billing, 10))
	return b.String()
}

// tresValue finds name=N in a TRES string ("cpu=2,node=1,billing=2").
func tresValue(tres, name string) (uint64, bool) {
	for _, kv := range strings.Split(tres, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			n, err := strconv.ParseUint(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

func shared(s jobspec.Shared) *Value {
	switch s {
	case jobspec.SharedNone:
		return Str("none")
	case jobspec.SharedOK:
		return Str("shared")
	case jobspec.SharedUser:
		return Str("user")
	case jobspec.SharedMCS:
		return Str("mcs")
	}
	return NullValue()
}

func u32OrNull(v uint32) *Value {
	if v == wire.NoVal {
		return NullValue()
	}
	return IntValue(int64(v))
}

func validOrZero(v uint32) uint32 {
	if v == wire.NoVal || v == wire.Infinite {
		return 0
	}
	return v
}

func memSet(v uint64) bool { return v != 0 && v != wire.NoVal64 && v != uint64(wire.NoVal) }

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/openapi"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// --json and --yaml: Slurm 22.05's sacct hands its job condition to the openapi
// dbv0.0.38 plugin (src/sacct/data.c) and prints what that plugin's jobs handler answers:
// meta, errors, then jobs laid out by parse_job and parse_job_step (src/plugins/openapi/
// dbv0.0.38/parse.c). A key path such as "time/elapsed" creates nested objects in the order
// the paths first appear, which this file reproduces with obj.set. Values Orbit does not
// measure (CPU times, energy, TRES usage) are the zeros and empty lists slurmdbd returns
// for a job that has none; associations do not exist before issue 6, so "association" is
// null as for a job without one.
//
// The text forms are json-c's pretty printer (serializer/json) and libyaml's block emitter
// with explicit tags (serializer/yaml), written by compat/openapi as for squeue and sinfo.

// member is one key of an object, in insertion order.
type member struct {
	key string
	val any // nil (null), bool, int64, string, *obj, []any
}

// obj is a JSON object that keeps its keys in the order they were first set.
type obj struct{ members []member }

// child returns the object under key, creating it (at the end) when absent.
func (o *obj) child(key string) *obj {
	for _, m := range o.members {
		if m.key == key {
			if c, ok := m.val.(*obj); ok {
				return c
			}
		}
	}
	c := &obj{}
	o.members = append(o.members, member{key, c})
	return c
}

// set stores v at a "/"-separated path, as data_define_dict_path does.
func (o *obj) set(path string, v any) {
	parts := strings.Split(path, "/")
	for _, p := range parts[:len(parts)-1] {
		o = o.child(p)
	}
	key := parts[len(parts)-1]
	for i := range o.members {
		if o.members[i].key == key {
			o.members[i].val = v
			return
		}
	}
	o.members = append(o.members, member{key, v})
}

func i64[T ~uint32 | ~int64 | ~int | ~uint64](v T) any { return int64(v) }

// u32 is _dump_to_uint32: NO_VAL and INFINITE are null.
func u32(v uint32) any {
	if v == wire.NoVal || v == wire.Infinite {
		return nil
	}
	return int64(v)
}

func strOrNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// jobsDocument is the whole reply: meta, errors and the jobs with their steps.
func jobsDocument(rep *wire.AcctQueryReply, now time.Time) *obj {
	doc := &obj{}
	major, minor, micro := slurmVersion()
	doc.set("meta/plugin/type", "openapi/dbv0.0.38")
	doc.set("meta/plugin/name", "Slurm OpenAPI DB v0.0.38")
	doc.set("meta/Slurm/version/major", major)
	doc.set("meta/Slurm/version/micro", micro)
	doc.set("meta/Slurm/version/minor", minor)
	doc.set("meta/Slurm/release", version.Slurm)
	doc.set("errors", []any{})
	jobs := []any{}
	for i := range rep.Jobs {
		jobs = append(jobs, jobObject(&rep.Jobs[i], now))
	}
	doc.set("jobs", jobs)
	return doc
}

func slurmVersion() (major, minor, micro any) {
	f := strings.Split(version.Slurm, ".")
	n := func(i int) any {
		if i < len(f) {
			if v, err := strconv.ParseInt(f[i], 10, 64); err == nil {
				return v
			}
		}
		return int64(0)
	}
	return n(0), n(1), n(2)
}

// jobObject is one job in parse_job's order.
func jobObject(j *wire.AcctJob, now time.Time) *obj {
	o := &obj{}
	st := states.JobState(j.State).Base()
	allocNodes := uint32(0)
	if j.AllocCPUs > 0 {
		allocNodes = j.NNodes
	}
	o.set("account", j.Account)
	o.set("comment/administrator", nil)
	o.set("allocation_nodes", i64(allocNodes))
	o.set("array/job_id", i64(j.ArrayJobID))
	o.set("array/limits/max/running/tasks", int64(0))
	o.set("array/task", strOrNull(j.ArrayTasks))
	if j.ArrayJobID != 0 && j.ArrayTasks == "" {
		o.set("array/task_id", i64(j.ArrayTaskID))
	} else {
		o.set("array/task_id", nil)
	}
	o.set("association", nil)
	o.set("cluster", j.Cluster)
	o.set("constraints", j.Constraints)
	o.set("container", nil)
	o.set("derived_exit_code", exitObject(0))
	o.set("comment/job", nil)
	o.set("time/elapsed", elapsed(j.Start, j.End, j.Suspended, now))
	o.set("time/eligible", j.Eligible)
	o.set("time/end", j.End)
	o.set("exit_code", exitObject(j.ExitCode))
	o.set("flags", jobFlags(j))
	o.set("group", strOrNull(groupName(j.GroupID)))
	o.set("het/job_id", int64(0))
	o.set("het/job_offset", nil)
	o.set("job_id", i64(j.JobID))
	o.set("name", j.Name)
	o.set("mcs/label", "")
	o.set("nodes", j.NodeList)
	o.set("partition", j.Partition)
	o.set("priority", u32(j.Priority))
	o.set("qos", j.QOS)
	o.set("required/CPUs", i64(j.ReqCPUs))
	o.set("required/memory", i64(uint32(j.ReqMemMiB)))
	if st == states.JobCancelled {
		// Orbit keeps no canceller; the owner is the usual one (as the State column).
		o.set("kill_request_user", j.UserName)
	} else {
		o.set("kill_request_user", nil)
	}
	o.set("reservation/id", int64(0))
	o.set("reservation/name", int64(0))
	o.set("time/start", j.Start)
	o.set("state/current", st.String())
	o.set("state/reason", "None")
	o.set("time/submission", j.Submit)
	steps := []any{}
	for k := range j.Steps {
		steps = append(steps, stepObject(j, &j.Steps[k], now))
	}
	o.set("steps", steps)
	o.set("time/suspended", j.Suspended)
	o.set("comment/system", nil)
	setCPUTime(o, "system")
	o.set("time/limit", u32(j.TimeLimit))
	setCPUTime(o, "total")
	o.set("tres/allocated", jobTRES(j, true))
	o.set("tres/requested", jobTRES(j, false))
	o.set("user", j.UserName)
	setCPUTime(o, "user")
	o.set("wckey/wckey", j.WCKey)
	o.set("wckey/flags", []any{})
	o.set("working_directory", j.WorkDir)
	return o
}

func setCPUTime(o *obj, kind string) {
	o.set("time/"+kind+"/seconds", int64(0))
	o.set("time/"+kind+"/microseconds", int64(0))
}

// jobFlags are how the job started. Orbit does not record which scheduler pass started a
// job; one started in its submit second is shown as started on submit, any other as
// started by the main scheduler.
func jobFlags(j *wire.AcctJob) []any {
	switch {
	case j.Start == 0:
		return []any{}
	case j.Start == j.Submit:
		return []any{"STARTED_ON_SUBMIT"}
	}
	return []any{"STARTED_ON_SCHEDULE"}
}

// tres is one TRES entry: type, name ("" for the built-in ones), id, count (memory in bytes).
func tres(typ string, id int64, count uint64) *obj {
	o := &obj{}
	o.set("type", typ)
	o.set("name", "")
	o.set("id", id)
	o.set("count", int64(count))
	return o
}

// jobTRES is tres_alloc_str or tres_req_str: cpu, mem, node, billing, in TRES id order.
func jobTRES(j *wire.AcctJob, alloc bool) []any {
	cpus, nodes := uint64(j.ReqCPUs), uint64(j.ReqNodes)
	if alloc {
		if j.AllocCPUs == 0 {
			return []any{}
		}
		cpus, nodes = uint64(j.AllocCPUs), uint64(j.NNodes)
	}
	out := []any{tres("cpu", 1, cpus)}
	if j.ReqMemMiB > 0 {
		mem := j.ReqMemMiB * nodes
		if j.ReqMemPerCPU {
			mem = j.ReqMemMiB * cpus
		}
		out = append(out, tres("mem", 2, mem<<20))
	}
	return append(out, tres("node", 4, nodes), tres("billing", 5, cpus))
}

// stepObject is one step: the node list and TRES usage _foreach_step writes first, then
// parse_job_step's fields.
func stepObject(j *wire.AcctJob, s *wire.AcctStep, now time.Time) *obj {
	o := &obj{}
	if hosts, err := hostlist.Expand(s.NodeList); err == nil && len(hosts) > 0 {
		l := make([]any, len(hosts))
		for i, h := range hosts {
			l[i] = h
		}
		o.set("nodes/list", l)
	}
	for _, p := range []string{"tres/requested/max", "tres/requested/min", "tres/consumed/max", "tres/consumed/min"} {
		o.set(p, []any{})
	}
	end := s.End
	if end == 0 && j.End != 0 {
		end = j.End
	}
	o.set("time/elapsed", elapsed(s.Start, s.End, 0, now))
	o.set("time/end", end)
	o.set("exit_code", exitObject(s.ExitCode))
	o.set("nodes/count", i64(s.NNodes))
	o.set("nodes/range", s.NodeList)
	o.set("tasks/count", i64(s.NTasks))
	o.set("pid", nil)
	o.set("CPU/requested_frequency/min", nil)
	o.set("CPU/requested_frequency/max", nil)
	o.set("CPU/governor", []any{})
	if states.JobState(s.State).Base() == states.JobCancelled && states.JobState(j.State).Base() == states.JobCancelled {
		o.set("kill_request_user", j.UserName)
	} else {
		o.set("kill_request_user", nil)
	}
	o.set("time/start", s.Start)
	o.set("state", states.JobState(s.State).Base().String())
	o.set("statistics/CPU/actual_frequency", int64(0))
	o.set("statistics/energy/consumed", int64(0))
	o.set("step/job_id", i64(j.JobID))
	o.set("step/het/component", nil)
	switch s.StepID {
	case wire.StepBatch:
		o.set("step/id", "batch")
	case wire.StepExtern:
		o.set("step/id", "extern")
	default:
		o.set("step/id", i64(s.StepID))
	}
	o.set("step/name", s.Name)
	o.set("time/suspended", int64(0))
	setCPUTime(o, "system")
	if s.StepID == wire.StepBatch || s.StepID == wire.StepExtern {
		o.set("task/distribution", "Unknown")
	} else {
		o.set("task/distribution", "Block")
	}
	setCPUTime(o, "total")
	setCPUTime(o, "user")
	for _, p := range []string{"tres/requested/average", "tres/requested/total", "tres/consumed/average", "tres/consumed/total"} {
		o.set(p, []any{})
	}
	// step_set_alloc_tres always records cpu, mem and node; mem is 0 for Orbit's steps
	// (stepAllocTRES in print.go says why).
	o.set("tres/allocated", []any{tres("cpu", 1, uint64(s.CPUs)), tres("mem", 2, 0), tres("node", 4, uint64(s.NNodes))})
	return o
}

// exitObject is _dump_job_exit_code. Slurm 22.05 tests WIFEXITED first and reports every
// normal exit as SUCCESS with return_code 0, whatever the status was; a signal leaves
// return_code null and adds the signal's number and strsignal name. Both are reproduced.
func exitObject(st uint32) *obj {
	o := &obj{}
	sig := st & 0x7f
	switch {
	case sig == 0:
		o.set("status", "SUCCESS")
		o.set("return_code", int64(0))
	case sig != 0x7f:
		o.set("status", "SIGNALED")
		o.set("return_code", nil)
		o.set("signal/signal_id", int64(sig))
		o.set("signal/name", signalName(int(sig)))
	default:
		o.set("status", "ERROR")
		o.set("return_code", int64(st>>8&0xff))
	}
	return o
}

// signalName is glibc's strsignal text.
func signalName(sig int) string {
	names := [...]string{1: "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap",
		"Aborted", "Bus error", "Floating point exception", "Killed", "User defined signal 1",
		"Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
		"Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped", "Stopped (tty input)",
		"Stopped (tty output)", "Urgent I/O condition", "CPU time limit exceeded",
		"File size limit exceeded", "Virtual timer expired", "Profiling timer expired",
		"Window changed", "I/O possible", "Power failure", "Bad system call"}
	switch {
	case sig > 0 && sig < len(names):
		return names[sig]
	case sig >= 34 && sig <= 64:
		return fmt.Sprintf("Real-time signal %d", sig-34)
	}
	return fmt.Sprintf("Unknown signal %d", sig)
}

// jsonText is the document in json-c's pretty form, as Slurm prints it (compat/openapi).
func jsonText(v any) string { return openapi.JSON(toValue(v)) }

// yamlText is the document in libyaml's tagged block form (compat/openapi).
func yamlText(v any) string { return openapi.YAML(toValue(v)) }

// toValue converts the document to compat/openapi's tree. A Go "" is a set-but-empty
// string; nil is null.
func toValue(v any) *openapi.Value {
	switch x := v.(type) {
	case nil:
		return openapi.NullValue()
	case bool:
		return openapi.BoolValue(x)
	case int64:
		return openapi.IntValue(x)
	case string:
		if x == "" {
			return openapi.EmptyStr()
		}
		return openapi.Str(x)
	case *obj:
		d := openapi.NewDict()
		for _, m := range x.members {
			d.Set(m.key, toValue(m.val))
		}
		return d
	case []any:
		l := openapi.NewList()
		for _, it := range x {
			l.Append(toValue(it))
		}
		return l
	}
	panic(fmt.Sprintf("sacct: json: unexpected %T", v)) // a programming error in jobObject
}

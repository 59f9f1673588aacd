package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Values of sacct's fields for job and step lines (Slurm's print_fields in src/sacct). A
// field Orbit keeps no data for (energy, TRES usage, QOS, WCKey, ...) prints blank, as an
// unset value does in Slurm.

func text(s string) format.SacctValue { return format.SacctValue{Text: s} }

var null = format.SacctValue{Null: true}

func num(v uint64) format.SacctValue { return text(strconv.FormatUint(v, 10)) }

// date is a timestamp; parsable output is cut to the column width too, because Slurm
// formats a date into a buffer of that size.
func date(secs int64, col format.SacctColumn, parsable bool) format.SacctValue {
	s := slurmtime.FormatUnix(secs, time.Local)
	if w := col.Field.Width; parsable {
		if w < 0 {
			w = -w
		}
		if len(s) > w {
			s = s[:w]
		}
	}
	return text(s)
}

// exitCode prints a wait(2) status as "exit:signal".
func exitCode(st uint32) string {
	code, sig := 0, 0
	if st&0x7f != 0 && st&0x7f != 0x7f {
		sig = int(st & 0x7f)
	} else {
		code = int(st>>8) & 0xff
		if code >= 128 {
			code -= 128
		}
	}
	return fmt.Sprintf("%d:%d", code, sig)
}

func elapsed(start, end, suspended int64, now time.Time) int64 {
	switch {
	case start == 0:
		return 0
	case end == 0:
		end = now.Unix()
	}
	return max(end-start-suspended, 0)
}

func stateText(st uint32, by int64) string {
	s := states.JobState(st).Base().String()
	if states.JobState(st).Base() == states.JobCancelled && by >= 0 {
		s += " by " + strconv.FormatInt(by, 10)
	}
	return s
}

func jobIDText(j *wire.AcctJob) string {
	switch {
	case j.ArrayTasks != "":
		return fmt.Sprintf("%d_[%s]", j.ArrayJobID, j.ArrayTasks)
	case j.ArrayJobID != 0:
		return fmt.Sprintf("%d_%d", j.ArrayJobID, j.ArrayTaskID)
	}
	return strconv.FormatUint(uint64(j.JobID), 10)
}

func stepIDText(id uint32) string {
	switch id {
	case wire.StepBatch:
		return "batch"
	case wire.StepExtern:
		return "extern"
	}
	return strconv.FormatUint(uint64(id), 10)
}

func groupName(gid uint32) string {
	if g, err := userdb.LookupGroupId(strconv.FormatUint(uint64(gid), 10)); err == nil {
		return g.Name
	}
	return ""
}

// jobValues are a job line's values in column order.
func jobValues(cols []format.SacctColumn, j *wire.AcctJob, now time.Time, parsable bool) []format.SacctValue {
	el := elapsed(j.Start, j.End, j.Suspended, now)
	out := make([]format.SacctValue, len(cols))
	for i, c := range cols {
		v := null
		switch c.Field.Name {
		case "Account":
			if j.Account != "" {
				v = text(j.Account)
			}
		case "AllocCPUS", "NCPUS":
			v = num(uint64(j.AllocCPUs))
		case "AllocTRES":
			if s := jobTRESText(j, true); s != "" {
				v = text(s)
			}
		case "ReqTRES":
			v = text(jobTRESText(j, false))
		case "AllocNodes":
			v = num(uint64(j.NNodes))
			if j.AllocCPUs == 0 {
				v = text("0")
			}
		case "Cluster":
			v = text(j.Cluster)
		case "CPUTime":
			v = text(slurmtime.FormatElapsed(el * int64(j.AllocCPUs)))
		case "CPUTimeRAW":
			v = num(uint64(el) * uint64(j.AllocCPUs))
		case "DerivedExitCode":
			v = text("0:0")
		case "Elapsed":
			v = text(slurmtime.FormatElapsed(el))
		case "ElapsedRaw":
			v = num(uint64(el))
		case "Eligible":
			v = date(j.Eligible, c, parsable)
		case "End":
			v = date(j.End, c, parsable)
		case "ExitCode":
			v = text(exitCode(j.ExitCode))
		case "GID":
			v = num(uint64(j.GroupID))
		case "Group":
			if g := groupName(j.GroupID); g != "" {
				v = text(g)
			}
		case "JobID":
			v = text(jobIDText(j))
		case "JobIDRaw":
			v = num(uint64(j.JobID))
		case "JobName":
			v = text(j.Name)
		case "NNodes":
			v = num(uint64(j.NNodes))
		case "NodeList":
			v = text(j.NodeList)
		case "Partition":
			v = text(j.Partition)
		case "Priority":
			v = num(uint64(j.Priority))
		case "ReqCPUS":
			v = num(uint64(j.ReqCPUs))
		case "ReqMem":
			if j.ReqMem != "" {
				v = text(j.ReqMem)
			}
		case "ReqNodes":
			v = num(uint64(j.ReqNodes))
		case "Reservation":
			if j.Reservation != "" {
				v = text(j.Reservation)
			}
		case "Start":
			v = date(j.Start, c, parsable)
		case "State":
			// Orbit does not keep who cancelled a job; its owner is shown (the usual case).
			v = text(stateText(j.State, int64(j.UserID)))
		case "Submit":
			v = date(j.Submit, c, parsable)
		case "Suspended":
			v = text(slurmtime.FormatElapsed(j.Suspended))
		case "Timelimit":
			v = text(slurmtime.FormatTimeLimit(j.TimeLimit))
		case "TimelimitRaw":
			if j.TimeLimit == wire.Infinite {
				v = text("UNLIMITED")
			} else {
				v = num(uint64(j.TimeLimit))
			}
		case "UID":
			v = num(uint64(j.UserID))
		case "User":
			v = text(j.UserName)
		case "WorkDir":
			v = text(j.WorkDir)
		}
		out[i] = v
	}
	return out
}

// stepValues are a step line's values in column order.
func stepValues(cols []format.SacctColumn, j *wire.AcctJob, s *wire.AcctStep, now time.Time, parsable bool) []format.SacctValue {
	el := elapsed(s.Start, s.End, 0, now)
	out := make([]format.SacctValue, len(cols))
	for i, c := range cols {
		v := null
		switch c.Field.Name {
		case "Account":
			if j.Account != "" {
				v = text(j.Account)
			}
		case "AllocCPUS", "NCPUS":
			v = num(uint64(s.CPUs))
		case "AllocNodes", "NNodes", "ReqNodes":
			v = num(uint64(s.NNodes))
		case "AllocTRES":
			if s.StepID != wire.StepExtern {
				v = text(stepAllocTRES(s))
			}
		case "Cluster":
			v = text(j.Cluster)
		case "CPUTime":
			v = text(slurmtime.FormatElapsed(el * int64(s.CPUs)))
		case "CPUTimeRAW":
			v = num(uint64(el) * uint64(s.CPUs))
		case "Elapsed":
			v = text(slurmtime.FormatElapsed(el))
		case "ElapsedRaw":
			v = num(uint64(el))
		case "Eligible", "Start", "Submit":
			v = date(s.Start, c, parsable)
		case "End":
			v = date(s.End, c, parsable)
		case "ExitCode":
			v = text(exitCode(s.ExitCode))
		case "JobID":
			v = text(jobIDText(j) + "." + stepIDText(s.StepID))
		case "JobIDRaw":
			v = text(strconv.FormatUint(uint64(j.JobID), 10) + "." + stepIDText(s.StepID))
		case "JobName":
			v = text(s.Name)
		case "NodeList":
			v = text(s.NodeList)
		case "NTasks":
			v = num(uint64(s.NTasks))
		case "State":
			v = text(stateText(s.State, -1))
		case "Suspended":
			v = text(slurmtime.FormatElapsed(0))
		}
		out[i] = v
	}
	return out
}

// stepAllocTRES is a step's AllocTRES as Slurm 22.05 accounts it (step_set_alloc_tres): its
// CPUs, its memory, its nodes, always all three. The memory is what the step was allocated:
// Orbit's steps take none of their own (no step --mem), which is what Slurm records under
// SelectTypeParameters=CR_CPU or CR_Core, "mem=0" (convert_num_unit prints 0 bare). Under
// CR_*_Memory Slurm would record the job's memory on the step's nodes instead; sacct cannot
// tell from the record, so Orbit prints 0 there too. A step's ReqTRES is blank in Slurm.
func stepAllocTRES(s *wire.AcctStep) string {
	return "cpu=" + strconv.FormatUint(uint64(s.CPUs), 10) + ",mem=0,node=" + strconv.FormatUint(uint64(s.NNodes), 10)
}

// jobTRESText is a job's AllocTRES (alloc) or ReqTRES as sacct prints them: the TRES of
// tres_alloc_str / tres_req_str (cpu, mem, node, billing and the tracked GRES, as jobTRES
// counts them for --json) named and sorted by name, as slurmdb_make_tres_string_from_simple
// lists them ("billing=2,cpu=2,gres/gpu=1,mem=1000M,node=1"); memory in convert_num_unit's
// exact form. A job that never started has no AllocTRES.
func jobTRESText(j *wire.AcctJob, alloc bool) string {
	cpus, nodes, gres := uint64(j.ReqCPUs), uint64(j.ReqNodes), j.GresReqTRES
	if alloc {
		if j.AllocCPUs == 0 {
			return ""
		}
		cpus, nodes, gres = uint64(j.AllocCPUs), uint64(j.NNodes), j.GresAllocTRES
	}
	u := func(n uint64) string { return strconv.FormatUint(n, 10) }
	parts := []string{"billing=" + u(cpus), "cpu=" + u(cpus), "node=" + u(nodes)}
	if j.ReqMemMiB > 0 {
		mem := j.ReqMemMiB * nodes
		if j.ReqMemPerCPU {
			mem = j.ReqMemMiB * cpus
		}
		parts = append(parts, "mem="+memsize.FormatMB(mem))
	}
	if gres != "" {
		parts = append(parts, strings.Split(gres, ",")...)
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

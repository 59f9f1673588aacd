package format

import (
	"fmt"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
)

// Special step numbers, as Slurm numbers them.
const (
	StepPending     uint32 = 0xfffffffd // "TBD"
	StepExtern      uint32 = 0xfffffffc
	StepBatch       uint32 = 0xfffffffb
	StepInteractive uint32 = 0xfffffffa
)

// StepRow holds what `squeue -s` can print about one job step. Empty strings are NULL.
type StepRow struct {
	JobID, StepID                                        uint32
	HetComponent                                         uint32 // NoVal when the job is not heterogeneous
	ArrayJobID                                           uint32 // 0 when not an array task
	ArrayTaskID                                          uint32 // NoVal when not an array task
	Name, Partition, UserName                            string
	UserID                                               uint32
	TimeLimit                                            uint32 // minutes; Infinite
	Start                                                time.Time
	RunTimeSecs                                          int64
	NodeList                                             string
	NumTasks, NumCPUs                                    uint32
	Cluster, Container, Network, ResvPorts               string
	CPUFreq                                              string // rendered min-max:gov
	State                                                states.JobState
	TRESPerNode, TRESPerStep, TRESPerSocket, TRESPerTask string
	CPUsPerTRES, MemPerTRES, TRESBind, TRESFreq          string
}

// StepName renders a step number as Slurm does: 0, 1, ..., batch, extern, interactive, TBD.
func StepName(step uint32) string {
	switch step {
	case StepPending:
		return "TBD"
	case StepExtern:
		return "extern"
	case StepBatch:
		return "batch"
	case StepInteractive:
		return "interactive"
	}
	return strconv.FormatUint(uint64(step), 10)
}

// StepIDText is %i of `squeue -s`: job.step, array_task.step for array tasks, with "+n"
// for a heterogeneous component.
func (s *StepRow) StepIDText() string {
	step := StepName(s.StepID)
	if s.HetComponent != NoVal {
		step += fmt.Sprintf("+%d", s.HetComponent)
	}
	if s.ArrayJobID != 0 {
		return fmt.Sprintf("%d_%d.%s", s.ArrayJobID, s.ArrayTaskID, step)
	}
	return fmt.Sprintf("%d.%s", s.JobID, step)
}

type stepField = Field[*StepRow]

func tstr(letter byte, names, title string, get func(*StepRow) string) stepField {
	return mkField(letter, names, title, func(s *StepRow) Cell { return Str(get(s)) })
}

func tnull(letter byte, names, title string, get func(*StepRow) string) stepField {
	return tstr(letter, names, title, func(s *StepRow) string { return null(get(s)) })
}

func tint(letter byte, names, title string, get func(*StepRow) int64) stepField {
	return tstr(letter, names, title, func(s *StepRow) string { return strconv.FormatInt(get(s), 10) })
}

// SqueueStepFields is every field of `squeue -s` in Slurm 22.05.
var SqueueStepFields = []stepField{
	tnull(0, "cluster", "CLUSTER", func(s *StepRow) string { return s.Cluster }),
	tnull(0, "container*", "CONTAINER", func(s *StepRow) string { return s.Container }),
	tint('A', "numtask*", "TASKS", func(s *StepRow) int64 { return int64(s.NumTasks) }),
	tnull('b', "gres tres-per-node", "TRES_PER_JOB", func(s *StepRow) string { return s.TRESPerNode }),
	tstr('i', "stepid", "STEPID", (*StepRow).StepIDText),
	tnull('j', "stepname", "NAME", func(s *StepRow) string { return s.Name }),
	mkField('l', "timelimit", "TIME_LIMIT", func(s *StepRow) Cell {
		if s.TimeLimit == Infinite {
			return Str("UNLIMITED")
		}
		return Uncut(Secs(int64(s.TimeLimit) * 60))
	}),
	mkField('M', "timeused", "TIME", func(s *StepRow) Cell { return Uncut(Secs(s.RunTimeSecs)) }),
	withTitleNoCut(mkField('N', "nodes", "NODELIST", func(s *StepRow) Cell { return Uncut(s.NodeList) })),
	tnull('P', "partition", "PARTITION", func(s *StepRow) string { return s.Partition }),
	tstr('S', "starttime", "START_TIME", func(s *StepRow) string { return Time(s.Start) }),
	tint('U', "userid", "UID", func(s *StepRow) int64 { return int64(s.UserID) }),
	tstr('u', "username", "USER", func(s *StepRow) string {
		if s.UserName != "" {
			return s.UserName
		}
		return strconv.FormatUint(uint64(s.UserID), 10)
	}),
	tint(0, "arrayjobid", "ARRAY_JOB_ID", func(s *StepRow) int64 {
		if s.ArrayJobID != 0 {
			return int64(s.ArrayJobID)
		}
		return int64(s.JobID)
	}),
	tstr(0, "arraytaskid", "ARRAY_TASK_ID", func(s *StepRow) string {
		if s.ArrayTaskID != NoVal {
			return strconv.FormatUint(uint64(s.ArrayTaskID), 10)
		}
		return "N/A"
	}),
	tint(0, "jobid", "JOB_ID", func(s *StepRow) int64 { return int64(s.JobID) }),
	tnull(0, "network", "NETWORK", func(s *StepRow) string { return s.Network }),
	tint(0, "numcpus", "NUM_CPUS", func(s *StepRow) int64 { return int64(s.NumCPUs) }),
	tstr(0, "cpufreq", "CPU_FREQ", func(s *StepRow) string { return s.CPUFreq }),
	tnull(0, "resvports", "RESERVED_PORTS", func(s *StepRow) string { return s.ResvPorts }),
	tstr(0, "stepstate", "STATE", func(s *StepRow) string { return s.State.String() }),
	tnull(0, "cpus-per-tres", "CPUS_PER_TRES", func(s *StepRow) string { return s.CPUsPerTRES }),
	tnull(0, "mem-per-tres", "MEM_PER_TRES", func(s *StepRow) string { return s.MemPerTRES }),
	tnull(0, "tres-bind", "TRES_BIND", func(s *StepRow) string { return s.TRESBind }),
	tnull(0, "tres-freq", "TRES_FREQ", func(s *StepRow) string { return s.TRESFreq }),
	tnull(0, "tres-per-job tres-per-step", "TRES_PER_STEP", func(s *StepRow) string { return s.TRESPerStep }),
	tnull(0, "tres-per-socket", "TRES_PER_SOCKET", func(s *StepRow) string { return s.TRESPerSocket }),
	tnull(0, "tres-per-task", "TRES_PER_TASK", func(s *StepRow) string { return s.TRESPerTask }),
}

// SqueueStepsTable is the table behind `squeue -s`.
var SqueueStepsTable = &Table[*StepRow]{
	Command:       "squeue",
	Fields:        SqueueStepFields,
	Dialect:       DialectSqueue,
	InvalidLetter: "squeue: error: Invalid job step format specification: %s",
	InvalidName:   "squeue: error: Invalid job step format specification: %s",
}

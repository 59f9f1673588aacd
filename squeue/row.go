package main

import (
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// fillJobRow fills squeue's row r (a zero value) from the controller's record of one job.
func fillJobRow(r *format.JobRow, j *wire.JobInfo, now time.Time) {
	*r = format.JobRow{
		JobID:          j.JobID,
		ArrayJobID:     j.ArrayJobID,
		ArrayTaskID:    j.ArrayTaskID,
		ArrayTaskStr:   j.ArrayTaskStr,
		Name:           j.Name,
		UserName:       j.UserName,
		GroupName:      j.GroupName,
		UserID:         j.UserID,
		GroupID:        j.GroupID,
		Account:        j.Account,
		Partition:      j.Partition,
		QOS:            j.QOS,
		Reservation:    j.Reservation,
		WCKey:          j.WCKey,
		Licenses:       j.Licenses,
		LicensesEmpty:  j.LicensesEmpty,
		TRESPerNode:    j.Gres, // tres_per_node ("gres:gpu:1"), as the controller keeps --gres
		TRESPerJob:     j.TresPerJob,
		TRESPerTask:    j.TresPerTask,
		CPUsPerTRES:    j.CpusPerTres,
		MemPerTRES:     j.MemPerTres,
		TRESBind:       j.TresBind,
		TRESFreq:       j.TresFreq,
		TRESAlloc:      j.TRES, // allocated while running, else requested: tres_alloc_str, tres_req_str
		Comment:        j.Comment,
		Features:       j.Constraint,
		Dependency:     j.Dependency,
		Command:        j.Command,
		WorkDir:        j.WorkDir,
		StdIn:          j.StdIn,
		StdOut:         j.StdOut,
		StdErr:         j.StdErr,
		OverSubscribe:  j.OverSubscribe,
		State:          states.JobState(j.State),
		Reason:         states.Reason(j.Reason),
		StateDesc:      j.StateDesc,
		NodeList:       j.NodeList,
		ReqNodes:       j.ReqNodes,
		ExcNodes:       j.ExcNodes,
		SchedNodes:     j.SchedNodes,
		BatchHost:      j.BatchHost,
		AllocNode:      j.AllocNode,
		BatchFlag:      j.BatchFlag,
		NumNodes:       j.NumNodes,
		NumCPUs:        j.NumCPUs,
		NumTasks:       j.NumTasks,
		MinCPUs:        j.MinCPUsNode,
		MaxCPUs:        j.NumCPUs,
		MaxNodes:       j.MaxNodes,
		CPUsPerTask:    u16(j.CPUsPerTask),
		Sockets:        u16(j.SocketsPerNode), // the site options: 0 from the controller is "not given"
		Cores:          u16(j.CoresPerSocket),
		Threads:        u16(j.ThreadsPerCore),
		MinTmpDiskMB:   uint32(j.TmpDiskMB),
		DelayBoot:      j.DelayBoot,
		ReqSwitch:      j.ReqSwitch,
		Wait4Switch:    j.SwitchWait,
		NTasksPerNode:  uint16(min(j.NTasksPerNode, 0xfffe)), // 0 when not given, as Slurm's
		NTasksPerCore:  u16(j.NTasksPerCore),
		CoreSpec:       format.NoVal16,
		TimeLimit:      j.TimeLimit,
		TimeMin:        j.TimeMin,
		Submit:         unix(j.SubmitTime),
		Start:          unix(j.StartTime),
		End:            unix(j.EndTime),
		Eligible:       unix(j.EligibleTime),
		Accrue:         unix(j.AccrueTime),
		Deadline:       unix(j.Deadline),
		Suspend:        unix(j.SuspendTime),
		PreemptTime:    unix(j.PreemptTime),
		PreSuspendSecs: j.PreSusTime,
		Priority:       j.Priority,
		Nice:           j.Nice,
		RestartCnt:     j.Restarts,
		ExitCode:       int32(j.ExitCode),
		DerivedEC:      int32(j.DerivedExit),
		AllocSID:       j.AllocSID,
		Now:            now,
	}
	r.NTasksPerSocket = u16(j.NTasksPerSocket)
	r.ClusterFeatures, r.Prefer, r.Container, r.Network = j.ClusterFeatures, j.Prefer, j.Container, j.Network
	r.MCSLabel, r.BurstBuffer = j.MCSLabel, j.BurstBuffer
	if j.Contiguous {
		r.Contiguous = 1
	}
	if j.Reboot {
		r.Reboot = 1
	}
	if j.Requeue {
		r.Requeue = 1
	}
	switch {
	case j.MemPerCPU != wire.NoVal64 && j.MemPerCPU != 0:
		r.MinMemoryMB = j.MemPerCPU
	case j.MemPerNode != wire.NoVal64:
		r.MinMemoryMB = j.MemPerNode
	}
}

func unix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0)
}

// u16 narrows a request count to squeue's 16-bit fields, keeping "not requested".
func u16(v uint32) uint16 {
	if v == wire.NoVal || v == 0 || v > 0xfffd {
		return format.NoVal16
	}
	return uint16(v)
}

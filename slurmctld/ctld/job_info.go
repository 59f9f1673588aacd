package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleJobInfo serves MsgJobInfo (squeue, scontrol show job): every user sees every job, as
// with Slurm's default PrivateData.
func (c *Controller) handleJobInfo(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	r := req.Body.(*wire.JobInfoRequest)
	want := map[uint32]bool{}
	for _, id := range r.JobIDs {
		want[id] = true
	}
	c.mu.RLock()
	var recs []*jobRecord
	for _, id := range c.t.sortedJobIDs() {
		if len(want) == 0 || want[id] || want[c.t.jobs[id].ArrayJobID] { // an array id names its tasks
			recs = append(recs, c.t.jobs[id])
		}
	}
	rep := &wire.JobInfoReply{LastUpdate: c.now().Unix(), Jobs: make([]wire.JobInfo, 0, len(recs))}
	for _, j := range recs {
		info := c.jobInfo(j)
		arrayInfo(j, &info) // job_array.go
		if info.Dependency != "" && (j.state().IsPending() || len(j.Nodes) == 0) {
			_, info.Dependency = c.t.dependency(j, rep.LastUpdate) // what remains (job_depend.go)
		} else {
			info.Dependency = ""
		}
		rep.Jobs = append(rep.Jobs, info)
	}
	if r.Steps {
		rep.Steps = c.stepInfos(rep.Jobs) // step_info.go
	}
	c.mu.RUnlock()
	return rep, nil
}

// jobInfo converts a record (immutable, so safe to read under the read lock) to what the
// commands show. Slices are copied so the reply owns them.
func (c *Controller) jobInfo(j *jobRecord) wire.JobInfo {
	d := &j.Desc
	info := wire.JobInfo{
		JobID:         j.JobID,
		ArrayTaskID:   wire.NoVal,
		Name:          d.Name,
		UserID:        j.UserID,
		UserName:      c.names.user(j.UserID),
		GroupID:       j.GroupID,
		GroupName:     c.names.group(j.GroupID),
		Partition:     d.Partition,
		Account:       d.Account,
		QOS:           d.QOS,
		State:         j.State,
		Reason:        j.Reason,
		StateDesc:     stateDesc(j), // node_drain.go
		Priority:      j.Priority,
		Nice:          d.Nice,
		NodeList:      hostlist.Compress(j.Nodes),
		BatchHost:     j.batchHost(),
		ReqNodes:      d.ReqNodes,
		ExcNodes:      d.ExcNodes,
		NumNodes:      j.MinNodes,
		MaxNodes:      j.MaxNodes,
		NumCPUs:       j.NumTasks * j.CPUsPerTask,
		NumTasks:      j.NumTasks,
		CPUsPerTask:   j.CPUsPerTask,
		NTasksPerNode: j.TasksPerNod,
		MemPerNode:    j.MemPerNode,
		MemPerCPU:     j.MemPerCPU,
		TimeLimit:     j.TimeLimit,
		TimeMin:       d.TimeMin,
		SubmitTime:    j.SubmitTime,
		EligibleTime:  j.EligibleTime,
		StartTime:     j.StartTime,
		EndTime:       j.EndTime,
		Deadline:      d.Deadline,
		ExitCode:      j.ExitCode,
		Restarts:      j.Restarts,
		Requeue:       d.Requeue == 1 || (d.Requeue < 0 && c.cfg.JobRequeue != 0),
		BatchFlag:     true,
		Dependency:    d.Dependency,
		Command:       d.Command,
		WorkDir:       d.WorkDir,
		StdOut:        d.StdOut,
		StdErr:        d.StdErr,
		StdIn:         d.StdIn,
		Comment:       d.Comment,
		Constraint:    d.Constraint,
		Shared:        d.Shared,
		SubmitLine:    d.SubmitLine,
		Reservation:   d.Reservation,
		WCKey:         d.WCKey,
		Licenses:      d.Licenses,
		Gres:          d.Gres,
		MailType:      d.MailType,
		MailUser:      d.MailUser,
		AllocNode:     d.SubmitHost,
		OverSubscribe: oversubscribe(j),
	}
	if len(j.Nodes) > 0 {
		info.NumNodes = uint32(len(j.Nodes))
		info.NumCPUs = j.numCPUs()
		info.CPUsPerNode = append([]uint32(nil), j.CPUsPerNode...)
	}
	if info.StdIn == "" {
		info.StdIn = "/dev/null"
	}
	c.jobInfoExtra(j, &info) // job_info_show.go
	if j.state().IsPending() && j.EligibleTime > j.SubmitTime {
		// Slurm shows a deferred job's expected start as its begin time.
		info.StartTime = j.EligibleTime
	}
	return info
}

// oversubscribe is scontrol's OverSubscribe= value for the job.
func oversubscribe(j *jobRecord) string {
	switch {
	case j.Exclusive:
		return "NO"
	case jobspec.Shared(j.Desc.Shared) == jobspec.SharedUser:
		return "USER"
	case jobspec.Shared(j.Desc.Shared) == jobspec.SharedMCS:
		return "MCS"
	case jobspec.Shared(j.Desc.Shared) == jobspec.SharedOK:
		return "YES"
	}
	return "OK"
}

package ctld

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleJobInfo serves MsgJobInfo (squeue, scontrol show job): every user sees every job, as
// with Slurm's default PrivateData. The state lock is held only to pick the records and to
// build what is not cached; sorting and encoding happen after it is released, so a query of
// a large queue does not hold up submissions or the scheduler.
func (c *Controller) handleJobInfo(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.JobInfoRequest)
	f := newJobFilter(r) // job_info_filter.go
	// Without -a, users (not operators) do not see the jobs of hidden partitions.
	f.hideHidden = !r.ShowAll && !c.privileged(id)
	if r.Packed && !r.Steps {
		return c.packedJobInfo(f, r.PackedRefs), nil // job_info_cache.go
	}
	c.mu.RLock()
	f.noteHidden(c.t)
	var recs []*jobRecord
	for _, j := range c.t.jobs {
		if f.keep(j) {
			recs = append(recs, j)
		}
	}
	slices.SortFunc(recs, func(a, b *jobRecord) int { return cmp.Compare(a.JobID, b.JobID) })
	rep := &wire.JobInfoReply{LastUpdate: c.now().Unix(), Jobs: make([]wire.JobInfo, 0, len(recs))}
	for _, j := range recs {
		rep.Jobs = append(rep.Jobs, c.jobInfoShown(j, rep.LastUpdate))
	}
	if r.Steps {
		rep.Steps = c.stepInfos(rep.Jobs) // step_info.go
	}
	c.mu.RUnlock()
	return rep, nil
}

// jobInfoShown is everything squeue and scontrol show of j at now (under the read lock).
func (c *Controller) jobInfoShown(j *jobRecord, now int64) wire.JobInfo {
	info := c.jobInfo(j)
	arrayInfo(j, &info) // job_array.go
	if info.Dependency != "" && (j.state().IsPending() || len(j.Nodes) == 0) {
		_, info.Dependency = c.t.dependency(j, now) // what remains (job_depend.go)
	} else {
		info.Dependency = ""
	}
	return info
}

// jobInfo converts a record (immutable, so safe to read under the read lock) to what the
// commands show. Slices are copied so the reply owns them.
func (c *Controller) jobInfo(j *jobRecord) wire.JobInfo {
	d := descScratch.Get().(*wire.JobDesc)
	defer descScratch.Put(d) // info keeps its strings, not d
	j.desc.unpackInto(d)
	part := d.Partition // a pending job of several partitions lists them all
	if j.StartTime != 0 && !j.state().IsPending() {
		part = j.Partition // the one it runs (or ran) in
	}
	info := wire.JobInfo{
		JobID:       j.JobID,
		ArrayTaskID: wire.NoVal,
		Name:        d.Name,
		UserID:      j.UserID,
		UserName:    c.names.user(j.UserID),
		GroupID:     j.GroupID,
		GroupName:   c.names.group(j.GroupID),
		Partition:   part,
		Account:     d.Account,
		QOS:         d.QOS,
		State:       j.State,
		Reason:      j.Reason,
		StateDesc:   stateDesc(j), // node_drain.go
		Priority:    j.Priority,
		Nice:        d.Nice,
		NodeList:    hostlist.Compress(j.Nodes),
		BatchHost:   j.batchHost(), BatchFeatures: j.descStr(descBatchFeatures),
		ReqNodes:      d.ReqNodes,
		ExcNodes:      d.ExcNodes,
		NumNodes:      j.MinNodes,
		MaxNodes:      j.MaxNodes,
		NumCPUs:       j.requestedCPUs(),
		NumTasks:      j.NumTasks,
		CPUsPerTask:   j.CPUsPerTask,
		NTasksPerNode: j.TasksPerNod,
		MemPerNode:    j.minMemoryNode(),
		MemPerCPU:     j.MemPerCPU,
		TimeLimit:     j.TimeLimit,
		TimeMin:       d.TimeMin,
		SubmitTime:    j.SubmitTime,
		ResizeTime:    j.ResizeTime,
		EligibleTime:  j.EligibleTime,
		StartTime:     j.StartTime,
		EndTime:       j.EndTime,
		Deadline:      d.Deadline,
		ExitCode:      j.ExitCode,
		Restarts:      j.Restarts,
		Requeue:       d.Requeue == 1 || (d.Requeue < 0 && c.config().JobRequeue != 0),
		BatchFlag:     !j.isInteractive(),
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
		Reservation:   finishedResv(c.t, j, d.Reservation),
		WCKey:         d.WCKey,
		Licenses:      d.Licenses,
		LicensesEmpty: d.LicensesEmpty,
		Gres:          jobspec.TresPerNode(d.Gres), // Slurm keeps and shows tres_per_node ("gres:gpu:1")
		MailType:      d.MailType,
		MailUser:      d.MailUser,
		AllocNode:     cmp.Or(d.AllocNode, d.SubmitHost), // records from before AllocNode: the client's name
		AllocSID:      d.AllocSID,
		OverSubscribe: oversubscribe(j, c.t.parts[j.Partition]),
		SchedBackfill: j.Backfilled,
	}
	if len(j.Nodes) > 0 {
		info.NumNodes = uint32(len(j.Nodes))
		info.NumCPUs = j.numCPUs()
		info.CPUsPerNode = append([]uint32(nil), j.CPUsPerNode...)
		if c.trackMem {
			info.MemAlloc = j.MemAlloc
		}
	} else if j.state().IsPending() {
		info.NumNodes = c.t.pendingNodeCount(j)
	}
	if info.MailUser == "" && info.MailType != 0 {
		info.MailUser = c.mailUser(j) // job_mail.go: the user's name when not given
	}
	if info.StdIn == "" && info.BatchFlag {
		info.StdIn = "/dev/null" // sbatch's default; an interactive job has none
	}
	if j.requestedTasks() == 0 && len(j.Nodes) > int(info.NumTasks) {
		// No task count asked for: a task per node the job was given (-N min-max).
		info.NumTasks = uint32(len(j.Nodes))
	}
	if d.Overcommit {
		// The tasks asked for, not the one per node the job is placed as.
		info.NumTasks = max(j.allocTasks(), j.NumTasks)
		if n := d.NTasksPerNode; n != wire.NoVal {
			info.NTasksPerNode = n
		}
	} else if len(j.Nodes) > 0 && j.TasksPerNod > 0 {
		info.NumTasks = j.allocTasks() // --ntasks-per-node on every node it got
	}
	if d, ok := c.plug.descs[j.JobID]; ok && info.StateDesc == "" && j.state().IsPending() && j.Reason == uint32(descReason(d)) {
		info.StateDesc = d // the scheduler's text for the reason (sched_cycle.go)
	}
	c.jobInfoExtra(j, d, &info) // job_info_show.go
	if s := j.state(); (s.IsRunning() || s.IsSuspended()) && j.TimeLimit == wire.Infinite && j.EndTime == 0 && j.StartTime != 0 {
		// Slurm's job_end_time_reset: a job without a time limit ends a year after its start
		// (squeue shows END_TIME NONE for it, scontrol EndTime=Unknown).
		info.EndTime = j.StartTime + yearSeconds
	}
	if j.state().IsPending() && j.EligibleTime > j.SubmitTime {
		// Slurm shows a deferred job's expected start as its begin time.
		info.StartTime = j.EligibleTime
		info.EndTime = expectedEnd(j, info.StartTime) // job_times.go
	}
	if start, nodes, ok := c.expectedStart(j.JobID); ok && j.state().IsPending() {
		// Backfill's expected start and nodes (squeue --start), as Slurm's backfill stamps
		// them on the job.
		info.SchedNodes = hostlist.Compress(nodes)
		if start > info.StartTime {
			info.StartTime = start
			info.EndTime = expectedEnd(j, start)
		}
	}
	return info
}

// pendingNodeCount is the node count Slurm shows for a pending job: the nodes its tasks need
// on the partition's largest node (part max_cpu_cnt), at least the requested minimum, as
// Slurm's job-info packing guesses it when the job has no node_cnt_wag. (Slurm stamps
// node_cnt_wag when a selection could place the job; that count is this one for every job a
// selection would place on as few nodes as its tasks need, which is what select/cons_tres and
// select/linear do here.)
func (t *tables) pendingNodeCount(j *jobRecord) uint32 {
	p := t.parts[j.Partition]
	if p == nil || p.maxNodeCPUs == 0 {
		return j.MinNodes
	}
	var n uint32
	switch {
	case j.TasksPerNod > 0:
		n = j.NumTasks / j.TasksPerNod
	case j.CPUsPerTask > 1:
		perNode := max(p.maxNodeCPUs/j.CPUsPerTask, 1)
		n = (j.NumTasks + perNode - 1) / perNode
	default:
		n = (j.NumTasks + p.maxNodeCPUs - 1) / p.maxNodeCPUs
	}
	return max(n, j.MinNodes)
}

// finishedResv is the reservation a job shows: a finished job no longer names one that has
// been deleted or has expired (Slurm's _clear_job_resv unlinks the jobs then).
func finishedResv(t *tables, j *jobRecord, name string) string {
	if name != "" && j.state().IsFinished() && t.resvs[name] == nil {
		return ""
	}
	return name
}

// oversubscribe is scontrol's OverSubscribe= value for the job.
func oversubscribe(j *jobRecord, p *partEntry) string {
	switch {
	case p != nil && forcedShare(p.conf.OverSubscribe) > 1:
		return "YES" // FORCE shares even an --exclusive job's nodes (select_share.go)
	case j.Exclusive:
		return "NO"
	case jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedUser:
		return "USER"
	case jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedMCS:
		return "MCS"
	case jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedOK:
		return "YES"
	case p != nil && p.conf.ExclusiveUser:
		return "USER" // what the partition makes of it (select_user.go)
	case p != nil && strings.EqualFold(p.conf.OverSubscribe, "EXCLUSIVE"):
		return "NO"
	}
	return "OK"
}

// forcedShare is N of a partition's OverSubscribe=FORCE:N (FORCE alone is FORCE:4), 0 when
// it is not FORCE.
func forcedShare(os string) int {
	v, ok := strings.CutPrefix(strings.ToUpper(os), "FORCE")
	if !ok {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(v, ":")); err == nil {
		return n
	}
	return 4
}

// descReason is the reason a scheduler's accepted pending-reason text goes with.
func descReason(desc string) states.Reason {
	r, _ := states.SchedulerDescReason(desc)
	return r
}

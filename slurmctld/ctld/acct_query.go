package ctld

import (
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// sacct's query (MsgAcctQuery) against the embedded accounting: the jobs still in memory
// (pending, running, and finished ones younger than MinJobAge) and the purged ones from the
// store's accounting table, each with its steps, filtered here as slurmdbd filters a job
// condition. Reading the whole table is fine at the sizes a quick-start or test cluster
// reaches; a large site wants the window pushed into the store query.

// registerAcct installs the accounting endpoint.
func (c *Controller) registerAcct() {
	c.srv.HandleRPC(wire.MsgAcctQuery, c.handleAcctQuery)
}

// handleAcctQuery serves MsgAcctQuery. Any authenticated user may read accounting (Slurm's
// default without PrivateData); the user filter is sacct's choice.
func (c *Controller) handleAcctQuery(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	r := req.Body.(*wire.AcctQueryRequest)

	jobs := map[uint32]*jobRecord{}
	c.mu.RLock()
	for id, j := range c.t.jobs {
		jobs[id] = j // installed records are immutable
	}
	c.mu.RUnlock()

	starts := map[string]acctStepRow{}
	ends := map[string]acctStepRow{}
	purged := map[uint32]*jobRecord{}
	err := c.store.Accounting(math.MinInt64, math.MaxInt64, func(rec store.AccountingRecord) error {
		switch rec.Kind {
		case kindJob:
			j := new(jobRecord)
			if err := wire.Unmarshal(rec.Value, j); err != nil {
				return nil // a damaged row hides one job, not the others
			}
			purged[j.JobID] = j // a later row (a requeued job's next run) replaces it
		case kindStepStart, kindStepEnd:
			var row acctStepRow
			if err := wire.Unmarshal(rec.Value, &row); err != nil {
				return nil
			}
			if rec.Kind == kindStepStart {
				starts[rec.Key] = row
			} else {
				ends[rec.Key] = row
			}
		}
		return nil
	})
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "accounting: %v", err)
	}
	for id, j := range purged {
		if jobs[id] == nil {
			jobs[id] = j
		}
	}
	steps := map[uint32][]acctStepRow{}
	for key, s := range starts {
		if e, ok := ends[key]; ok {
			s.End, s.ExitCode = e.End, e.ExitCode
		}
		steps[s.JobID] = append(steps[s.JobID], s)
	}

	var nodeSet map[string]bool
	if len(r.Nodes) > 0 {
		nodeSet = map[string]bool{}
		for _, n := range r.Nodes {
			nodeSet[n] = true
		}
	}
	rep := &wire.AcctQueryReply{}
	for _, j := range jobs {
		sel, ok := acctSelectJob(r, j, nodeSet)
		if !ok {
			continue
		}
		aj := c.acctJob(j, steps[j.JobID])
		if sel != nil {
			aj.StepsOnly = true
			var keep []wire.AcctStep
			for _, s := range aj.Steps {
				if slices.Contains(sel, s.StepID) {
					keep = append(keep, s)
				}
			}
			aj.Steps = keep
			if len(keep) == 0 {
				continue
			}
		}
		if r.NoSteps {
			aj.Steps = nil
		}
		rep.Jobs = append(rep.Jobs, aj)
	}
	slices.SortFunc(rep.Jobs, func(a, b wire.AcctJob) int {
		for _, d := range [][2]int64{{a.Submit, b.Submit}, {int64(a.ArrayJobID), int64(b.ArrayJobID)},
			{int64(a.ArrayTaskID), int64(b.ArrayTaskID)}, {int64(a.JobID), int64(b.JobID)}} {
			if d[0] != d[1] {
				if d[0] < d[1] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	return rep, nil
}

// acctSelectJob applies the job condition to j. steps is nil when the job line is wanted
// (with all its steps), else the step ids the -j entries named.
func acctSelectJob(r *wire.AcctQueryRequest, j *jobRecord, nodeSet map[string]bool) (steps []uint32, ok bool) {
	if len(r.Jobs) > 0 {
		whole := false
		for _, s := range r.Jobs {
			if !acctJobMatches(s, j) {
				continue
			}
			if s.StepID == wire.NoVal {
				whole = true
			} else {
				steps = append(steps, s.StepID)
			}
		}
		if !whole && steps == nil {
			return nil, false
		}
		if whole {
			steps = nil
		}
	}
	if len(r.Users) > 0 && !slices.Contains(r.Users, j.UserID) {
		return nil, false
	}
	if len(r.Names) > 0 && !slices.Contains(r.Names, j.Desc.Name) {
		return nil, false
	}
	if len(r.Partitions) > 0 && !slices.Contains(r.Partitions, j.Partition) {
		return nil, false
	}
	if nodeSet != nil && !slices.ContainsFunc(j.Nodes, func(n string) bool { return nodeSet[n] }) {
		return nil, false
	}
	if !acctInWindow(r, j) {
		return nil, false
	}
	return steps, true
}

func acctJobMatches(s wire.AcctJobSel, j *jobRecord) bool {
	if s.ArrayTask != wire.NoVal {
		if j.ArrayJobID != s.JobID {
			return false
		}
		if j.isArrayRecord() {
			return slices.Contains(j.ArrayPending, s.ArrayTask)
		}
		return j.ArrayTaskID == s.ArrayTask
	}
	return j.JobID == s.JobID || j.ArrayJobID == s.JobID
}

// acctInWindow is slurmdbd's time condition over [Start, End): without states, a job
// eligible before End that had not ended before Start; with states, a job that was in one
// of them during the window (running: ran during it; pending: waited during it; a final
// state: ended in it).
func acctInWindow(r *wire.AcctQueryRequest, j *jobRecord) bool {
	start, end := j.StartTime, j.EndTime
	st := j.state()
	if !st.IsFinished() {
		end = 0
	}
	if st.IsPending() {
		start = 0
	}
	if len(r.States) == 0 {
		elig := j.EligibleTime
		if elig == 0 {
			elig = j.SubmitTime
		}
		if r.End != 0 && elig >= r.End {
			return false
		}
		return end == 0 || end >= r.Start
	}
	for _, want := range r.States {
		w := states.JobState(want)
		switch w {
		case states.JobPending:
			if j.SubmitTime < r.End && (start == 0 || start >= r.Start) {
				return true
			}
		case states.JobRunning:
			if start != 0 && start < r.End && (end == 0 || end >= r.Start) {
				return true
			}
		default:
			if st.Base() == w && end != 0 && end >= r.Start && end <= r.End {
				return true
			}
		}
	}
	return false
}

// acctJob is j as sacct sees it, with its batch step and srun steps.
func (c *Controller) acctJob(j *jobRecord, rows []acctStepRow) wire.AcctJob {
	st := j.state()
	aj := wire.AcctJob{
		JobID: j.JobID, ArrayJobID: j.ArrayJobID, ArrayTaskID: j.ArrayTaskID,
		Name: j.Desc.Name, UserID: j.UserID, UserName: c.names.user(j.UserID), GroupID: j.GroupID,
		Account: j.Desc.Account, Partition: j.Partition, State: uint32(st.Base()), Reason: j.Reason,
		ExitCode: j.ExitCode, Submit: j.SubmitTime, Eligible: j.EligibleTime, Start: j.StartTime,
		End: j.EndTime, TimeLimit: j.TimeLimit, Priority: j.Priority, NNodes: j.MinNodes,
		ReqNodes: j.MinNodes, WorkDir: j.Desc.WorkDir, Cluster: c.cfg.ClusterName,
		NodeList: "None assigned",
	}
	if j.isArrayRecord() {
		aj.ArrayTasks = formatIndices(j.ArrayPending)
	}
	if st.IsPending() {
		aj.Start, aj.End = 0, 0
	} else if !st.IsFinished() {
		aj.End = 0
	}
	tasks, cpt := max(j.NumTasks, 1), max(j.CPUsPerTask, 1)
	aj.ReqCPUs = tasks * cpt
	if j.MemPerNode > 0 {
		aj.ReqMem = memString(j.MemPerNode)
	} else if j.MemPerCPU > 0 {
		aj.ReqMem = memString(j.MemPerCPU * uint64(aj.ReqCPUs))
	}
	if len(j.Nodes) > 0 && !st.IsPending() {
		aj.NodeList = hostlist.Compress(j.Nodes)
		aj.NNodes = uint32(len(j.Nodes))
		aj.AllocCPUs = j.numCPUs()
	}
	// A job that never started (cancelled while pending) has no steps.
	if aj.Start == 0 || len(j.Nodes) == 0 || (st.Base() == states.JobFailed && j.Reason == uint32(states.FailLaunch)) {
		return aj
	}
	if !j.isInteractive() {
		b := wire.AcctStep{StepID: wire.StepBatch, Name: "batch", Start: j.StartTime, NodeList: j.batchHost(),
			NNodes: 1, NTasks: 1, ExitCode: j.ExitCode, State: uint32(states.JobRunning)}
		if len(j.CPUsPerNode) > 0 {
			b.CPUs = j.CPUsPerNode[0]
		}
		if st.IsFinished() {
			b.End = j.EndTime
			b.State = uint32(acctStepState(st, j.ExitCode, true))
		}
		aj.Steps = append(aj.Steps, b)
	}
	slices.SortFunc(rows, func(a, b acctStepRow) int { return int(a.StepID) - int(b.StepID) })
	for _, r := range rows {
		s := wire.AcctStep{StepID: r.StepID, Name: r.Name, Start: r.Start, End: r.End, ExitCode: r.ExitCode,
			NodeList: r.NodeList, NNodes: r.NNodes, NTasks: r.NTasks, CPUs: r.CPUs, State: uint32(states.JobRunning)}
		switch {
		case r.End != 0:
			s.State = uint32(acctStepState(st, r.ExitCode, st.IsFinished() && r.End >= j.EndTime))
		case st.IsFinished():
			// Its end never arrived: it ended with the job.
			s.End, s.State = j.EndTime, uint32(states.JobCancelled)
		}
		aj.Steps = append(aj.Steps, s)
	}
	return aj
}

// acctStepState is a finished step's state as slurmstepd reports it: a step killed because
// its job was cancelled or ran out of time is CANCELLED; otherwise a nonzero status or a
// signal is FAILED (OUT_OF_MEMORY for an oom-kill) and status 0 COMPLETED.
func acctStepState(job states.JobState, status uint32, endedWithJob bool) states.JobState {
	switch job.Base() {
	case states.JobCancelled, states.JobTimeout, states.JobDeadline, states.JobPreempted, states.JobNodeFail:
		if endedWithJob {
			return states.JobCancelled
		}
	case states.JobOOM:
		if endedWithJob {
			return states.JobOOM
		}
	}
	if status != 0 {
		return states.JobFailed
	}
	return states.JobComplete
}

// memString is a MiB amount as Slurm prints ReqMem ("500M", "4G", "2T").
func memString(mib uint64) string {
	switch {
	case mib >= 1<<20 && mib%(1<<20) == 0:
		return strconv.FormatUint(mib>>20, 10) + "T"
	case mib >= 1<<10 && mib%(1<<10) == 0:
		return strconv.FormatUint(mib>>10, 10) + "G"
	}
	return strconv.FormatUint(mib, 10) + "M"
}

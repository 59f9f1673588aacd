package ctld

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// sacct's query (MsgAcctQuery) against the embedded accounting: the jobs still in memory
// (pending, running, and finished ones younger than MinJobAge) and the purged ones from the
// store's accounting table, each with its steps, filtered here as slurmdbd filters a job
// condition. The store is asked only for what the condition can select: purged jobs that
// ended inside the window (and from the lowest -j id on), then the step rows of the jobs
// chosen, by key; purged jobs of other users than -u's are left in the store too (its uid
// column). The rest of the condition (names, states...) is applied to the decoded records,
// because the store keeps them as opaque values.

// registerAcct installs the accounting endpoint.
func (c *Controller) registerAcct() {
	c.srv.HandleRPC(wire.MsgAcctQuery, c.handleAcctQuery)
}

// handleAcctQuery serves MsgAcctQuery. Any authenticated user may read accounting (Slurm's
// default without PrivateData); the user filter is sacct's choice. Scripts and environments
// (-B, --env-vars) are only ever returned for the caller's own jobs unless the caller is
// privileged, as slurmdbd restricts them.
func (c *Controller) handleAcctQuery(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.AcctQueryRequest)

	var jobs []*jobRecord
	live := map[uint32]bool{}
	c.mu.RLock()
	for jid, j := range c.t.jobs {
		jobs = append(jobs, j) // installed records are immutable
		live[jid] = true
	}
	c.mu.RUnlock()

	purged, err := c.acctPurgedJobs(r)
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "accounting: %v", err)
	}
	for _, j := range purged {
		// Without -D a job id shows its latest record only: the live one, else the last
		// row appended (acctPurgedJobs keeps that one).
		if r.Duplicates || !live[j.JobID] {
			jobs = append(jobs, j)
		}
	}

	var nodeSet map[string]bool
	if len(r.Nodes) > 0 {
		nodeSet = map[string]bool{}
		for _, n := range r.Nodes {
			nodeSet[n] = true
		}
	}
	own := r.Script || r.Env
	if own && c.privileged(id) {
		own = false
	}
	type chosen struct {
		j     *jobRecord
		steps []uint32
	}
	var picked []chosen
	for _, j := range jobs {
		if own && j.UserID != id.UID {
			continue
		}
		if sel, ok := acctSelectJob(r, j, nodeSet); ok {
			picked = append(picked, chosen{j, sel})
		}
	}
	var steps map[uint32][]acctStepRow
	if !r.NoSteps && !r.Script && !r.Env {
		ids := make([]uint32, 0, len(picked))
		for _, p := range picked {
			ids = append(ids, p.j.JobID)
		}
		if steps, err = c.acctSteps(ids); err != nil {
			return nil, wire.Errorf(wire.ErrnoSlurmError, "accounting: %v", err)
		}
	}
	sf, _ := c.config().Get("AccountingStoreFlags")
	flags := storeFlags(sf)
	rep := &wire.AcctQueryReply{}
	for _, p := range picked {
		j := p.j
		rows := steps[j.JobID]
		if r.Duplicates {
			rows = acctStepsOfRun(j, rows)
		}
		aj := c.acctJob(j, rows)
		if (r.Script && flags["job_script"] || r.Env && flags["job_env"]) && aj.Batch {
			// A live job's script is in the store (job_record_script.go); a purged job's
			// accounting row carries what the flags kept.
			sc, err := c.jobScript(j)
			if err != nil { // purged meanwhile, without the flags keeping it
				c.log.Debug("accounting: no script", "job", j.JobID, "err", err)
				sc = &scriptRecord{}
			}
			if r.Script && flags["job_script"] {
				aj.Script = sc.Script
			}
			if r.Env && flags["job_env"] && len(sc.Environment) > 0 {
				aj.Env = strings.Join(sc.Environment, "\n") + "\n"
			}
		}
		if p.steps != nil {
			aj.StepsOnly = true
			var keep []wire.AcctStep
			for _, s := range aj.Steps {
				if slices.Contains(p.steps, s.StepID) {
					keep = append(keep, s)
				}
			}
			aj.Steps = keep
			if len(keep) == 0 {
				continue
			}
		}
		if r.NoSteps || r.Script || r.Env {
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

// acctPurgedJobs reads the purged job records r can select. A purged job has ended and
// its row's time is its end, so every window (with or without states) needs that time at
// or after r.Start; with only final states asked, also at or before r.End. Array tasks get
// job ids above their array's, so a -j list selects nothing below its lowest id. Without
// r.Duplicates only the last row of each job id is kept (a reused id's latest record).
func (c *Controller) acctPurgedJobs(r *wire.AcctQueryRequest) ([]*jobRecord, error) {
	q := store.AccountingQuery{Kind: kindJob, Since: max(r.Start, 0)}
	if len(r.States) > 0 && r.End > 0 && !slices.ContainsFunc(r.States, func(s uint32) bool {
		return states.JobState(s) == states.JobPending || states.JobState(s) == states.JobRunning
	}) {
		q.Until = r.End + 1
	}
	if len(r.Jobs) > 0 {
		lo := uint32(math.MaxUint32)
		for _, s := range r.Jobs {
			lo = min(lo, s.JobID)
		}
		q.KeyFrom = jobKey(lo)
	}
	if len(r.Users) > 0 {
		q.UIDs = r.Users // sacct -u: the store selects the users' rows (acctSelectJob checks again)
	}
	var out []*jobRecord
	last := map[uint32]int{}
	err := c.store.AccountingSelect(q, func(rec store.AccountingRecord) error {
		j, err := decodeJob(rec.Value)
		if err != nil {
			return nil // a damaged row hides one job, not the others
		}
		if i, ok := last[j.JobID]; ok && !r.Duplicates {
			out[i] = j // rows come in time order: a later row replaces it
			return nil
		}
		last[j.JobID] = len(out)
		out = append(out, j)
		return nil
	})
	return out, err
}

// acctSteps reads the step rows of the given jobs by key and merges each step's start and
// end rows.
func (c *Controller) acctSteps(ids []uint32) (map[uint32][]acctStepRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	prefixes := make([]string, len(ids))
	for i, id := range ids {
		prefixes[i] = jobKey(id) + "."
	}
	starts := map[string]acctStepRow{}
	ends := map[string]acctStepRow{}
	for _, kind := range []string{kindStepStart, kindStepEnd} {
		err := c.store.AccountingSelect(store.AccountingQuery{Kind: kind, KeyPrefixes: prefixes}, func(rec store.AccountingRecord) error {
			var row acctStepRow
			if err := wire.Unmarshal(rec.Value, &row); err != nil {
				return nil
			}
			if kind == kindStepStart {
				starts[rec.Key] = row
			} else {
				ends[rec.Key] = row
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	steps := map[uint32][]acctStepRow{}
	for key, s := range starts {
		if e, ok := ends[key]; ok {
			s.End, s.ExitCode = e.End, e.ExitCode
		}
		steps[s.JobID] = append(steps[s.JobID], s)
	}
	return steps, nil
}

// acctStepsOfRun keeps the steps that started during j's run: with -D two records may share
// a job id, and each shows its own steps.
func acctStepsOfRun(j *jobRecord, rows []acctStepRow) []acctStepRow {
	var out []acctStepRow
	for _, r := range rows {
		if j.StartTime != 0 && r.Start >= j.StartTime && (j.EndTime == 0 || r.Start <= j.EndTime) {
			out = append(out, r)
		}
	}
	return out
}

// storeFlags parses AccountingStoreFlags (job_comment, job_env, job_script), which Slurm
// matches case-insensitively.
func storeFlags(v string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Split(v, ",") {
		if f = strings.ToLower(strings.TrimSpace(f)); f != "" {
			m[f] = true
		}
	}
	return m
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
	if len(r.Names) > 0 && !slices.Contains(r.Names, j.descStr(descName)) {
		return nil, false
	}
	if len(r.Partitions) > 0 && !slices.Contains(r.Partitions, j.Partition) {
		return nil, false
	}
	if nodeSet != nil && !slices.ContainsFunc(j.Nodes, func(n string) bool { return nodeSet[n] }) {
		return nil, false
	}
	if len(r.Accounts) > 0 && !slices.Contains(r.Accounts, j.descStr(descAccount)) {
		return nil, false
	}
	if len(r.Groups) > 0 && !slices.Contains(r.Groups, j.GroupID) {
		return nil, false
	}
	if len(r.QOS) > 0 && !slices.ContainsFunc(r.QOS, func(q string) bool { return strings.EqualFold(q, jobQOS(j)) }) {
		return nil, false
	}
	if len(r.WCKeys) > 0 && !slices.Contains(r.WCKeys, j.descStr(descWCKey)) {
		return nil, false
	}
	if !inRange(j.TimeLimit, r.TimeMin, r.TimeMax) {
		return nil, false
	}
	var nodes, cpus uint32
	if len(j.Nodes) > 0 && !j.state().IsPending() {
		nodes, cpus = uint32(len(j.Nodes)), j.numCPUs()
	}
	if !inRange(nodes, r.NodesMin, r.NodesMax) || !inRange(cpus, r.CPUsMin, r.CPUsMax) {
		return nil, false
	}
	if !acctInWindow(r, j) {
		return nil, false
	}
	return steps, true
}

// inRange is slurmdbd's "-i/-I/-k" test: no filter when lo is 0, v == lo without a top,
// else lo ≤ v ≤ hi (nothing when hi < lo, as SQL's BETWEEN).
func inRange(v, lo, hi uint32) bool {
	switch {
	case lo == 0:
		return true
	case hi == 0:
		return v == lo
	}
	return v >= lo && v <= hi
}

// jobQOS is the QOS accounting shows: the one the job named, else "normal" (the only QOS
// that exists before associations, as in a fresh Slurm database).
func jobQOS(j *jobRecord) string {
	if q := j.descStr(descQOS); q != "" {
		return q
	}
	return "normal"
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

// acctInWindow is slurmdbd's time condition over [Start, End) (as_mysql_jobacct_process.c).
// Without states: with -j, a job submitted before End that had not ended before Start;
// otherwise the same with its eligible time in place of its submit time. With states, a
// job that was in one of them during the window: pending (eligible before End, and started,
// ended or still pending after Start), running (started before End and ended after Start,
// or still running), or a final state it ended in, inside the window.
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
		t := j.EligibleTime
		if len(r.Jobs) > 0 || t == 0 {
			t = j.SubmitTime
		}
		if r.End != 0 && t >= r.End {
			return false
		}
		return end == 0 || end >= r.Start
	}
	for _, want := range r.States {
		w := states.JobState(want)
		if r.Start == 0 && r.End == 0 {
			if st.Base() == w {
				return true
			}
			continue
		}
		switch w {
		case states.JobPending:
			elig := j.EligibleTime
			if elig == 0 {
				elig = j.SubmitTime
			}
			if elig < r.End && ((start != 0 && r.Start < start) || (start == 0 && end != 0 && r.Start < end) ||
				(start == 0 && end == 0 && st.IsPending())) {
				return true
			}
		case states.JobRunning:
			if start != 0 && start < r.End && (r.Start < end || (end == 0 && st.IsRunning())) {
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
		Name: j.descStr(descName), UserID: j.UserID, UserName: c.names.user(j.UserID), GroupID: j.GroupID,
		Account: j.descStr(descAccount), Partition: j.Partition, State: uint32(st.Base()), Reason: j.Reason,
		ExitCode: j.ExitCode, Submit: j.SubmitTime, Eligible: j.EligibleTime, Start: j.StartTime,
		End: j.EndTime, TimeLimit: j.TimeLimit, Priority: j.Priority, NNodes: j.MinNodes,
		ReqNodes: j.MinNodes, WorkDir: j.descStr(descWorkDir), Cluster: c.config().ClusterName,
		NodeList: "None assigned", QOS: jobQOS(j), WCKey: j.descStr(descWCKey), Constraints: j.descStr(descConstraint),
		Reservation: j.descStr(descReservation),
		Batch:       !j.isInteractive(),
	}
	switch st.Base() {
	case states.JobCancelled, states.JobTimeout, states.JobDeadline, states.JobPreempted, states.JobNodeFail:
		// The controller ended the job before its script returned, and slurmdbd records the
		// job's end (exit code 0) at that moment; the script's status goes to the batch
		// step only (sacct: "TIMEOUT 0:0", ".batch CANCELLED 0:15").
		aj.ExitCode = 0
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
	if mem := j.shownMemPerNode(); mem > 0 {
		aj.ReqMem = memString(mem)
		aj.ReqMemMiB = mem
	} else if j.MemPerCPU > 0 {
		aj.ReqMem = memString(j.MemPerCPU * uint64(aj.ReqCPUs))
		aj.ReqMemMiB, aj.ReqMemPerCPU = j.MemPerCPU, true
	}
	aj.GresReqTRES = c.jobGresTRES(j, false) // gres.go
	if len(j.Nodes) > 0 && !st.IsPending() {
		aj.NodeList = hostlist.Compress(j.Nodes)
		aj.NNodes = uint32(len(j.Nodes))
		aj.AllocCPUs = j.numCPUs()
		aj.GresAllocTRES = c.jobGresTRES(j, true)
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

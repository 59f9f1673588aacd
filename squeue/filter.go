package main

import (
	"os"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

func currentUID() int { return os.Getuid() }

// request is the job-info request for p: the jobs come packed, and the controller applies
// the selections it can (-j, -t, -u, -p, -n, -w) so a large queue is not shipped whole.
// selects still decides what is shown.
func (p *params) request() *wire.JobInfoRequest {
	// Named jobs are shown whatever their partition, as Slurm's squeue adds SHOW_ALL for -j.
	req := &wire.JobInfoRequest{ShowAll: p.all || len(p.jobs) > 0, Steps: p.steps}
	if p.steps {
		return req // steps are selected by their own rules (selectsStep)
	}
	req.Packed, req.PackedRefs = true, true
	// Slurm asks for a single job alone, and reports one that does not exist.
	for _, s := range p.jobs {
		if !slices.Contains(req.JobIDs, s.id) {
			req.JobIDs = append(req.JobIDs, s.id)
		}
	}
	if len(p.jobs) == 1 {
		// The job alone, whatever the other filters say: a job that exists but is not
		// selected prints an empty table, one that does not is an error.
		return req
	}
	if p.verbose > 0 {
		// -v prints how many records the controller sent, so ask for what Slurm's squeue
		// asks for: every job, or a single user's (but root's: uid 0 reads as none).
		req.JobIDs = nil
		if p.userSet && len(p.users) == 1 && p.users[0] != 0 {
			req.UserIDs = p.users
		}
		return req
	}
	switch {
	case p.allState:
	case len(p.states) > 0:
		for _, s := range p.states {
			req.States = append(req.States, uint32(s))
		}
	default:
		req.ActiveOnly = true
	}
	if p.userSet && len(p.users) > 0 {
		req.UserIDs = p.users
	}
	req.Partitions = p.parts
	req.Names = p.names
	if len(p.nodes) > 0 {
		for n := range p.nodes {
			req.NodeNames = append(req.NodeNames, n)
		}
		slices.Sort(req.NodeNames)
	}
	return req
}

// selects reports whether squeue shows job j, in the order of Slurm's _filter_job. Without
// -t, only jobs that are pending, running, suspended or completing are shown (finished ones
// need -t, even with -j).
func (p *params) selects(j *wire.JobInfo) bool {
	if len(p.jobs) > 0 && !slices.ContainsFunc(p.jobs, func(s jobSel) bool { return s.matches(j) }) {
		return false
	}
	if p.licenses != nil && !licensesMatch(j.Licenses, p.licenses) {
		return false
	}
	if p.accounts != nil && !containsFold(p.accounts, j.Account) {
		return false
	}
	if p.qos != nil && !containsFold(p.qos, j.QOS) {
		return false
	}
	st := states.JobState(j.State)
	switch {
	case p.allState:
	case len(p.states) > 0:
		if !slices.ContainsFunc(p.states, func(w states.JobState) bool { return states.MatchesJobState(st, w) }) {
			return false
		}
	default:
		if st.IsFinished() && !st.IsCompleting() {
			return false
		}
	}
	if p.nodes != nil && !p.nodesIntersect(j.NodeList) {
		return false
	}
	if len(p.parts) > 0 && !slices.ContainsFunc(strings.Split(j.Partition, ","), func(n string) bool { return slices.Contains(p.parts, n) }) {
		return false // any partition of a job that names several (Slurm's _filter_job_part)
	}
	if p.resv != "" && j.Reservation != p.resv {
		return false
	}
	if p.userSet && !slices.Contains(p.users, j.UserID) {
		return false
	}
	if len(p.names) > 0 && !slices.Contains(p.names, j.Name) {
		return false
	}
	return true
}

// selectsStep is Slurm's _filter_step: -j, -p, the -s list, -w and -u apply to steps
// (names, states and accounts do not).
func (p *params) selectsStep(s *wire.StepInfo) bool {
	job := &wire.JobInfo{JobID: s.JobID, ArrayJobID: s.ArrayJobID, ArrayTaskID: s.ArrayTaskID}
	if len(p.jobs) > 0 && !slices.ContainsFunc(p.jobs, func(js jobSel) bool { return js.matches(job) }) {
		return false
	}
	if len(p.parts) > 0 && !slices.Contains(p.parts, s.Partition) {
		return false
	}
	if len(p.stepSel) > 0 && !slices.ContainsFunc(p.stepSel, func(ss stepSel) bool {
		return ss.step == s.StepID && ss.job.matches(job)
	}) {
		return false
	}
	if p.nodes != nil && !p.nodesIntersect(s.NodeList) {
		return false
	}
	if p.userSet && !slices.Contains(p.users, s.UserID) {
		return false
	}
	return true
}

func (p *params) nodesIntersect(list string) bool {
	if list == "" {
		return false
	}
	names, err := hostlist.Expand(list)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(names, func(n string) bool { return p.nodes[n] })
}

// licensesMatch compares license names only ("lic:2" is "lic").
func licensesMatch(jobLicenses string, want []string) bool {
	for _, tok := range splitList(jobLicenses) {
		name, _, _ := strings.Cut(tok, ":")
		if slices.Contains(want, name) {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	if s == "" {
		return false
	}
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// matches reports whether a -j entry names j: a job id names the job and every task of an
// array with that id; "id_task" names one task, or the pending record that still holds it.
func (s jobSel) matches(j *wire.JobInfo) bool {
	if s.task == format.NoVal {
		return j.JobID == s.id || (j.ArrayJobID == s.id && j.ArrayJobID != 0)
	}
	if j.ArrayJobID != s.id {
		return false
	}
	if j.ArrayTaskID == s.task {
		return true
	}
	return j.ArrayTaskStr != "" && slices.Contains(expandTasks(j.ArrayTaskStr), s.task)
}

// expandTasks lists the task ids of an array's pending-task string ("1-5%2", "1,3,7-9:2").
func expandTasks(s string) []uint32 {
	s, _, _ = strings.Cut(s, "%")
	var out []uint32
	for _, item := range splitList(s) {
		rng, stepStr, hasStep := strings.Cut(item, ":")
		step := int64(1)
		if hasStep {
			if n, _, ok := strtol(stepStr); ok && n > 0 {
				step = n
			}
		}
		loStr, hiStr, isRange := strings.Cut(rng, "-")
		lo, _, ok := strtol(loStr)
		if !ok || lo < 0 {
			continue
		}
		hi := lo
		if isRange {
			if h, _, ok := strtol(hiStr); ok && h >= lo {
				hi = h
			}
		}
		for t := lo; t <= hi && len(out) < 1<<20; t += step {
			out = append(out, uint32(t))
		}
	}
	return out
}

// pickTasks passes j to emit, except that "-j J_T" of a pending array record shows that task
// alone, as Slurm does when a task selector matches the record's task bitmap.
func (p *params) pickTasks(j *wire.JobInfo, emit func(*wire.JobInfo)) {
	if j.ArrayTaskStr == "" || !slices.ContainsFunc(p.jobs, func(s jobSel) bool { return s.task != format.NoVal }) ||
		slices.ContainsFunc(p.jobs, func(s jobSel) bool { return s.task == format.NoVal && s.matches(j) }) {
		emit(j)
		return
	}
	tasks := expandTasks(j.ArrayTaskStr)
	picked := false
	for _, s := range p.jobs {
		if s.task != format.NoVal && s.id == j.ArrayJobID && slices.Contains(tasks, s.task) {
			c := *j
			c.ArrayTaskStr, c.ArrayTaskID = "", s.task
			emit(&c)
			picked = true
		}
	}
	if !picked {
		emit(j)
	}
}

package main

import (
	"os"
	"slices"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

func currentUID() int { return os.Getuid() }

// selects reports whether squeue shows job j. Without -t, only jobs that are pending,
// running, suspended or completing are shown (finished ones need -t, even with -j).
func (p *params) selects(j *wire.JobInfo) bool {
	if len(p.jobs) > 0 && !slices.ContainsFunc(p.jobs, func(s jobSel) bool { return s.matches(j) }) {
		return false
	}
	if p.userSet && !slices.Contains(p.users, j.UserID) {
		return false
	}
	if len(p.parts) > 0 && !slices.Contains(p.parts, j.Partition) {
		return false
	}
	if len(p.names) > 0 && !slices.Contains(p.names, j.Name) {
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
	return true
}

// matches reports whether a -j entry names j: a job id names the job and every task of an
// array with that id; "id_task" names one task.
func (s jobSel) matches(j *wire.JobInfo) bool {
	if s.task == format.NoVal {
		return j.JobID == s.id || (j.ArrayJobID == s.id && j.ArrayJobID != 0)
	}
	return j.ArrayJobID == s.id && j.ArrayTaskID == s.task
}

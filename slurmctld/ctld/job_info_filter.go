package ctld

import (
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// jobFilter is a job-info request's selection (squeue's -j, -t, -u, -p, -n, -w), applied to
// records before anything is built for them. It may keep more than squeue shows (squeue
// selects again) but never less.
type jobFilter struct {
	ids        map[uint32]bool // nil: every job
	activeOnly bool
	states     []states.JobState
	users      []uint32
	parts      []string
	names      []string
	nodes      map[string]bool
	// hideHidden leaves out the jobs of Hidden partitions (Slurm's _hide_job without
	// SHOW_ALL, for a user who is not an operator); hidden names them (noteHidden).
	hideHidden bool
	hidden     map[string]bool
}

// noteHidden records the hidden partitions when f leaves their jobs out. Called with c.mu
// held, before keep.
func (f *jobFilter) noteHidden(t *tables) {
	if !f.hideHidden {
		return
	}
	for name, p := range t.parts {
		if p.conf.Hidden {
			if f.hidden == nil {
				f.hidden = map[string]bool{}
			}
			f.hidden[name] = true
		}
	}
}

func newJobFilter(r *wire.JobInfoRequest) *jobFilter {
	f := &jobFilter{activeOnly: r.ActiveOnly, users: r.UserIDs, parts: r.Partitions, names: r.Names}
	if len(r.JobIDs) > 0 {
		f.ids = make(map[uint32]bool, len(r.JobIDs))
		for _, id := range r.JobIDs {
			f.ids[id] = true
		}
	}
	for _, s := range r.States {
		f.states = append(f.states, states.JobState(s))
	}
	if len(r.NodeNames) > 0 {
		f.nodes = make(map[string]bool, len(r.NodeNames))
		for _, n := range r.NodeNames {
			f.nodes[n] = true
		}
	}
	return f
}

// keep reports whether j passes every filter, in the order of squeue's own selection.
func (f *jobFilter) keep(j *jobRecord) bool {
	if f.hidden != nil && f.hidden[j.Partition] {
		return false
	}
	if f.ids != nil && !f.ids[j.JobID] && !(j.ArrayJobID != 0 && f.ids[j.ArrayJobID]) {
		return false // an array id names its tasks
	}
	st := j.state()
	if len(f.states) > 0 {
		if !slices.ContainsFunc(f.states, func(w states.JobState) bool { return states.MatchesJobState(st, w) }) {
			return false
		}
	} else if f.activeOnly && st.IsFinished() && !st.IsCompleting() {
		return false
	}
	if f.nodes != nil && !slices.ContainsFunc(j.Nodes, func(n string) bool { return f.nodes[n] }) {
		return false
	}
	if len(f.parts) > 0 && !slices.Contains(f.parts, j.Partition) && !anyListed(f.parts, j.descStr(descPartition)) {
		return false // squeue -p names any partition of a job that names several
	}
	if len(f.users) > 0 && !slices.Contains(f.users, j.UserID) {
		return false
	}
	if len(f.names) > 0 && !slices.Contains(f.names, j.descStr(descName)) {
		return false
	}
	return true
}

// anyListed says whether any name of the comma list is in names.
func anyListed(names []string, list string) bool {
	for _, n := range strings.Split(list, ",") {
		if slices.Contains(names, n) {
			return true
		}
	}
	return false
}

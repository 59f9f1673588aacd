package states

import (
	"strings"
)

// ParseJobState resolves one state name as `squeue -t` does (job_state_num): long or compact
// name, case-insensitive, base states first, then the flag states. ok is false when the
// name is unknown.
func ParseJobState(name string) (JobState, bool) {
	for _, n := range jobBaseNames {
		if strings.EqualFold(name, n.long) || strings.EqualFold(name, n.compact) {
			return n.state, true
		}
	}
	for _, f := range jobFlagParse {
		if strings.EqualFold(name, f.String()) || strings.EqualFold(name, f.Compact()) {
			return f, true
		}
	}
	return 0, false
}

// JobStateListError is the error for a bad name in a `squeue -t` list. Its Lines are what
// squeue prints (each after "squeue: error: "), and squeue then exits 1.
type JobStateListError struct {
	Name string
}

// Lines returns the two messages squeue prints for the bad name; the second one ends in an
// extra newline in Slurm, so a blank line follows it.
func (e *JobStateListError) Lines() []string {
	return []string{
		"Invalid job state specified: " + e.Name,
		"Valid job states include: " + ValidJobStateNames() + "\n",
	}
}

func (e *JobStateListError) Error() string {
	return "Invalid job state specified: " + e.Name
}

// ValidJobStateNames is the comma-separated list squeue prints after a bad state name.
func ValidJobStateNames() string {
	names := make([]string, 0, int(jobEnd)+len(jobFlagParse))
	for _, n := range jobBaseNames {
		names = append(names, n.long)
	}
	for _, f := range jobFlagParse {
		names = append(names, f.String())
	}
	return strings.Join(names, ",")
}

// ParseJobStateList parses the argument of `squeue -t`/SQUEUE_STATES: "all" (any case)
// returns all=true; otherwise a comma-separated list of names (empty items skipped, as
// strtok does).
func ParseJobStateList(list string) (states []JobState, all bool, err error) {
	if strings.EqualFold(list, "all") {
		return nil, true, nil
	}
	for _, item := range strings.Split(list, ",") {
		if item == "" {
			continue
		}
		s, ok := ParseJobState(item)
		if !ok {
			return nil, false, &JobStateListError{Name: item}
		}
		states = append(states, s)
	}
	return states, false, nil
}

// MatchesJobState reports whether a job in state s is selected by a `squeue -t` entry want:
// a flag entry matches when the flag is set; a base entry only when the whole state (ignoring
// UPDATE_DB) equals it, so a RUNNING job that is also CONFIGURING is not selected by "R".
func MatchesJobState(s, want JobState) bool {
	if want&JobStateFlags != 0 {
		return s&want != 0
	}
	return s&^JobUpdateDB == want
}

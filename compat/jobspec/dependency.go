package jobspec

import (
	"strconv"
	"strings"
)

// Dependency is one condition of --dependency.
type Dependency struct {
	Type    string // after, afterany, afterok, afternotok, aftercorr, afterburstbuffer, singleton, expand
	JobID   string // "123" or "123_4" (array task); empty for singleton
	Minutes int    // after:<id>+<minutes>
}

// DependencyList is a parsed --dependency: all conditions must hold, or any when the list
// was separated by '?'.
type DependencyList struct {
	Any   bool
	Items []Dependency
}

// ErrDependency is the controller's reply to a malformed --dependency.
const ErrDependency = "Job dependency problem"

var dependencyTypes = map[string]bool{
	"after": true, "afterany": true, "afterok": true, "afternotok": true,
	"aftercorr": true, "afterburstbuffer": true, "expand": true,
}

// ParseDependency parses a --dependency value. A bare job id means afterany, as in Slurm.
func ParseDependency(s string) (*DependencyList, error) {
	bad := &Error{Msg: ErrDependency, Controller: true}
	list := &DependencyList{}
	sep := ","
	if strings.Contains(s, "?") {
		if strings.Contains(s, ",") {
			return nil, bad // one separator kind per list
		}
		sep, list.Any = "?", true
	}
	if s == "" {
		return nil, bad
	}
	for _, term := range strings.Split(s, sep) {
		if term == "singleton" {
			list.Items = append(list.Items, Dependency{Type: "singleton"})
			continue
		}
		typ, ids, hasIDs := strings.Cut(term, ":")
		if !hasIDs {
			// A bare job id: afterany.
			if !validDepJobID(term) {
				return nil, bad
			}
			list.Items = append(list.Items, Dependency{Type: "afterany", JobID: term})
			continue
		}
		if !dependencyTypes[typ] || ids == "" {
			return nil, bad
		}
		for _, id := range strings.Split(ids, ":") {
			d := Dependency{Type: typ, JobID: id}
			if j, m, ok := strings.Cut(id, "+"); ok {
				n, err := strconv.Atoi(m)
				if err != nil || n < 0 || typ != "after" {
					return nil, bad
				}
				d.JobID, d.Minutes = j, n
			}
			if !validDepJobID(d.JobID) {
				return nil, bad
			}
			list.Items = append(list.Items, d)
		}
	}
	return list, nil
}

// validDepJobID accepts "N" and "N_M" (an array task) and "N_*".
func validDepJobID(id string) bool {
	job, task, isTask := strings.Cut(id, "_")
	if n, err := strconv.ParseUint(job, 10, 32); err != nil || n == 0 {
		return false
	}
	if !isTask || task == "*" {
		return true
	}
	_, err := strconv.ParseUint(task, 10, 32)
	return err == nil
}

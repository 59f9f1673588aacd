package rlimits

import (
	"errors"
	"strings"
)

// Limit is one rlimit Slurm propagates: its name in SLURM_RLIMIT_<Name> and --propagate, and
// its Linux resource number (getrlimit(2)).
type Limit struct {
	Name     string
	Resource int
}

// Limits is Slurm's rlimits_info table, in its order (the order of the variables a command
// exports and of the limits a node applies).
var Limits = []Limit{
	{"CPU", 0}, {"FSIZE", 1}, {"DATA", 2}, {"STACK", 3}, {"CORE", 4},
	{"RSS", 5}, {"NPROC", 6}, {"NOFILE", 7}, {"MEMLOCK", 8}, {"AS", 9},
}

// Set is the rlimits that are propagated: bit i stands for Limits[i].
type Set uint16

// All is every rlimit (the ten of Limits).
const All Set = 1<<10 - 1

// Has reports whether the limit at index i of Limits is in s.
func (s Set) Has(i int) bool { return s&(1<<i) != 0 }

// Names lists s's rlimit names in Limits order.
func (s Set) Names() []string {
	var out []string
	for i, l := range Limits {
		if s.Has(i) {
			out = append(out, l.Name)
		}
	}
	return out
}

// index is the position of name in Limits, or -1.
func index(name string) int {
	for i, l := range Limits {
		if l.Name == name {
			return i
		}
	}
	return -1
}

// ErrBadName is the class of Parse's error; its text is Slurm's "Bad rlimit name: X".
var ErrBadName = errors.New("bad rlimit name")

type badName string

func (b badName) Error() string        { return "Bad rlimit name: " + string(b) }
func (b badName) Is(target error) bool { return target == ErrBadName }

// Parse reads a list of rlimit names as Slurm's parse_rlimits does and returns the set that
// is propagated. With propagate true (PropagateResourceLimits, --propagate) the named limits
// are propagated and every other one is not; with propagate false
// (PropagateResourceLimitsExcept) it is the other way round. "ALL" names every limit and
// "NONE" none, but only as the whole string (case matters: "all" is a bad name). Names are
// separated by commas, spaces, tabs or newlines and may carry an "RLIMIT_" prefix. As in
// Slurm, the prefix is stripped again at every table entry a name is compared with, so the
// error names what is left ("RLIMIT_FOO" is reported as "FOO").
func Parse(s string, propagate bool) (Set, error) {
	flag := func(on bool) Set {
		if on {
			return All
		}
		return 0
	}
	switch s {
	case "NONE":
		return flag(!propagate), nil
	case "ALL":
		return flag(propagate), nil
	}
	named := Set(0)
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		found := false
		for i, l := range Limits {
			tok = strings.TrimPrefix(tok, "RLIMIT_")
			if tok == l.Name {
				named |= 1 << i
				found = true
				break
			}
		}
		if !found {
			return 0, badName(tok)
		}
	}
	if propagate {
		return named, nil
	}
	return All &^ named, nil
}

// FromConf is the set slurm.conf propagates: PropagateResourceLimitsExcept when the key is
// given (exceptSet), else PropagateResourceLimits ("ALL" when empty, its default). The error
// is Slurm's read_config one, "Bad PropagateResourceLimits[Except]: VALUE", wrapping Parse's.
func FromConf(propagate, except string, exceptSet bool) (Set, error) {
	if exceptSet {
		s, err := Parse(except, false)
		if err != nil {
			return 0, &ConfError{Key: "PropagateResourceLimitsExcept", Value: except, Err: err}
		}
		return s, nil
	}
	if propagate == "" {
		propagate = "ALL"
	}
	s, err := Parse(propagate, true)
	if err != nil {
		return 0, &ConfError{Key: "PropagateResourceLimits", Value: propagate, Err: err}
	}
	return s, nil
}

// ConfError is a bad PropagateResourceLimits[Except] value. Slurm logs two lines for it,
// Err's ("Bad rlimit name: X") and then "Bad <Key>: <Value>".
type ConfError struct {
	Key, Value string
	Err        error
}

func (e *ConfError) Error() string { return "Bad " + e.Key + ": " + e.Value }
func (e *ConfError) Unwrap() error { return e.Err }

// SetOf is the set of the named limits (as Set.Names lists them); other names are ignored.
func SetOf(names []string) Set {
	var s Set
	for _, n := range names {
		if i := index(n); i >= 0 {
			s |= 1 << i
		}
	}
	return s
}

package selection

import (
	"fmt"
	"slices"
	"strings"
)

// Constraint is a parsed --constraint: a node qualifies when it has every feature of at
// least one of Any's terms. When Match is set (a bracketed [a|b] list), all nodes of a job
// must share the same alternative: Select tries Match[0], then Match[1], ...
type Constraint struct {
	Any   [][]string // OR of ANDs; nil = no constraint from this part
	Match []string   // matching-OR alternatives, nil if none
}

// ParseConstraint parses Slurm's --constraint syntax as far as Orbit supports it (see the
// package doc). An empty string is no constraint.
func ParseConstraint(s string) (Constraint, error) {
	var c Constraint
	s = strings.TrimSpace(s)
	if s == "" {
		return c, nil
	}
	if i := strings.IndexByte(s, '['); i >= 0 {
		j := strings.IndexByte(s, ']')
		if j < i || strings.Count(s, "[") != 1 || strings.Count(s, "]") != 1 {
			return c, fmt.Errorf("invalid feature specification %q: unbalanced brackets", s)
		}
		inner := s[i+1 : j]
		for _, f := range strings.Split(inner, "|") {
			if err := checkFeature(f, s); err != nil {
				return c, err
			}
			c.Match = append(c.Match, f)
		}
		rest := strings.TrimSpace(s[:i] + s[j+1:])
		rest = strings.Trim(rest, "&")
		if strings.HasPrefix(rest, "|") || strings.HasSuffix(rest, "|") {
			return c, fmt.Errorf("invalid feature specification %q: a matching OR list can only be joined with &", s)
		}
		s = rest
		if s == "" {
			return c, nil
		}
	} else if strings.ContainsAny(s, "]") {
		return c, fmt.Errorf("invalid feature specification %q: unbalanced brackets", s)
	}
	if strings.ContainsAny(s, "()*") {
		return c, fmt.Errorf("invalid feature specification %q: parentheses and counts are not supported", s)
	}
	for _, alt := range strings.Split(s, "|") {
		var and []string
		for _, f := range strings.FieldsFunc(alt, func(r rune) bool { return r == '&' || r == ',' }) {
			if err := checkFeature(f, s); err != nil {
				return c, err
			}
			and = append(and, f)
		}
		if len(and) == 0 {
			return c, fmt.Errorf("invalid feature specification %q: empty term", s)
		}
		c.Any = append(c.Any, and)
	}
	return c, nil
}

func checkFeature(f, whole string) error {
	if f == "" || strings.ContainsAny(f, " \t[]|&,()*") {
		return fmt.Errorf("invalid feature specification %q: bad feature name %q", whole, f)
	}
	return nil
}

// MatchesSome says whether a node with these features satisfies c with some alternative of
// its matching OR (or without one): whether it can be part of some job's selection.
func (c Constraint) MatchesSome(features []string) bool {
	if c.Match == nil {
		return c.matches(features, "")
	}
	for _, alt := range c.Match {
		if c.matches(features, alt) {
			return true
		}
	}
	return false
}

// matches says whether a node with these features satisfies c, with alt the matching-OR
// alternative chosen ("" when c has none).
func (c Constraint) matches(features []string, alt string) bool {
	if alt != "" && !slices.Contains(features, alt) {
		return false
	}
	if c.Any == nil {
		return true
	}
	for _, and := range c.Any {
		ok := true
		for _, f := range and {
			if !slices.Contains(features, f) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

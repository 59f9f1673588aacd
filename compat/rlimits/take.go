package rlimits

import (
	"fmt"
	"strconv"
	"strings"
)

// Request is one limit a node sets for a step's tasks, read from SLURM_RLIMIT_<NAME>.
type Request struct {
	Name     string // "NOFILE"
	Resource int
	Value    uint64 // the soft limit asked for; RLIM_INFINITY for unlimited
	User     bool   // the user asked with --propagate ("U" prefix)
}

// Unlimited reports whether the request is RLIM_INFINITY.
func (r Request) Unlimited() bool { return r.Value == rlimInfinity }

// Take reads SLURM_RLIMIT_<NAME> from a step's environment as slurmstepd's set_user_limits
// does and returns the limits to set on the tasks and the environment without those
// variables (users never see them). A variable is taken when its value is a number,
// optionally after "U"; one that is not stays in the environment and is reported as Slurm's
// "Invalid SLURM_RLIMIT_X env var, value = `v'". A taken limit is applied when conf (the
// node's slurm.conf) propagates it or the user asked for it.
func Take(env []string, conf Set) (reqs []Request, rest []string, problems []string) {
	drop := map[int]bool{}
	for i, l := range Limits {
		name := "SLURM_RLIMIT_" + l.Name
		at := -1
		for j, kv := range env {
			if strings.HasPrefix(kv, name) && len(kv) > len(name) && kv[len(name)] == '=' {
				at = j
				break
			}
		}
		if at < 0 {
			continue
		}
		raw := env[at][len(name)+1:]
		v, user := raw, false
		if strings.HasPrefix(v, "U") {
			v, user = v[1:], true
		}
		n, ok := strtoul(v)
		if !ok {
			problems = append(problems, fmt.Sprintf("Invalid %s env var, value = `%s'", name, raw))
			continue
		}
		// Every entry of that name goes (Slurm's unsetenvp removes them all).
		for j, kv := range env {
			if strings.HasPrefix(kv, name+"=") {
				drop[j] = true
			}
		}
		if conf.Has(i) || user {
			reqs = append(reqs, Request{Name: l.Name, Resource: l.Resource, Value: n, User: user})
		}
	}
	if len(drop) == 0 {
		return reqs, env, problems
	}
	rest = make([]string, 0, len(env)-len(drop))
	for j, kv := range env {
		if !drop[j] {
			rest = append(rest, kv)
		}
	}
	return reqs, rest, problems
}

// strtoul accepts what C's strtoul(v, &end, 10) consumes entirely: optional leading white
// space and sign, then decimal digits; "" is 0 (strtoul consumes nothing and stops at the
// end). A minus sign negates modulo 2^64, and an overflow is ULONG_MAX, as in C.
func strtoul(v string) (uint64, bool) {
	s := strings.TrimLeft(v, " \t\n\v\f\r")
	if v == "" {
		return 0, true
	}
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		n = rlimInfinity
	} else if neg {
		n = -n
	}
	return n, true
}

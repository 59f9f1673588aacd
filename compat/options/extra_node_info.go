package options

import (
	"fmt"
	"math"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// parseExtraNodeInfo reads -B/--extra-node-info=S[:C[:T]] as Slurm 22.05's
// verify_socket_core_thread_count does: up to three ':'-separated parts (each read up to 47
// characters), each a minimum count, a min-max range (the maximum is checked, then unused)
// or '*' / nothing for "any", which leaves that request unset (NoVal). A bad part is fatal
// at once with get_resource_arg_range's message and exit code 1.
func parseExtraNodeInfo(cmd Cmds, val string) ([3]uint32, error) {
	var parts [3]string
	cur := val
	for j := 0; j < 3; j++ {
		i := 0
		for i < 47 && i < len(cur) && cur[i] != ':' {
			i++
		}
		parts[j], cur = cur[:i], cur[i:]
		if cur == "" {
			break
		}
		cur = cur[1:]
	}
	var out [3]uint32
	for j, what := range []string{"first arg of -B", "second arg of -B", "third arg of -B"} {
		lo, hi, err := resourceArgRange(cmd, parts[j], what)
		if err != nil {
			return out, err
		}
		if lo == 1 && hi == math.MaxInt32 {
			out[j] = jobspec.NoVal // the whole range: no request
		} else {
			out[j] = uint32(lo)
		}
	}
	return out, nil
}

// resourceArgRange is Slurm's get_resource_arg_range: "" or '*' is 1..INT_MAX; otherwise a
// number (k and m multiply by 1024 and 1048576), optionally followed by '-' and a maximum.
// hi is 0 when no maximum is given.
func resourceArgRange(cmd Cmds, arg, what string) (lo, hi int64, err error) {
	if arg == "" || arg[0] == '*' {
		return 1, math.MaxInt32, nil
	}
	bad := func() error { return cmdError(cmd, 1, fmt.Sprintf("Invalid numeric value \"%s\" for %s.", arg, what)) }
	big := func(n int64) error {
		return cmdError(cmd, 1, fmt.Sprintf("Numeric argument (%d) to big for %s.", n, what))
	}
	n, rest, _ := strtol(arg)
	n, rest = scaleKM(n, rest)
	if rest != "" && rest[0] != '-' || n < 0 {
		return 0, 0, bad()
	}
	if n > math.MaxInt32 {
		return 0, 0, big(n)
	}
	lo = n
	if rest == "" {
		return lo, 0, nil
	}
	n, rest, _ = strtol(rest[1:])
	n, rest = scaleKM(n, rest)
	if rest != "" && rest[0] != '-' || n <= 0 {
		return 0, 0, bad()
	}
	if n > math.MaxInt32 {
		return 0, 0, big(n)
	}
	return lo, n, nil
}

// scaleKM applies a k/K or m/M suffix after a number, as get_resource_arg_range does
// (without overflow checks: the result is compared with INT_MAX next).
func scaleKM(n int64, rest string) (int64, string) {
	if rest == "" {
		return n, rest
	}
	switch rest[0] {
	case 'k', 'K':
		return satMul(n, 1024), rest[1:]
	case 'm', 'M':
		return satMul(n, 1048576), rest[1:]
	}
	return n, rest
}

// satMul is n*f, saturating at the int64 limits as a C long would not; either way it is
// past INT_MAX and refused.
func satMul(n, f int64) int64 {
	switch {
	case n > math.MaxInt64/f:
		return math.MaxInt64
	case n < math.MinInt64/f:
		return math.MinInt64
	}
	return n * f
}

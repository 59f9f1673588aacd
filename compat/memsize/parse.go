package memsize

import (
	"fmt"
	"math"
)

// NoVal64 is Slurm's NO_VAL64, what str_to_mbytes returns for a size it refuses.
const NoVal64 uint64 = 0xFFFFFFFFFFFFFFFE

// SizeError reports a memory size str_to_mbytes refuses. Error() names the input; sbatch,
// salloc and srun print "invalid memory constraint X" for --mem (see the option table).
type SizeError struct {
	Input string
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("invalid memory size %q", e.Input)
}

// ParseMB parses a memory size into MiB as Slurm's str_to_mbytes does: a decimal count
// (strtoll: leading white space and a '+' are accepted, no fraction), then nothing (MiB) or
// one of K, M, G, T in either case, optionally followed by B or b. Kilobytes round up to
// whole MiB ("1500K" is 2). Negative counts, fractions ("1.5G"), other suffixes and
// overflowing counts are errors.
func ParseMB(s string) (uint64, error) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var n uint64
	overflow := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if n > (math.MaxInt64-d)/10 {
			overflow = true
		} else {
			n = n*10 + d
		}
		i++
	}
	if i == start || overflow {
		// strtoll found no digits (endptr == arg) or saturated at LLONG_MAX.
		return 0, &SizeError{Input: s}
	}
	if neg && n != 0 {
		return 0, &SizeError{Input: s}
	}
	rest := s[i:]
	if rest == "" {
		return n, nil
	}
	if !(len(rest) == 1 || (len(rest) == 2 && (rest[1] == 'B' || rest[1] == 'b'))) {
		return 0, &SizeError{Input: s}
	}
	switch rest[0] {
	case 'k', 'K':
		return (n + 1023) / 1024, nil
	case 'm', 'M':
		return n, nil
	case 'g', 'G':
		return mul(n, 1024, s)
	case 't', 'T':
		return mul(n, 1024*1024, s)
	}
	return 0, &SizeError{Input: s}
}

// mul multiplies as Slurm's signed long long does; a product beyond it is refused here rather
// than wrapped.
func mul(n, by uint64, s string) (uint64, error) {
	if n > math.MaxInt64/by {
		return 0, &SizeError{Input: s}
	}
	return n * by, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

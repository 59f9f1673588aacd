// Package licenses owns Slurm's license lists: slurm.conf's Licenses= and a job's
// --licenses, both "name[:count]" items separated by ',' or ';', parsed as Slurm 22.05's
// controller parses them (src/slurmctld/licenses.c): a count defaults to 1, a name given
// twice adds up, white space anywhere or a count that is not a whole non-negative number
// makes the list invalid.
//
// It imports only the standard library; it must not import conf/, internal/ or daemon code.
package licenses

import (
	"errors"
	"strings"
)

// License is one license name and its count (configured total, or a job's request).
type License struct {
	Name  string
	Count uint32
}

// ErrInvalid is the error of a list Slurm refuses.
var ErrInvalid = errors.New("invalid license specification")

// Parse parses a license list. Duplicates are merged into the first one's place; an empty
// list is nil.
func Parse(s string) ([]License, error) {
	var out []License
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		if strings.ContainsAny(tok, " \t\n\v\f\r") {
			return nil, ErrInvalid
		}
		name, num, hasNum := strings.Cut(tok, ":")
		count := int64(1)
		if hasNum {
			n, ok := cNumber(num)
			if !ok || n < 0 {
				return nil, ErrInvalid
			}
			count = n
		}
		merged := false
		for i := range out {
			if out[i].Name == name {
				out[i].Count += uint32(count)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, License{Name: name, Count: uint32(count)})
		}
	}
	return out, nil
}

// cNumber is strtol(s, &end, 10) cast to int32 with *end required to be '\0': "" is 0,
// leading white space and a sign are allowed (white space never reaches here), and a value
// out of range is clamped as strtol clamps it, then truncated to 32 bits as Slurm's cast.
func cNumber(s string) (int64, bool) {
	if s == "" {
		return 0, true
	}
	i := 0
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i = 1
	}
	if i == len(s) {
		return 0, false // strtol consumed nothing: end points at the sign
	}
	var v uint64
	over := false
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if d := uint64(c - '0'); !over && v <= (1<<63-d)/10 {
			v = v*10 + d
		} else {
			over = true // strtol reads on and clamps
		}
	}
	var n int64
	switch {
	case over || (!neg && v > 1<<63-1):
		n = 1<<63 - 1
	case neg && v > 1<<63:
		n = -1 << 63
	case neg:
		n = -int64(v)
	default:
		n = int64(v)
	}
	return int64(int32(n)), true
}

// Find is the entry of name in l, or nil.
func Find(l []License, name string) *License {
	for i := range l {
		if l[i].Name == name {
			return &l[i]
		}
	}
	return nil
}

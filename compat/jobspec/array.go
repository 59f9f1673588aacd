package jobspec

import (
	"strconv"
	"strings"
)

// DefaultMaxArraySize is slurm.conf's MaxArraySize default: array indices run 0..1000.
const DefaultMaxArraySize = 1001

// ArraySpec is a parsed --array: the task indices in ascending order and the %throttle.
type ArraySpec struct {
	Indices  []uint32
	Throttle uint32 // max running tasks; 0 = no limit
}

// ErrInvalidArray is the controller's reply to a malformed --array.
const ErrInvalidArray = "Invalid job array specification"

// ParseArray parses an --array value: comma-separated N, N-M or N-M:S, an optional %T
// suffix. Every index must be below maxArraySize (slurm.conf MaxArraySize).
func ParseArray(s string, maxArraySize uint32) (*ArraySpec, error) {
	spec := &ArraySpec{}
	body := s
	if i := strings.IndexByte(s, '%'); i >= 0 {
		body = s[:i]
		t, err := strconv.ParseUint(s[i+1:], 10, 32)
		if err != nil {
			return nil, &Error{Msg: ErrInvalidArray, Controller: true}
		}
		spec.Throttle = uint32(t)
	}
	if body == "" {
		return nil, &Error{Msg: ErrInvalidArray, Controller: true}
	}
	seen := make(map[uint32]bool)
	for _, tok := range strings.Split(body, ",") {
		lo, hi, step, ok := parseArrayRange(tok)
		if !ok || hi >= uint64(maxArraySize) {
			return nil, &Error{Msg: ErrInvalidArray, Controller: true}
		}
		for i := lo; i <= hi; i += step {
			seen[uint32(i)] = true
		}
	}
	for i := uint32(0); i < maxArraySize; i++ {
		if seen[i] {
			spec.Indices = append(spec.Indices, i)
		}
	}
	return spec, nil
}

// parseArrayRange reads N, N-M or N-M:S.
func parseArrayRange(tok string) (lo, hi, step uint64, ok bool) {
	step = 1
	rng := tok
	if i := strings.IndexByte(tok, ':'); i >= 0 {
		rng = tok[:i]
		s, err := strconv.ParseUint(tok[i+1:], 10, 32)
		if err != nil || s == 0 {
			return 0, 0, 0, false
		}
		step = s
	}
	a, b, isRange := strings.Cut(rng, "-")
	l, err := strconv.ParseUint(a, 10, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	h := l
	if isRange {
		if h, err = strconv.ParseUint(b, 10, 32); err != nil {
			return 0, 0, 0, false
		}
	} else if step != 1 {
		return 0, 0, 0, false
	}
	if h < l {
		return 0, 0, 0, false
	}
	return l, h, step, true
}

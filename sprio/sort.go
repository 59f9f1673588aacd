package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// sortFactors orders jobs by sprio's -S spec as Slurm's sort_job_list does: the default is
// "i" (job id, ascending); the letters are applied from last to first with stable sorts, so
// the first letter decides; a '-' before a letter sorts it descending. Weighted and
// normalised letters sort alike.
func sortFactors(jobs []wire.PriorityFactors, spec string, user func(uint32) string) error {
	if spec == "" {
		spec = "i"
	}
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '-' || c == '+' {
			continue
		}
		desc := i > 0 && spec[i-1] == '-'
		less, ok := sortKeys(c, user)
		if !ok {
			return fmt.Errorf("Invalid sort specification: %c", c)
		}
		slices.SortStableFunc(jobs, func(a, b wire.PriorityFactors) int {
			if desc {
				return less(&b, &a)
			}
			return less(&a, &b)
		})
	}
	return nil
}

// fuzzyCmp compares doubles as Slurm's _compare_double: equal within a relative epsilon.
func fuzzyCmp(a, b float64) int {
	if math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) {
		return 0
	}
	return cmp.Compare(a, b)
}

func sortKeys(c byte, user func(uint32) string) (func(a, b *wire.PriorityFactors) int, bool) {
	by := func(v func(*wire.PriorityFactors) float64) func(a, b *wire.PriorityFactors) int {
		return func(a, b *wire.PriorityFactors) int { return fuzzyCmp(v(a), v(b)) }
	}
	switch c {
	case 'c':
		return func(a, b *wire.PriorityFactors) int { return 0 }, true // one cluster
	case 'i':
		return func(a, b *wire.PriorityFactors) int { return cmp.Compare(a.JobID, b.JobID) }, true
	case 'N':
		return func(a, b *wire.PriorityFactors) int { return cmp.Compare(a.Nice, b.Nice) }, true
	case 'r':
		return func(a, b *wire.PriorityFactors) int { return strings.Compare(a.Partition, b.Partition) }, true
	case 'u':
		return func(a, b *wire.PriorityFactors) int { return strings.Compare(user(a.UserID), user(b.UserID)) }, true
	case 'A', 'a':
		return by(func(j *wire.PriorityFactors) float64 { return j.Age }), true
	case 'F', 'f':
		return by(func(j *wire.PriorityFactors) float64 { return j.FairShare }), true
	case 'J', 'j':
		return by(func(j *wire.PriorityFactors) float64 { return j.JobSize }), true
	case 'P', 'p':
		return by(func(j *wire.PriorityFactors) float64 { return j.Part }), true
	case 'Q', 'q':
		return by(func(j *wire.PriorityFactors) float64 { return j.QOS }), true
	case 'T', 't':
		return func(a, b *wire.PriorityFactors) int { return 0 }, true // no TRES factors yet
	case 'Y', 'y':
		return by(priority), true
	}
	return nil, false
}

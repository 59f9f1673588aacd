package slurmtime

import (
	"errors"
	"time"
)

// OptionError is a refused --time, --time-min, --begin or --deadline value. Error() is the
// text sbatch, salloc and srun print after "<cmd>: error: ", e.g. "Invalid --time
// specification" (they then exit 255). For dates, Parse holds parse_time's own complaint,
// which Slurm writes to stderr first, bare, on its own line ("Invalid time specification
// (pos=0): garbage"); it is nil when parse_time had nothing to say (an empty value).
type OptionError struct {
	Option string // with its dashes: "--time"
	Parse  *TimeError
}

func (e *OptionError) Error() string {
	return "Invalid " + e.Option + " specification"
}

// Unwrap returns parse_time's complaint, if any.
func (e *OptionError) Unwrap() error {
	if e.Parse == nil {
		return nil
	}
	return e.Parse
}

// ParseTimeLimitOption parses a command-line time limit as sbatch/salloc/srun do for --time
// and --time-min (option names the option, with its dashes): ParseTimeLimit, with 0 meaning
// Infinite, and an *OptionError carrying Slurm's message when the value is refused.
func ParseTimeLimitOption(option, s string) (uint32, error) {
	m, err := ParseTimeLimit(s)
	if err != nil {
		return 0, &OptionError{Option: option}
	}
	if m == 0 {
		return Infinite, nil
	}
	return m, nil
}

// ParseTimeOption parses --begin or --deadline as sbatch/salloc/srun do: ParseTime, where a
// value naming no time at all ("" or only blanks) is refused like a malformed one.
func ParseTimeOption(option, s string, now time.Time) (time.Time, error) {
	t, err := ParseTime(s, now)
	if err != nil {
		var te *TimeError
		errors.As(err, &te)
		return time.Time{}, &OptionError{Option: option, Parse: te}
	}
	if t.IsZero() || t.Unix() == 0 {
		return time.Time{}, &OptionError{Option: option}
	}
	return t, nil
}

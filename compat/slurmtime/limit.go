package slurmtime

import (
	"fmt"
	"math"
	"strings"
)

// Infinite is Slurm's INFINITE: a time limit printed as UNLIMITED (or infinite by sinfo).
const Infinite uint32 = 0xFFFFFFFF

// NoVal is Slurm's NO_VAL: a time limit that was not set.
const NoVal uint32 = 0xFFFFFFFE

// LimitError reports a time limit that time_str2secs rejects (it returns NO_VAL). Error()
// names the input; the option parsers print Slurm's own text instead (see OptionError).
type LimitError struct {
	Input string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("invalid time limit %q", e.Input)
}

// ParseTimeLimit parses a time limit into minutes as Slurm's time_str2mins does: M, M:S,
// H:M:S, D-H, D-H:M, D-H:M:S, and -1/INFINITE/UNLIMITED (case-insensitive) for Infinite.
// Seconds round up to the next minute ("0:30" is 1 minute). "0" is 0 here; sbatch, salloc and
// srun then treat 0 as Infinite (see ParseTimeLimitOption).
//
// Slurm computes in a 32-bit C int and never checks for overflow or negative days, so
// "-5" (minus five days) and "99999999999" are accepted and wrap into huge limits; this
// function returns exactly the value Slurm stores for them.
func ParseTimeLimit(s string) (uint32, error) {
	secs, err := ParseTimeLimitSecs(s)
	if err != nil || secs == Infinite {
		return secs, err
	}
	// (i + 59) / 60 in C int arithmetic: wraps on overflow, truncates toward zero.
	return uint32((int32(secs) + 59) / 60), nil
}

// ParseTimeLimitSecs parses a time limit into seconds as Slurm's time_str2secs does.
// Fields need not be padded or in range: "0-00:60:00" and "300:00:00" are valid. The result
// is Slurm's C int reinterpreted as uint32 (see ParseTimeLimit on overflow).
func ParseTimeLimitSecs(s string) (uint32, error) {
	if s == "" {
		return 0, &LimitError{Input: s}
	}
	if s == "-1" || strings.EqualFold(s, "INFINITE") || strings.EqualFold(s, "UNLIMITED") {
		return Infinite, nil
	}
	if !validTimespec(s) {
		return 0, &LimitError{Input: s}
	}
	var d, h, m, sec int32
	if strings.IndexByte(s, '-') >= 0 {
		// days-[hours[:minutes[:seconds]]]
		f, _ := scanInts(s, "-::")
		d, h, m, sec = f[0], f[1], f[2], f[3]
	} else {
		f, n := scanInts(s, "::")
		if n == 3 {
			h, m, sec = f[0], f[1], f[2]
		} else {
			// minutes[:seconds]
			m, sec = f[0], f[1]
		}
	}
	// Go's int32 arithmetic wraps exactly as the C int does on every platform Slurm runs on.
	total := d*86400 + h*3600 + m*60 + sec
	if uint32(total) == NoVal {
		// Indistinguishable from Slurm's "invalid" return.
		return 0, &LimitError{Input: s}
	}
	return uint32(total), nil
}

// validTimespec mirrors Slurm's _is_valid_timespec: only digits, '-' and ':'; at most one
// '-' and it precedes every ':'; at most two ':'; and enough digit groups for the colons.
func validTimespec(s string) bool {
	digit, dash, colon := 0, 0, 0
	inDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if !inDigit {
				digit++
				inDigit = true
			}
		case c == '-':
			inDigit = false
			dash++
			if colon > 0 {
				return false
			}
		case c == ':':
			inDigit = false
			colon++
		default:
			return false
		}
	}
	if digit == 0 || dash > 1 || colon > 2 {
		return false
	}
	if dash > 0 {
		return !(colon == 1 && digit < 3) && !(colon == 2 && digit < 4)
	}
	return !(colon == 1 && digit < 2) && !(colon == 2 && digit < 3)
}

// scanInts reads signed decimal integers separated by the literal separators in seps, the
// way glibc's sscanf("%d-%d:%d:%d") does: it stops at the first mismatch and returns the
// values and how many were read. Each number is read as a C long (saturating) and then
// truncated to a C int, as glibc stores %d.
func scanInts(s string, seps string) ([4]int32, int) {
	var out [4]int32
	n := 0
	i := 0
	for n < 4 {
		neg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			neg = s[i] == '-'
			i++
		}
		start := i
		var v uint64
		sat := false
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			d := uint64(s[i] - '0')
			if sat || v > (math.MaxInt64-d)/10 {
				sat = true
			} else {
				v = v*10 + d
			}
			i++
		}
		if i == start {
			break
		}
		var l int64
		switch {
		case sat && neg:
			l = math.MinInt64
		case sat:
			l = math.MaxInt64
		case neg:
			l = -int64(v)
		default:
			l = int64(v)
		}
		out[n] = int32(l)
		n++
		if n > len(seps) || i >= len(s) || s[i] != seps[n-1] {
			break
		}
		i++
	}
	return out, n
}

// FormatTimeLimit prints a limit in minutes as `scontrol show job` prints TimeLimit= (Slurm's
// mins2time_str): [D-]HH:MM:SS, or UNLIMITED for Infinite. NoVal prints as "Partition_Limit",
// as scontrol shows a job without its own limit.
func FormatTimeLimit(minutes uint32) string {
	switch minutes {
	case Infinite:
		return "UNLIMITED"
	case NoVal:
		return "Partition_Limit"
	}
	return FormatElapsed(int64(minutes) * 60)
}

// FormatTimeLimitPartition prints a partition's MaxTime=/DefaultTime= as `scontrol show
// partition` does: UNLIMITED for Infinite, NONE for NoVal, else [D-]HH:MM:SS.
func FormatTimeLimitPartition(minutes uint32) string {
	switch minutes {
	case Infinite:
		return "UNLIMITED"
	case NoVal:
		return "NONE"
	}
	return FormatElapsed(int64(minutes) * 60)
}

// FormatElapsed prints seconds as Slurm's secs2time_str does (sacct Elapsed, scontrol
// RunTime=): [D-]HH:MM:SS, INVALID when negative.
func FormatElapsed(secs int64) string {
	if secs < 0 {
		return "INVALID"
	}
	days := secs / 86400
	h, m, s := (secs/3600)%24, (secs/60)%60, secs%60
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, s)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// yearSeconds is the largest duration squeue prints; longer ones print as INVALID.
const yearSeconds = 365 * 24 * 3600

// FormatSecs prints seconds as squeue's %M (time used) and %l (time limit) do:
// [D-][H:]M:SS with hours unpadded ("0:00", "1:05", "1:00:00", "1-00:00:00"), and INVALID for
// negative durations or ones over 365 days.
func FormatSecs(secs int64) string {
	if secs < 0 || secs > yearSeconds {
		return "INVALID"
	}
	return formatSecsShort(secs)
}

// formatSecsShort is the [D-][H:]M:SS form shared by squeue and sinfo.
func formatSecsShort(secs int64) string {
	days := secs / 86400
	h, m, s := (secs/3600)%24, (secs/60)%60, secs%60
	switch {
	case days > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, s)
	case h > 0:
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// FormatTimeLimitSinfo prints a partition's time limit in minutes as sinfo's %l (TIMELIMIT)
// and %L (DEFAULTTIME) do: "infinite", "n/a" for NoVal, else [D-][H:]M:SS without squeue's
// one-year cap.
func FormatTimeLimitSinfo(minutes uint32) string {
	switch minutes {
	case Infinite:
		return "infinite"
	case NoVal:
		return "n/a"
	}
	return formatSecsShort(int64(minutes) * 60)
}

// FormatTimeLimitSqueue prints a job's limit in minutes as squeue's %l does: UNLIMITED,
// NOT_SET for NoVal, else FormatSecs.
func FormatTimeLimitSqueue(minutes uint32) string {
	switch minutes {
	case Infinite:
		return "UNLIMITED"
	case NoVal:
		return "NOT_SET"
	}
	return FormatSecs(int64(minutes) * 60)
}

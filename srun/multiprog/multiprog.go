// Package multiprog reads srun --multi-prog configuration files as Slurm 22.05 does: srun
// checks that every task has exactly one line (Verify, src/srun/libsrun/multi_prog.c) and each
// task's slurmstepd picks its own command from the text (TaskArgv,
// src/slurmd/slurmstepd/multi_prog.c). A line is "RANKS PROGRAM ARGS...": RANKS is "*", or
// task ids and ranges separated by commas ("0,2-3"); in ARGS, %t is the task id, %o its
// offset within the line's ranks, single quotes keep text together, a backslash escapes the
// next character or continues the line; whole-line '#' comments and blank lines are skipped.
//
// It imports only the standard library: srun and slurmstepd both link it.
package multiprog

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxTasks bounds the task count a file without -n may ask for (Slurm grows a bitmap
// without limit).
const maxTasks = 1 << 20

// maxArgc is Slurm's bound on one task's argument count (MAX_ARGC).
const maxArgc = 128

// isSpace is C's isspace in the "C" locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// atoi is C's atoi on a string that starts with digits (the callers checked).
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && isDigit(s[i]); i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<30 {
			return 1 << 30
		}
	}
	return n
}

// Verify checks the configuration srun read from file name for ntasks tasks and returns the
// task count to use: without -n (ntasksSet false) the ranks named raise it, as in Slurm. The
// error holds srun's message lines (without the "srun: error: " prefix).
func Verify(data, name string, ntasks int, ntasksSet bool) (int, error) {
	if ntasks <= 0 {
		return 0, fmt.Errorf("Invalid task count %d", ntasks)
	}
	mask := make([]bool, ntasks)
	asterisk, raised := false, false
	lastBreak := false
	lines := strings.SplitAfter(data, "\n")
	for i, line := range lines {
		if line == "" {
			continue
		}
		num := i + 1
		brk := strings.HasSuffix(line, "\\") || strings.HasSuffix(line, "\\\n")
		if lastBreak {
			lastBreak = brk
			continue
		}
		lastBreak = brk
		p := strings.TrimLeftFunc(line, func(r rune) bool { return r < 128 && isSpace(byte(r)) })
		if p == "" || p[0] == '#' {
			continue
		}
		fields := strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
		invalid := fmt.Errorf("Line %d of configuration file %s invalid", num, name)
		if len(fields) < 2 {
			return 0, invalid
		}
		ranks := fields[0]
		mark := func(lo, hi int, dupOK bool) error {
			if lo > hi {
				return fmt.Errorf("Invalid task range, %d-%d", lo, hi)
			}
			if hi >= len(mask) {
				if ntasksSet && !raised || hi >= maxTasks {
					return fmt.Errorf("Invalid task id, %d >= ntasks", hi)
				}
				mask = append(mask, make([]bool, hi+1-len(mask))...)
				ntasksSet, raised = true, true
			}
			for k := lo; k <= hi; k++ {
				if mask[k] {
					if dupOK {
						continue
					}
					return fmt.Errorf("Duplicate record for task %d", k)
				}
				mask[k] = true
			}
			return nil
		}
		if ranks == "*" {
			asterisk, ntasksSet = true, true
			mark(0, len(mask)-1, true)
			continue
		}
		for _, r := range strings.Split(ranks, ",") {
			if r == "" {
				continue // strtok skips empty tokens
			}
			j := 0
			for j < len(r) && isDigit(r[j]) {
				j++
			}
			var err error
			switch {
			case asterisk:
				err = errors.New("Task range specification with asterisk must be last")
			case j == len(r):
				err = mark(atoi(r), atoi(r), false)
			case r[j] == '-':
				k := j + 1
				for k < len(r) && isDigit(r[k]) {
					k++
				}
				if k != len(r) {
					err = errors.New("Invalid task range specification")
				} else {
					err = mark(atoi(r), atoi(r[j+1:]), false)
				}
			default:
				err = fmt.Errorf("Invalid task range specification (%s)", r)
			}
			if err != nil {
				return 0, errors.Join(err, invalid)
			}
		}
	}
	for k, ok := range mask {
		if !ok {
			return 0, fmt.Errorf("Configuration file %s invalid, no record for task id %d", name, k)
		}
	}
	return len(mask), nil
}

// inRange reports whether rank is in the line's rank specification and its offset there;
// invalid ranges are skipped, as slurmstepd does (after logging them).
func inRange(rank int, spec string) (int, bool) {
	if spec == "*" {
		return rank, true
	}
	passed := 0
	for _, r := range strings.Split(spec, ",") {
		if r == "" {
			continue
		}
		j := 0
		for j < len(r) && isDigit(r[j]) {
			j++
		}
		switch {
		case j == len(r):
			if rank == atoi(r) {
				return passed, true
			}
			passed++
		case r[j] == '-':
			k := j + 1
			for k < len(r) && isDigit(r[k]) {
				k++
			}
			if k != len(r) {
				continue
			}
			lo, hi := atoi(r), atoi(r[j+1:])
			if rank >= lo && rank <= hi {
				return passed + rank - lo, true
			}
			passed += 1 + hi - lo
		}
	}
	return 0, false
}

// TaskArgv is task rank's command from the configuration, with extra (srun's arguments after
// the file name) appended.
func TaskArgv(data string, rank int, extra []string) ([]string, error) {
	if rank < 0 {
		return nil, fmt.Errorf("Invalid task rank %d", rank)
	}
	var lines []string
	for _, l := range strings.Split(data, "\n") {
		if l != "" { // strtok skips empty lines
			lines = append(lines, l)
		}
	}
	lastBreak := false
	for li := 0; li < len(lines); li++ {
		line := lines[li]
		brk := strings.HasSuffix(line, "\\")
		if lastBreak {
			lastBreak = brk
			continue
		}
		lastBreak = brk
		p := strings.TrimLeftFunc(line, func(r rune) bool { return r < 128 && isSpace(byte(r)) })
		if p == "" || p[0] == '#' {
			continue
		}
		end := strings.IndexFunc(p, func(r rune) bool { return r < 128 && isSpace(byte(r)) })
		if end < 0 {
			return nil, fmt.Errorf("Invalid MPMD configuration line %d", li+1)
		}
		offset, ok := inRange(rank, p[:end])
		if !ok {
			continue
		}
		argv, err := parseArgs(strings.TrimLeftFunc(p[end:], func(r rune) bool { return r < 128 && isSpace(byte(r)) }),
			lines[li+1:], rank, offset)
		if err != nil {
			return nil, err
		}
		for _, a := range extra {
			if len(argv)+1 >= maxArgc {
				break
			}
			argv = append(argv, a)
		}
		if len(argv) == 0 {
			return nil, errors.New("No executable program specified for this task")
		}
		return argv, nil
	}
	return nil, fmt.Errorf("Program for task rank %d not specified.", rank)
}

// parseArgs splits a line's arguments; rest are the lines after it, for continuations.
func parseArgs(s string, rest []string, rank, offset int) ([]string, error) {
	var argv []string
	var arg strings.Builder
	have := false
	next := func() (string, bool) {
		if len(rest) == 0 {
			return "", false
		}
		l := rest[0]
		rest = rest[1:]
		return l, true
	}
	i := 0
	for i < len(s) {
		if have {
			argv = append(argv, arg.String())
			arg.Reset()
			have = false
		}
		if len(argv)+1 >= maxArgc {
			break
		}
	cont:
		for i < len(s) && s[i] != '\\' && s[i] != '%' && s[i] != '\'' && !isSpace(s[i]) {
			arg.WriteByte(s[i])
			have = true
			i++
		}
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '%':
			i++
			if i < len(s) {
				switch s[i] {
				case 't':
					arg.WriteString(strconv.Itoa(rank))
					have = true
				case 'o':
					arg.WriteString(strconv.Itoa(offset))
					have = true
				}
				i++
			}
			goto cont
		case '\\':
			i++
			if i < len(s) {
				arg.WriteByte(s[i])
				have = true
				i++
			} else if l, ok := next(); ok {
				s, i = l, 0
			} else {
				break
			}
			goto cont
		case '\'':
			i++
			for {
				j := strings.IndexByte(s[i:], '\'')
				if j >= 0 {
					arg.WriteString(s[i : i+j])
					have = true
					i += j + 1
					break
				}
				if strings.HasSuffix(s, "\\") {
					if l, ok := next(); ok {
						// Slurm copies the quoted text from its start, which ends at the
						// old line's end: the new line's text before the quote is lost.
						arg.WriteString(s[i:])
						have = true
						j := strings.IndexByte(l, '\'')
						if j < 0 {
							s, i = l, len(l)
							continue
						}
						s, i = l, j+1
						break
					}
				}
				return nil, errors.New("Program arguments specification format invalid")
			}
			goto cont
		default:
			for i < len(s) && isSpace(s[i]) {
				i++
			}
		}
	}
	if have {
		argv = append(argv, arg.String())
	}
	return argv, nil
}

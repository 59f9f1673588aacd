package filepattern

import (
	"strconv"
	"strings"
)

// IOType is how srun routes one standard stream of a step (Slurm's IO_ALL, IO_ONE,
// IO_PER_TASK).
type IOType int

const (
	// IOAll: every task's stream goes through srun, to its terminal or to one file srun opens.
	IOAll IOType = iota
	// IOOne: only task TaskID's stream is kept ("-o 3"); the others go to /dev/null.
	IOOne
	// IOPerTask: each task's slurmstepd opens the file itself (the name holds %t, %n, %N or
	// %u, or is /dev/null for "none").
	IOPerTask
)

// SrunFile is what srun makes of an -o/-e/-i value before launching a step.
type SrunFile struct {
	Type   IOType
	TaskID int    // for IOOne
	Name   string // "" for the terminal; may still hold %t %n %N %u for IOPerTask
}

// SrunExpand interprets srun's -o/-e/-i value as srun 22.05 does (src/srun/libsrun/fname.c):
// empty, "all..." or "-..." is IOAll to the terminal; "none" (any case) is /dev/null per task;
// a task number below taskCount is IOOne; a value with a backslash is used as written minus
// the backslashes. Otherwise %j %J %s %A %a %x are expanded here and %t %n %N %u (with any
// width) are left for each task's slurmstepd (see StepTaskPath), which makes the file per
// task. f.StepID must be the step number.
func SrunExpand(format string, f Fields, taskCount int) SrunFile {
	if format == "" || (len(format) >= 3 && strings.EqualFold(format[:3], "all")) ||
		strings.HasPrefix(format, "-") {
		return SrunFile{Type: IOAll}
	}
	if strings.EqualFold(format, "none") {
		return SrunFile{Type: IOPerTask, Name: "/dev/null"}
	}
	if id, ok := singleTask(format); ok && int32(id) < int32(taskCount) {
		return SrunFile{Type: IOOne, TaskID: int(int32(id)), Name: format}
	}
	if esc, ok := removePathSlashes(format); ok {
		return SrunFile{Type: IOAll, Name: esc}
	}
	return srunExpand(format, f)
}

// singleTask mirrors strtoul(fmt, &end, 10) with *end == '\0': the whole value is a number
// (strtoul also takes leading blanks and a sign, and wraps or saturates).
func singleTask(s string) (uint64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			return 0, false
		}
		d := uint64(t[i] - '0')
		if v > (^uint64(0)-d)/10 {
			v = ^uint64(0)
			neg = false
			for ; i < len(t); i++ {
				if !isDigit(t[i]) {
					return 0, false
				}
			}
			break
		}
		v = v*10 + d
	}
	if neg {
		v = -v
	}
	return v, true
}

func srunExpand(format string, f Fields) SrunFile {
	out := SrunFile{Type: IOAll}
	var name, perc strings.Builder
	q, p := 0, 0
	doubleP := false
	at := func(i int) byte {
		if i < len(format) {
			return format[i]
		}
		return 0
	}
	for p < len(format) {
		wid := 0
		switch {
		case format[p] == '%':
			if at(p+1) == '%' {
				p++
				doubleP = true
				name.WriteString(format[q:p])
				perc.WriteByte('%') // kept in case a per-task letter follows
				p++
				q = p
				continue
			}
			p++
			if isDigit(at(p)) {
				name.WriteString(format[q : p-1])
				wid, p = readWidth(format, p, true)
				q = p - 1
				if p >= len(format) {
					goto done
				}
			}
			switch c := at(p); c {
			case 'a', 'A', 'j', 'J', 's':
				name.WriteString(format[q : p-1])
				name.WriteString(srunField(c, wid, f))
				perc.Reset()
				p++
				q = p
			case 'u', 't', 'n', 'N':
				out.Type = IOPerTask
				if doubleP {
					name.WriteString(perc.String())
				}
				if wid > 0 {
					// Put the width back for slurmstepd.
					name.WriteString("%" + strconv.Itoa(wid))
				} else {
					name.WriteString(format[q:p])
				}
				perc.Reset()
				q = p
				p++
			case 'x':
				name.WriteString(format[q : p-1])
				name.WriteString(f.JobName)
				p++
				q = p
			}
			doubleP = false
		case doubleP:
			// The byte after "%%": a per-task letter keeps both percents for slurmstepd.
			doubleP = false
			if isDigit(format[p]) {
				wid, p = readWidth(format, p, false)
			}
			switch at(p) {
			case 'u', 't', 'n', 'N':
				out.Type = IOPerTask
				name.WriteString(perc.String())
				if wid > 0 {
					name.WriteString(strconv.Itoa(wid))
					q = p
				}
				perc.Reset()
				p++
			}
		default:
			p++
		}
	}
done:
	if q < p {
		name.WriteString(format[q:min(p, len(format))])
	}
	out.Name = name.String()
	return out
}

// readWidth reads the digits at p as strtoul does, capped at maxWidth when capped is set
// (srun caps widths after '%', not after "%%", where Slurm keeps strtoul's value as an
// unsigned int); it returns the width and the next position.
func readWidth(s string, p int, capped bool) (int, int) {
	start := p
	for p < len(s) && isDigit(s[p]) {
		p++
	}
	w, err := strconv.ParseUint(s[start:p], 10, 64)
	if err != nil {
		w = ^uint64(0) // strtoul saturates
	}
	if capped {
		return int(min(w, maxWidth)), p
	}
	return int(uint32(w)), p
}

func srunField(c byte, wid int, f Fields) string {
	switch c {
	case 'a':
		return pad(uint64(f.ArrayTaskID), wid)
	case 'A':
		if f.IsArray {
			return pad(uint64(f.ArrayJobID), wid)
		}
		return pad(uint64(f.JobID), wid)
	case 'j':
		return pad(uint64(f.JobID), wid)
	case 'J':
		s := pad(uint64(f.JobID), wid)
		if f.StepID != BatchStep {
			s += "." + f.StepID
		}
		return s
	case 's':
		if n, err := strconv.ParseUint(f.StepID, 10, 32); err == nil {
			return pad(n, wid)
		}
		return f.StepID
	}
	return ""
}

// maxStepWidth bounds the zero padding slurmstepd applies for %t and %n. Slurm applies any
// width there (uncapped after "%%"); Orbit refuses to build absurd names instead of
// exhausting memory.
const maxStepWidth = 4096

// StepTaskPath is the file one task's slurmstepd opens for a step's per-task name (the Name
// of an IOPerTask SrunFile), as slurmstepd 22.05 does: a name that is only a task number
// other than this task's is /dev/null; a name with a backslash is used as written minus the
// backslashes; otherwise %t (task id), %n (node index), %N (host name) and %u (user) are
// expanded, with Slurm's quirks kept: the byte after an expanded field is not examined (so
// "%t%n" leaves "%n" as written), "%%t" is "%t", and a width drops the '%' as Slurm counts
// it. A relative result is joined to cwd.
func StepTaskPath(name, cwd string, f Fields) string {
	if id, ok := singleTask(name); ok && int32(id) >= 0 && int(int32(id)) != f.TaskID {
		return "/dev/null"
	}
	esc, escaped := removePathSlashes(name)
	var b strings.Builder
	if !strings.HasPrefix(name, "/") {
		b.WriteString(cwd)
		if escaped {
			b.WriteString(esc)
			return b.String()
		}
		if !strings.HasSuffix(cwd, "/") {
			b.WriteByte('/')
		}
	}
	if escaped {
		return esc
	}
	b.WriteString(stepExpand(name, f))
	return b.String()
}

// stepExpand walks the name as Slurm's _create_step_fname; offset is how many bytes before
// the letter the '%' sits as Slurm reckons it (1, 2 after a width, 3 after a width of 10).
func stepExpand(path string, f Fields) string {
	var name strings.Builder
	q, p := 0, 0
	at := func(i int) byte {
		if i < len(path) {
			return path[i]
		}
		return 0
	}
	for p < len(path) {
		if path[p] != '%' {
			p++
			continue
		}
		doubleP := false
		if at(p+1) == '%' {
			p++
			doubleP = true
		}
		p++
		wid, offset := 0, 1
		if isDigit(at(p)) {
			start := p
			for p < len(path) && isDigit(path[p]) {
				p++
			}
			w, err := strconv.ParseUint(path[start:p], 10, 64)
			if err != nil {
				w = ^uint64(0)
			}
			if w == maxWidth {
				offset = 3
			} else {
				offset = 2
			}
			wid = int(min(uint64(uint32(w)), maxStepWidth))
			if p >= len(path) {
				break
			}
		}
		if p >= len(path) {
			break
		}
		// from is where Slurm stops copying the text before the field.
		from := func(off int) int { return max(q, min(p-off, len(path))) }
		switch path[p] {
		case '%': // a third '%' in a row
			name.WriteString(path[q:from(1)])
			q = p
		case 't', 'n', 'N':
			name.WriteString(path[q:from(offset)])
			if !doubleP {
				switch path[p] {
				case 't':
					name.WriteString(pad(uint64(nonNeg(f.TaskID)), wid))
				case 'n':
					name.WriteString(pad(uint64(nonNeg(f.NodeIndex)), wid))
				default:
					name.WriteString(f.FirstNode)
				}
				p++
			}
			q = p
			p++
		case 'u':
			name.WriteString(path[q:from(1)])
			if !doubleP {
				name.WriteString(f.User)
				p++
			}
			q = p
			p++
		}
	}
	if q < len(path) && q < p {
		name.WriteString(path[q:min(p, len(path))])
	}
	return name.String()
}

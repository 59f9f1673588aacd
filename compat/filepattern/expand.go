package filepattern

import (
	"strconv"
	"strings"
)

// NoVal is Slurm's NO_VAL, the array task id of a job that is not part of an array.
const NoVal uint32 = 0xFFFFFFFE

// BatchStep is the StepID of a job's batch step ("batch" in file names and step ids).
const BatchStep = "batch"

// DefaultBatchStdout is sbatch's output file when -o is not given; DefaultBatchArrayStdout is
// the one for a job array task. Both are relative to the job's working directory.
const (
	DefaultBatchStdout      = "slurm-%j.out"
	DefaultBatchArrayStdout = "slurm-%A_%a.out"
)

// maxWidth caps a zero-pad width: "%12j" pads to 10 digits.
const maxWidth = 10

// Fields are what an output file name pattern can refer to.
type Fields struct {
	JobID       uint32
	ArrayJobID  uint32
	ArrayTaskID uint32 // printed even when the job is no array (as 4294967294), as Slurm does
	IsArray     bool   // false: %A is the job id, as Slurm decides by ArrayTaskID == NO_VAL
	StepID      string // BatchStep, or a step number such as "0"
	JobName     string
	User        string
	FirstNode   string // %N: the host name of the machine opening the file (gethostname, not NodeName)
	NodeIndex   int    // %n
	TaskID      int    // %t
	// Restart is the job's restart count. Slurm 22.05 has no %r (nor %b): those stay literal.
	Restart int
}

// Expand expands a batch job's pattern as slurmstepd does (without joining a directory; see
// Path): %% is '%'; %j job id; %J job id, plus ".step" outside the batch step; %A array job id
// (the job id for a non-array job); %a array task id; %s step id ("batch"); %x job name;
// %u user; %N host name; %n node index; %t task id. A width between '%' and the letter
// zero-pads numbers (at most 10 digits) and is dropped for names. A '%' before any other
// letter stays as written, except that a width before it loses all but its last digit
// ("%12z" gives "2z"), as in Slurm. If the pattern contains a backslash, nothing is expanded
// and the backslashes are dropped ("\\" keeps one).
func Expand(pattern string, f Fields) string {
	if esc, ok := removePathSlashes(pattern); ok {
		return esc
	}
	return expandBatch(pattern, f)
}

// Path is the full file name slurmstepd opens for a batch job's pattern: Expand's result,
// joined to cwd with '/' when the pattern is relative (an escaped pattern too).
func Path(pattern, cwd string, f Fields) string {
	name := Expand(pattern, f)
	if strings.HasPrefix(pattern, "/") {
		return name
	}
	if strings.HasSuffix(cwd, "/") {
		return cwd + name
	}
	return cwd + "/" + name
}

// removePathSlashes mirrors Slurm's remove_path_slashes: every backslash is dropped except
// that a doubled one leaves one; ok reports whether there was any.
func removePathSlashes(p string) (string, bool) {
	if !strings.Contains(p, `\`) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' {
			if i+1 < len(p) && p[i+1] == '\\' {
				b.WriteByte('\\')
				i++
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String(), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pad prints v zero-padded to wid digits, as "%0*u".
func pad(v uint64, wid int) string {
	s := strconv.FormatUint(v, 10)
	if len(s) < wid {
		s = strings.Repeat("0", wid-len(s)) + s
	}
	return s
}

// expandBatch walks the pattern as Slurm's _create_batch_fname: q marks the start of text not
// yet copied, p the byte under examination.
func expandBatch(path string, f Fields) string {
	var name strings.Builder
	q, p := 0, 0
	for p < len(path) {
		if path[p] != '%' {
			p++
			continue
		}
		if p+1 < len(path) && path[p+1] == '%' {
			name.WriteString(path[q : p+1])
			p += 2
			q = p
			continue
		}
		p++
		if p >= len(path) {
			break // a trailing '%' is copied as written
		}
		wid := 0
		if isDigit(path[p]) {
			name.WriteString(path[q : p-1])
			start := p
			for p < len(path) && isDigit(path[p]) {
				p++
			}
			if w, err := strconv.ParseUint(path[start:p], 10, 64); err == nil && w <= maxWidth {
				wid = int(w)
			} else {
				wid = maxWidth
			}
			// Slurm keeps the last width digit as the start of uncopied text, so an
			// unknown letter after a width comes out as that digit and the letter.
			q = p - 1
			if p >= len(path) {
				break
			}
		}
		val, ok := batchField(path[p], wid, f)
		if !ok {
			continue
		}
		name.WriteString(path[q : p-1])
		name.WriteString(val)
		p++
		q = p
	}
	if q < p {
		name.WriteString(path[q:p])
	}
	return name.String()
}

func batchField(c byte, wid int, f Fields) (string, bool) {
	batch := f.StepID == BatchStep || f.StepID == ""
	switch c {
	case 'a':
		return pad(uint64(f.ArrayTaskID), wid), true
	case 'A':
		if !f.IsArray {
			return pad(uint64(f.JobID), wid), true
		}
		return pad(uint64(f.ArrayJobID), wid), true
	case 'j', 'J':
		s := pad(uint64(f.JobID), wid)
		if c == 'J' && !batch {
			s += "." + f.StepID
		}
		return s, true
	case 'n':
		return pad(uint64(nonNeg(f.NodeIndex)), wid), true
	case 'N':
		return f.FirstNode, true
	case 's':
		if batch {
			return BatchStep, true
		}
		if n, err := strconv.ParseUint(f.StepID, 10, 32); err == nil {
			return pad(n, wid), true
		}
		return f.StepID, true
	case 't':
		return pad(uint64(nonNeg(f.TaskID)), wid), true
	case 'u':
		return f.User, true
	case 'x':
		return f.JobName, true
	}
	return "", false
}

func nonNeg(v int) int {
	if v < 0 {
		return 0
	}
	return v
}

package jobscripts

import (
	"regexp"
	"strconv"
	"strings"
)

// Run is what a user finds after submitting one case: sbatch's exit status and output, the
// final state of every job record, and the files in the submit directory (name → contents).
// Ids names the values that must differ between two runs of the same case.
type Run struct {
	RC             int
	Stdout, Stderr string
	State          []string // "ArrayTaskId=<id|-> JobState=<state> ExitCode=<rc>:<sig>", sorted
	Files          []string // relative to the submit directory, sorted
	Contents       map[string]string
	Ids            Ids
}

// Ids are the run-specific values Normalize replaces.
type Ids struct {
	JobID      uint32   // the id sbatch printed (an array's array job id)
	TaskJobIDs []uint32 // ids of an array's other task records
	SubmitDir  string   // the scratch directory sbatch ran in
	Host       string   // short host name of the node that ran the job (%N in file names)
}

// Normalize renders r as one text in which only what must differ between the reference and
// Orbit is replaced, in both file names and contents:
//
//   - the submit directory's path → @SUBMITDIR@ (each run has its own scratch directory);
//   - a digit run whose value is the job id → @JOBID@, an array task's own job id →
//     @TASKJOBID@ (ids come from each cluster's counter; zero-padded forms such as %12j
//     are recognised by value);
//   - the node's host name as a whole word → @HOST@ (%N expands to it; the reference's node
//     and Orbit's emulated node run on different hosts in CI);
//   - a time as slurmstepd prints it (2006-01-02T15:04:05, its CANCELLED lines) → @TIME@.
//
// Times, pids and environment values other than these never reach the outputs: the scripts
// print variable names, not values, except values both systems must agree on.
func Normalize(r Run) string {
	var b strings.Builder
	n := func(s string) string { return r.Ids.normalize(s) }
	b.WriteString("sbatch exit status " + strconv.Itoa(r.RC) + "\n")
	b.WriteString("--- sbatch stdout\n" + n(r.Stdout))
	b.WriteString("--- sbatch stderr\n" + n(r.Stderr))
	b.WriteString("--- final state\n")
	for _, s := range r.State {
		b.WriteString(s + "\n")
	}
	// Sorted after normalising: the ids in names order files differently on each side.
	type file struct{ name, body string }
	var files []file
	for _, f := range r.Files {
		files = append(files, file{n(f), n(r.Contents[f])})
	}
	for i := 1; i < len(files); i++ {
		for j := i; j > 0 && files[j].name < files[j-1].name; j-- {
			files[j], files[j-1] = files[j-1], files[j]
		}
	}
	b.WriteString("--- files\n")
	for _, f := range files {
		b.WriteString(f.name + "\n")
	}
	for _, f := range files {
		b.WriteString("--- file " + f.name + "\n" + f.body)
	}
	return b.String()
}

func (ids Ids) normalize(s string) string {
	if ids.SubmitDir != "" {
		s = strings.ReplaceAll(s, ids.SubmitDir, "@SUBMITDIR@")
	}
	// Before the ids: a time's digits could equal a small job id.
	s = clockTime.ReplaceAllString(s, "@TIME@")
	s = replaceNumbers(s, func(v uint64) string {
		if ids.JobID != 0 && v == uint64(ids.JobID) {
			return "@JOBID@"
		}
		for _, t := range ids.TaskJobIDs {
			if v == uint64(t) {
				return "@TASKJOBID@"
			}
		}
		return ""
	})
	if ids.Host != "" {
		s = replaceWord(s, ids.Host, "@HOST@")
	}
	return s
}

// clockTime is a time as slurmstepd prints it in its CANCELLED lines.
var clockTime = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\b`)

// replaceNumbers replaces each maximal run of ASCII digits for which repl returns a
// non-empty string.
func replaceNumbers(s string, repl func(uint64) string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if v, err := strconv.ParseUint(s[i:j], 10, 64); err == nil {
			if r := repl(v); r != "" {
				b.WriteString(r)
				i = j
				continue
			}
		}
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

// replaceWord replaces w where it is not part of a longer word of letters and digits.
func replaceWord(s, w, repl string) string {
	var b strings.Builder
	for {
		k := strings.Index(s, w)
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		before := k == 0 || !isAlnum(s[k-1])
		after := k+len(w) == len(s) || !isAlnum(s[k+len(w)])
		b.WriteString(s[:k])
		if before && after {
			b.WriteString(repl)
		} else {
			b.WriteString(w)
		}
		s = s[k+len(w):]
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

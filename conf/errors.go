package conf

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a configuration file. File and Line locate it (Line is the
// first physical line of a logical line joined by continuations); Key names the key involved
// when there is one; Msg is the text, worded as Slurm words it where Slurm reports the same
// problem.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

// Error renders "file:line: msg", the form compilers and `sshd -t` use.
func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Msg
	case e.Line <= 0:
		return e.File + ": " + e.Msg
	default:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
}

// Errors is every problem found in one load, in the order they were met. Load returns all of
// them together so an admin fixes a file in one pass rather than one error per restart.
type Errors []*Error

// Error joins the errors one per line.
func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap lets errors.As reach each *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// errList collects errors and warnings while one file family is read.
type errList struct {
	errs  Errors
	warns Errors
}

func (l *errList) add(file string, line int, key, format string, args ...any) {
	l.errs = append(l.errs, &Error{File: file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) warn(file string, line int, key, format string, args ...any) {
	l.warns = append(l.warns, &Error{File: file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (l *errList) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	return l.errs
}

// sortErrors orders errors (and warnings) by file, in the order the files were read, then
// by line, so a parse error and a later consistency error on the same file read top to bottom.
// Errors about a file as a whole (line 0) come first within it.
func (l *errList) sort(files []string) {
	rank := map[string]int{}
	for i, f := range files {
		if _, ok := rank[f]; !ok {
			rank[f] = i
		}
	}
	by := func(es Errors) {
		sort.SliceStable(es, func(i, j int) bool {
			ri, oki := rank[es[i].File]
			rj, okj := rank[es[j].File]
			if !oki {
				ri = len(files)
			}
			if !okj {
				rj = len(files)
			}
			if ri != rj {
				return ri < rj
			}
			return es[i].Line < es[j].Line
		})
	}
	by(l.errs)
	by(l.warns)
}

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
	// Client marks a warning Slurm prints from every program reading the file, the user
	// commands too ("sinfo: error: TreeWidth=0 is invalid"), not only from its daemons.
	Client bool
	// Slurm, when set, is the line Slurm's own error() prints for this problem where it is
	// not Msg ("_parse_next_key: Parsing error at unrecognized key: Foo"); the commands
	// print it, as Slurm's do, without the file and line Msg is shown with elsewhere.
	Slurm string
	// Fatal says Slurm stops at this problem with fatal() rather than error(): the commands
	// print it as their fatal line, with nothing after it.
	Fatal bool
	// Daemon marks a problem only Slurm's daemons find (the node table, partitions' node
	// names, gres.conf, topology.conf, cgroup.conf): Slurm's commands never see it, so
	// Orbit's run on regardless (CommandErrors).
	Daemon bool
}

// CommandErrors is what of err (a Load error) Slurm's user commands would also report: nil
// when every problem is one only the daemons find.
func CommandErrors(err error) error {
	es, ok := err.(Errors)
	if !ok {
		return err
	}
	var out Errors
	for _, e := range es {
		if !e.Daemon {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// CommandText is the problem as a Slurm command prints it after "<prog>: error: " (or
// "fatal: " when Fatal).
func (e *Error) CommandText() string {
	if e.Slurm != "" {
		return e.Slurm
	}
	return e.Msg
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

func (l *errList) add(file string, line int, key, format string, args ...any) *Error {
	e := &Error{File: file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
	l.errs = append(l.errs, e)
	return e
}

// parseError reports text left on a line that does not parse as key=value pairs; Slurm's
// commands say 'Parse error in file F line N: "text"'.
func (l *errList) parseError(pos position, text string) {
	e := l.add(pos.file, pos.line, "", "Parse error at \"%s\"", trimCRLF(text))
	e.Slurm = fmt.Sprintf("Parse error in file %s line %d: \"%s\"", pos.file, pos.line, trimCRLF(text))
}

func (l *errList) warn(file string, line int, key, format string, args ...any) *Error {
	e := &Error{File: file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
	l.warns = append(l.warns, e)
	return e
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

package options

import (
	"bytes"
	"fmt"
	"strings"
)

// directiveArgs collects the arguments of the #SBATCH lines at the top of a batch script,
// as sbatch does: a line starting in column 0 with "#SBATCH" (or the legacy "#SLURM", which
// earns a warning) contributes its words; blank lines and lines whose first non-blank
// character is '#' are skipped; the first other line ends the scan. file names the script
// in fatal messages (its base name, or "stdin"). warnings are stderr lines to print.
func directiveArgs(script []byte, file string) (args []string, warnings []string, err error) {
	lineno := 0
	warned := false
	for len(script) > 0 {
		var line []byte
		if i := bytes.IndexByte(script, '\n'); i >= 0 {
			line, script = script[:i], script[i+1:]
		} else {
			line, script = script, nil
		}
		lineno++
		var rest string
		switch {
		case bytes.HasPrefix(line, []byte("#SBATCH")):
			rest = string(line[len("#SBATCH"):])
		case bytes.HasPrefix(line, []byte("#SLURM")):
			rest = string(line[len("#SLURM"):])
			if !warned {
				warnings = append(warnings, "sbatch: error: Change from #SLURM to #SBATCH in your script and verify the options are valid in sbatch\n")
				warned = true
			}
		default:
			if isCommandLine(line) {
				return args, warnings, nil
			}
			continue
		}
		rest = strings.TrimLeftFunc(rest, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
		if isHetSeparator(rest) {
			return nil, warnings, &Error{Stderr: "sbatch: error: heterogeneous jobs (#SBATCH hetjob) are not supported by Orbit yet\n", ExitCode: 1}
		}
		for {
			arg, skipped, ok, ferr := nextArgument(file, lineno, rest)
			if ferr != nil {
				return nil, warnings, ferr
			}
			if !ok {
				break
			}
			args = append(args, arg)
			rest = rest[skipped:]
		}
	}
	return args, warnings, nil
}

// isCommandLine reports whether a non-directive line ends the directive scan: it has a
// non-blank character and the first one is not '#'.
func isCommandLine(line []byte) bool {
	for _, c := range line {
		if isSpace(c) {
			continue
		}
		return c != '#'
	}
	return false
}

func isHetSeparator(s string) bool {
	for _, w := range []string{"hetjob", "packjob"} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || isSpace(s[len(w)])) {
			return true
		}
	}
	return false
}

// nextArgument reads one word of a directive line as sbatch's get_argument does: quotes
// group (and are removed), a backslash takes the next character literally, an unquoted '#'
// starts a comment. ok is false when no argument is left — including after an empty
// quoted word, which ends the line in Slurm too. skipped is how much of line was read.
func nextArgument(file string, lineno int, line string) (arg string, skipped int, ok bool, err error) {
	p := 0
	for p < len(line) && isSpace(line[p]) {
		p++
	}
	if p < len(line) && line[p] == ':' {
		return "", 0, false, &Error{Stderr: fmt.Sprintf("sbatch: fatal: %s: line %d: Unexpected `:` in [%s]\n", file, lineno, line), ExitCode: 1}
	}
	var b strings.Builder
	var quote byte
	quoted, escape, any := false, false, false
	for p < len(line) && (quoted || !isSpace(line[p])) && line[p] != '\n' {
		c := line[p]
		switch {
		case escape:
			escape = false
		case c == '\\':
			escape = true
			p++
			continue
		case quoted:
			if c == quote {
				quoted = false
				p++
				continue
			}
		case c == '"' || c == '\'':
			quoted, quote = true, c
			p++
			continue
		case c == '#':
			p = len(line) // the rest of the line is a comment
			continue
		}
		b.WriteByte(c)
		any = true
		p++
	}
	if quoted {
		return "", 0, false, &Error{Stderr: fmt.Sprintf("sbatch: fatal: %s: line %d: Unmatched `%c` in [%s]\n", file, lineno, quote, line), ExitCode: 1}
	}
	return b.String(), p, any, nil
}

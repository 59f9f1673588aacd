package scenario

import (
	"fmt"
	"regexp"
	"strings"
)

// Op is the kind of one scenario line.
type Op int

// The scenario's line kinds.
const (
	OpRun    Op = iota // run NAME CMD ARGS...: capture one command
	OpSubmit           // submit LABEL NAME sbatch ARGS...: capture it and bind LABEL to the job id it printed
	OpWait             // wait TARGET STATE[,STATE...]: poll squeue until every line of TARGET is in one of the states
	OpOrbit            // orbit NAME CMD ARGS...: capture on Orbit only (never on the shared reference)
	OpShape            // shape NAME STREAM REGEXP: an "orbit" capture's stream must match REGEXP
)

// Step is one parsed scenario line.
type Step struct {
	Line   int // 1-based line number in the scenario file
	Op     Op
	Name   string   // capture name (run, submit, orbit, shape)
	Label  string   // submit: the label bound to the job id
	Args   []string // run/submit/orbit: command and arguments, before $label expansion
	Target string   // wait: the job (or array task) spec, before expansion
	States []string // wait: the wanted squeue %T states
	Stream string   // shape: out, err or rc
	Shape  *regexp.Regexp
}

// Commands the scenario may run: the user commands the issue covers.
var commands = map[string]bool{"sbatch": true, "srun": true, "squeue": true, "scancel": true, "scontrol": true, "sinfo": true}

var (
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)
	labelRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// Parse reads a scenario. Errors name the line and the problem.
func Parse(text string) ([]Step, error) {
	var steps []Step
	names := map[string]int{}
	labels := map[string]bool{}
	orbitNames := map[string]bool{}
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n := i + 1
		errf := func(format string, a ...any) error {
			return fmt.Errorf("scenario line %d: %s", n, fmt.Sprintf(format, a...))
		}
		op, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		st := Step{Line: n}
		switch op {
		case "shape":
			// shape NAME STREAM REGEXP: the regexp is the rest of the line, verbatim.
			// An empty REGEXP (the line ends after STREAM) wants empty output.
			f := strings.SplitN(rest, " ", 3)
			if len(f) == 2 {
				f = append(f, "")
			}
			if len(f) != 3 {
				return nil, errf("shape needs NAME STREAM REGEXP")
			}
			st.Op, st.Name, st.Stream = OpShape, f[0], f[1]
			if !orbitNames[st.Name] {
				return nil, errf("shape of %q, which is no earlier orbit capture", st.Name)
			}
			if st.Stream != "out" && st.Stream != "err" && st.Stream != "rc" {
				return nil, errf("shape stream %q: want out, err or rc", st.Stream)
			}
			re, err := regexp.Compile(`\A(?:` + f[2] + `)\z`)
			if err != nil {
				return nil, errf("shape regexp: %v", err)
			}
			st.Shape = re
			steps = append(steps, st)
			continue
		}
		words, err := SplitWords(rest)
		if err != nil {
			return nil, errf("%v", err)
		}
		switch op {
		case "run", "orbit", "submit":
			st.Op = map[string]Op{"run": OpRun, "orbit": OpOrbit, "submit": OpSubmit}[op]
			if op == "submit" {
				if len(words) < 1 || !labelRE.MatchString(words[0]) {
					return nil, errf("submit needs a LABEL ([a-z][a-z0-9_]*)")
				}
				if labels[words[0]] {
					return nil, errf("label %q bound twice", words[0])
				}
				st.Label, words = words[0], words[1:]
			}
			if len(words) < 2 {
				return nil, errf("%s needs NAME and a command", op)
			}
			st.Name, st.Args = words[0], words[1:]
			if !nameRE.MatchString(st.Name) {
				return nil, errf("capture name %q: want [a-z0-9][a-z0-9_.-]*", st.Name)
			}
			if prev, dup := names[st.Name]; dup {
				return nil, errf("capture name %q already used on line %d", st.Name, prev)
			}
			if !commands[st.Args[0]] {
				return nil, errf("command %q is not one of sbatch srun squeue scancel scontrol sinfo", st.Args[0])
			}
			if op == "submit" && st.Args[0] != "sbatch" {
				return nil, errf("submit runs sbatch, not %s", st.Args[0])
			}
			for _, a := range st.Args {
				if err := checkRefs(a, labels); err != nil {
					return nil, errf("%v", err)
				}
			}
			names[st.Name] = n
			if op == "submit" {
				labels[st.Label] = true
			}
			if op == "orbit" {
				orbitNames[st.Name] = true
			}
		case "wait":
			if len(words) != 2 {
				return nil, errf("wait needs TARGET STATE[,STATE...]")
			}
			if err := checkRefs(words[0], labels); err != nil {
				return nil, errf("%v", err)
			}
			st.Op, st.Target, st.States = OpWait, words[0], strings.Split(words[1], ",")
			for _, s := range st.States {
				if s == "" || strings.ToUpper(s) != s {
					return nil, errf("wait state %q: want an upper-case squeue %%T state", s)
				}
			}
		default:
			return nil, errf("unknown operation %q (want run, submit, wait, orbit or shape)", op)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

var refRE = regexp.MustCompile(`\$\{([^}]*)\}|\$([a-z][a-z0-9_]*)|\$`)

// checkRefs reports a $label that no earlier submit bound.
func checkRefs(s string, labels map[string]bool) error {
	for _, m := range refRE.FindAllStringSubmatch(s, -1) {
		l := m[1] + m[2]
		if l == "" {
			return fmt.Errorf("%q: a lone $ (write a label as $name or ${name})", s)
		}
		if !labels[l] {
			return fmt.Errorf("%q: $%s is bound by no earlier submit", s, l)
		}
	}
	return nil
}

// Expand replaces $label and ${label} in s with the bound job ids.
func Expand(s string, ids map[string]string) string {
	return refRE.ReplaceAllStringFunc(s, func(m string) string {
		l := strings.Trim(m, "${}")
		return ids[l]
	})
}

// SplitWords splits a line into words as a POSIX shell would for plain words, 'single' and
// "double" quotes and backslash escapes (outside single quotes), with no other expansion.
func SplitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" quote")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

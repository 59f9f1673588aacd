package jobscripts

import (
	"fmt"
	"strings"
)

// Case is one line of cases.txt: a script of scripts/ and how sbatch is called for it.
type Case struct {
	Name   string   // names testdata/<Name>/
	Script string   // file in scripts/; "" for none (--wrap)
	Opts   []string // sbatch options before the script
	Args   []string // the script's arguments
	Env    []string // NAME=value added to sbatch's environment (SBATCH_* input variables)
	// Ulimit are arguments of the shell's ulimit builtin ("-n 517 -s 7777") that set the
	// resource limits sbatch runs with (the submitting shell's, which Slurm propagates).
	Ulimit []string
}

// ParseCases reads cases.txt: "name|script|options|arguments[|environment[|ulimit]]" per
// line, '#' comments and blank lines skipped; options, arguments, environment and ulimit
// split as the shell splits words.
func ParseCases(text string) ([]Case, error) {
	var out []Case
	seen := map[string]bool{}
	for i, l := range strings.Split(text, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "|")
		for len(f) == 4 || len(f) == 5 {
			f = append(f, "")
		}
		if len(f) != 6 || f[0] == "" {
			return nil, fmt.Errorf("cases.txt:%d: want name|script|options|arguments[|environment[|ulimit]], got %q", i+1, l)
		}
		if seen[f[0]] {
			return nil, fmt.Errorf("cases.txt:%d: case %q listed twice", i+1, f[0])
		}
		seen[f[0]] = true
		opts, err := SplitWords(f[2])
		if err != nil {
			return nil, fmt.Errorf("cases.txt:%d: options: %v", i+1, err)
		}
		args, err := SplitWords(f[3])
		if err != nil {
			return nil, fmt.Errorf("cases.txt:%d: arguments: %v", i+1, err)
		}
		env, err := SplitWords(f[4])
		if err != nil {
			return nil, fmt.Errorf("cases.txt:%d: environment: %v", i+1, err)
		}
		for _, kv := range env {
			if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
				return nil, fmt.Errorf("cases.txt:%d: environment: %q is not NAME=value", i+1, kv)
			}
		}
		lim, err := SplitWords(f[5])
		if err != nil {
			return nil, fmt.Errorf("cases.txt:%d: ulimit: %v", i+1, err)
		}
		for _, w := range lim {
			if strings.TrimLeft(w, "-abcdefHilmnpqrsStuvx0123456789") != "" && w != "unlimited" {
				return nil, fmt.Errorf("cases.txt:%d: ulimit: %q is not a ulimit option or number", i+1, w)
			}
		}
		out = append(out, Case{Name: f[0], Script: f[1], Opts: opts, Args: args, Env: env, Ulimit: lim})
	}
	return out, nil
}

// SplitWords splits s into words as a POSIX shell does for the subset cases.txt uses
// (record.sh lets bash do it): blanks separate words, '...' quotes literally, "..." quotes
// with \" \\ \$ \` escapes, a backslash outside quotes escapes the next character.
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
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash in %q", s)
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

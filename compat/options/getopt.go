package options

import (
	"fmt"
	"strings"
)

// occurrence is one option found on a command line or in #SBATCH directives.
type occurrence struct {
	opt    *Option
	value  string
	hasVal bool // false for flags and for an optional argument given without '='
}

// usageError is a getopt_long complaint: glibc's line(s), which the command follows with
// `Try "<cmd> --help" for more information` and exit status 255.
type usageError struct {
	text string // glibc's message, newline-terminated
}

func (e *usageError) Error() string { return strings.TrimSuffix(e.text, "\n") }

// getoptLong scans argv[1:] as glibc getopt_long does with an option string starting with
// '+': it stops at the first non-option (returning its index) or after "--". prog is
// argv[0] as glibc prints it. On an error it returns what was found so far and the error.
func getoptLong(cmd Cmds, argv []string) ([]occurrence, int, error) {
	var prog string
	if len(argv) > 0 {
		prog = argv[0]
	}
	slurm, ext := optionsFor(cmd)
	var found []occurrence
	i := 1
	for i < len(argv) {
		arg := argv[i]
		if arg == "--" {
			return found, i + 1, nil
		}
		if len(arg) < 2 || arg[0] != '-' {
			return found, i, nil
		}
		if arg[1] == '-' {
			occ, next, err := longOption(prog, argv, i, slurm, ext)
			if err != nil {
				return found, next, err
			}
			found = append(found, occ)
			i = next
			continue
		}
		// A cluster of short options: -N2, -Hv, -t 10.
		for j := 1; j < len(arg); j++ {
			c := arg[j]
			o := shortOption(slurm, c)
			if o == nil {
				return found, i + 1, &usageError{fmt.Sprintf("%s: invalid option -- '%c'\n", prog, c)}
			}
			switch o.Arg {
			case ArgNone:
				found = append(found, occurrence{opt: o})
				continue
			case ArgOptional:
				if j+1 < len(arg) {
					found = append(found, occurrence{opt: o, value: arg[j+1:], hasVal: true})
				} else {
					found = append(found, occurrence{opt: o})
				}
			case ArgRequired:
				if j+1 < len(arg) {
					found = append(found, occurrence{opt: o, value: arg[j+1:], hasVal: true})
				} else if i+1 < len(argv) {
					i++
					found = append(found, occurrence{opt: o, value: argv[i], hasVal: true})
				} else {
					return found, i + 1, &usageError{fmt.Sprintf("%s: option requires an argument -- '%c'\n", prog, c)}
				}
			}
			break
		}
		i++
	}
	return found, i, nil
}

func shortOption(opts []*Option, c byte) *Option {
	if c == 0 {
		return nil
	}
	for _, o := range opts {
		if o.Short == c {
			return o
		}
	}
	return nil
}

// longOption handles argv[i] = "--name[=value]". An exact name wins; otherwise a unique
// prefix, where several matches with the same argument kind and meaning count as one (as
// --cpu_bind and --cpu-bind do). Orbit's extensions are only considered when no Slurm
// option matches, so they never make a Slurm prefix ambiguous.
func longOption(prog string, argv []string, i int, slurm, ext []*Option) (occurrence, int, error) {
	body := argv[i][2:]
	name, value, hasEq := strings.Cut(body, "=")
	o, ambiguous := matchLong(name, slurm)
	if o == nil && ambiguous == nil {
		o, ambiguous = matchLong(name, ext)
	}
	if ambiguous != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: option '--%s' is ambiguous; possibilities:", prog, body)
		for _, a := range ambiguous {
			fmt.Fprintf(&b, " '--%s'", a.Name)
		}
		b.WriteString("\n")
		return occurrence{}, i + 1, &usageError{b.String()}
	}
	if o == nil {
		return occurrence{}, i + 1, &usageError{fmt.Sprintf("%s: unrecognized option '--%s'\n", prog, body)}
	}
	switch o.Arg {
	case ArgNone:
		if hasEq {
			return occurrence{}, i + 1, &usageError{fmt.Sprintf("%s: option '--%s' doesn't allow an argument\n", prog, o.Name)}
		}
		return occurrence{opt: o}, i + 1, nil
	case ArgOptional:
		return occurrence{opt: o, value: value, hasVal: hasEq}, i + 1, nil
	}
	if hasEq {
		return occurrence{opt: o, value: value, hasVal: true}, i + 1, nil
	}
	if i+1 < len(argv) {
		return occurrence{opt: o, value: argv[i+1], hasVal: true}, i + 2, nil
	}
	return occurrence{}, i + 1, &usageError{fmt.Sprintf("%s: option '--%s' requires an argument\n", prog, o.Name)}
}

// matchLong returns the option name selects, or the ambiguous set in table order.
func matchLong(name string, opts []*Option) (*Option, []*Option) {
	var first *Option
	var ambiguous []*Option
	for _, o := range opts {
		if !strings.HasPrefix(o.Name, name) {
			continue
		}
		if len(o.Name) == len(name) {
			return o, nil
		}
		if first == nil {
			first = o
			continue
		}
		if sameMeaning(first, o) {
			continue
		}
		if ambiguous == nil {
			ambiguous = []*Option{first}
		}
		ambiguous = append(ambiguous, o)
	}
	if ambiguous != nil {
		// glibc keeps scanning for an exact match after finding ambiguity; an exact match
		// was already returned above, so the set stands. It lists in table order.
		return nil, orderByTable(ambiguous, opts)
	}
	return first, nil
}

// sameMeaning is glibc's test for prefix matches that are not ambiguous: same has_arg,
// flag and val. Slurm gives such duplicates the same short letter or long-option value.
func sameMeaning(a, b *Option) bool {
	if a.Arg != b.Arg {
		return false
	}
	return aliases[a.ID] == b.ID || aliases[b.ID] == a.ID
}

// aliases are rows that share one getopt value in Slurm's table.
var aliases = map[string]string{
	"cpu-bind":        "cpu_bind",
	"ntasks-per-node": "tasks-per-node",
	"het-group":       "pack-group",
}

func orderByTable(set, opts []*Option) []*Option {
	in := make(map[*Option]bool, len(set))
	for _, o := range set {
		in[o] = true
	}
	var out []*Option
	for _, o := range opts {
		if in[o] {
			out = append(out, o)
		}
	}
	return out
}

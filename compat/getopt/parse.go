package getopt

import (
	"fmt"
	"strings"
)

// Parse scans argv (argv[0] is the program name glibc prints in errors) as glibc
// getopt_long does with the given table and ordering. It returns the options found, in
// order, and the operands (see Mode). On a bad option it returns the options found before
// it and an *Error; commands that act on each option as it is read apply those first.
func Parse(argv []string, opts []Option, mode Mode) ([]Found, []string, error) {
	var prog string
	if len(argv) > 0 {
		prog = argv[0]
	}
	var found []Found
	var operands []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return found, append(operands, argv[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			switch mode {
			case RequireOrder:
				return found, argv[i:], nil
			case ReturnInOrder:
				found = append(found, Found{Option: -1, Value: a, HasValue: true, Argi: i})
			default:
				operands = append(operands, a)
			}
			continue
		}
		if a[1] == '-' {
			f, next, err := longOption(prog, argv, i, opts)
			if err != nil {
				return found, nil, err
			}
			found = append(found, f)
			i = next
			continue
		}
		argi := i
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := shortOption(opts, c)
			if k < 0 {
				return found, nil, &Error{fmt.Sprintf("%s: invalid option -- '%c'", prog, c)}
			}
			if opts[k].Arg == NoArg {
				found = append(found, Found{Option: k, Argi: argi})
				continue
			}
			switch {
			case j+1 < len(a):
				found = append(found, Found{Option: k, Value: a[j+1:], HasValue: true, Argi: argi})
			case opts[k].Arg == OptionalArg:
				found = append(found, Found{Option: k, Argi: argi})
			case i+1 < len(argv):
				i++
				found = append(found, Found{Option: k, Value: argv[i], HasValue: true, Argi: argi})
			default:
				return found, nil, &Error{fmt.Sprintf("%s: option requires an argument -- '%c'", prog, c)}
			}
			break
		}
	}
	return found, operands, nil
}

// shortOption returns the index of the option with letter c, or -1. glibc never accepts
// ':' or ';' as options: they are syntax of its option string.
func shortOption(opts []Option, c byte) int {
	if c == 0 || c == ':' || c == ';' {
		return -1
	}
	for k := range opts {
		if opts[k].Short == c {
			return k
		}
	}
	return -1
}

// longOption handles argv[i] = "--name[=value]"; it returns the option and the index of the
// last argument it used.
func longOption(prog string, argv []string, i int, opts []Option) (Found, int, error) {
	body := argv[i][2:]
	name, value, hasEq := strings.Cut(body, "=")
	k, ambiguous := matchLong(name, opts, false)
	if k < 0 && ambiguous == nil {
		k, ambiguous = matchLong(name, opts, true)
	}
	if ambiguous != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: option '--%s' is ambiguous; possibilities:", prog, body)
		for _, a := range ambiguous {
			fmt.Fprintf(&b, " '--%s'", opts[a].Long)
		}
		return Found{}, i, &Error{b.String()}
	}
	if k < 0 {
		return Found{}, i, &Error{fmt.Sprintf("%s: unrecognized option '--%s'", prog, body)}
	}
	o := &opts[k]
	switch {
	case o.Arg == NoArg && hasEq:
		return Found{}, i, &Error{fmt.Sprintf("%s: option '--%s' doesn't allow an argument", prog, o.Long)}
	case o.Arg == NoArg:
		return Found{Option: k, Argi: i}, i, nil
	case hasEq || o.Arg == OptionalArg:
		return Found{Option: k, Value: value, HasValue: hasEq, Argi: i}, i, nil
	case i+1 < len(argv):
		return Found{Option: k, Value: argv[i+1], HasValue: true, Argi: i}, i + 1, nil
	}
	return Found{}, i, &Error{fmt.Sprintf("%s: option '--%s' requires an argument", prog, o.Long)}
}

// matchLong returns the index of the option name selects among the options whose Fallback
// is fallback, or -1 and the ambiguous candidates in table order. As glibc does, an exact
// name wins wherever it stands, and a later prefix match is ambiguous only if it differs
// from the first one in Arg or Val.
func matchLong(name string, opts []Option, fallback bool) (int, []int) {
	first := -1
	var ambiguous []int
	for k := range opts {
		o := &opts[k]
		if o.Fallback != fallback || o.Long == "" || !strings.HasPrefix(o.Long, name) {
			continue
		}
		if len(o.Long) == len(name) {
			return k, nil
		}
		if first < 0 {
			first = k
			continue
		}
		if f := &opts[first]; f.Arg == o.Arg && f.Val != "" && f.Val == o.Val {
			continue
		}
		if ambiguous == nil {
			ambiguous = []int{first}
		}
		ambiguous = append(ambiguous, k)
	}
	if ambiguous != nil {
		return -1, ambiguous
	}
	return first, nil
}

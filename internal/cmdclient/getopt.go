package cmdclient

import (
	"fmt"
	"strings"
)

// Arg kinds of an Opt.
const (
	NoArg = iota
	RequiredArg
	OptionalArg
)

// Opt is one option of a command: long name (without "--"), short letter (0 for none), and
// argument kind.
type Opt struct {
	Long  string
	Short byte
	Arg   int
}

// Found is one option occurrence in command-line order. Value is its argument; HasValue
// says whether an optional argument was given.
type Found struct {
	Opt      *Opt
	Value    string
	HasValue bool
}

// Getopt parses args (without argv[0]) as glibc's getopt_long does with permutation: options
// anywhere, "--" ends them, long names may be abbreviated to a unique prefix, short letters
// may be clustered, and an optional argument must be attached (-j123, --jobs=123). It returns
// the options and the operands in order. An error is glibc's message, prefixed by prog
// (argv[0]) and without the final newline.
func Getopt(prog string, args []string, opts []Opt) ([]Found, []string, error) {
	var found []Found
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return found, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, err := lookupLong(prog, name, opts)
			if err != nil {
				return nil, nil, err
			}
			switch o.Arg {
			case NoArg:
				if hasVal {
					return nil, nil, fmt.Errorf("%s: option '--%s' doesn't allow an argument", prog, o.Long)
				}
			case RequiredArg:
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("%s: option '--%s' requires an argument", prog, o.Long)
					}
					i++
					val, hasVal = args[i], true
				}
			}
			found = append(found, Found{Opt: o, Value: val, HasValue: hasVal})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := lookupShort(a[j], opts)
				if o == nil {
					return nil, nil, fmt.Errorf("%s: invalid option -- '%c'", prog, a[j])
				}
				if o.Arg == NoArg {
					found = append(found, Found{Opt: o})
					continue
				}
				rest := a[j+1:]
				if rest != "" {
					found = append(found, Found{Opt: o, Value: rest, HasValue: true})
				} else if o.Arg == RequiredArg {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("%s: option requires an argument -- '%c'", prog, a[j])
					}
					i++
					found = append(found, Found{Opt: o, Value: args[i], HasValue: true})
				} else {
					found = append(found, Found{Opt: o})
				}
				break
			}
		default:
			operands = append(operands, a)
		}
	}
	return found, operands, nil
}

func lookupShort(c byte, opts []Opt) *Opt {
	for i := range opts {
		if opts[i].Short == c && c != 0 {
			return &opts[i]
		}
	}
	return nil
}

func lookupLong(prog, name string, opts []Opt) (*Opt, error) {
	var matches []*Opt
	for i := range opts {
		o := &opts[i]
		if o.Long == "" {
			continue
		}
		if o.Long == name {
			return o, nil
		}
		if name != "" && strings.HasPrefix(o.Long, name) {
			matches = append(matches, o)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return nil, fmt.Errorf("%s: unrecognized option '--%s'", prog, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: option '--%s' is ambiguous; possibilities:", prog, name)
	for _, m := range matches {
		fmt.Fprintf(&b, " '--%s'", m.Long)
	}
	return nil, fmt.Errorf("%s", b.String())
}

package cmdclient

import "github.com/orbit-hpc/orbit/compat/getopt"

// Arg kinds of an Opt.
const (
	NoArg       = int(getopt.NoArg)
	RequiredArg = int(getopt.RequiredArg)
	OptionalArg = int(getopt.OptionalArg)
)

// Opt is one option of a command: long name (without "--"), short letter (0 for none), and
// argument kind.
type Opt struct {
	Long  string
	Short byte
	Arg   int
	// Val groups long names that are one option in Slurm's table (squeue's --node, --nodes
	// and --nodelist): a prefix of several of them is then not ambiguous (glibc's val).
	Val string
}

// Found is one option occurrence in command-line order. Value is its argument; HasValue
// says whether an optional argument was given.
type Found struct {
	Opt      *Opt
	Value    string
	HasValue bool
}

// Getopt parses args (without argv[0]) with compat/getopt in glibc's permuting order:
// options anywhere, "--" ends them, long names may be abbreviated to a unique prefix, short
// letters may be clustered, and an optional argument must be attached (-j123, --jobs=123).
// It returns the options and the operands in order. An error is glibc's message, prefixed
// by prog (argv[0]) and without the final newline.
func Getopt(prog string, args []string, opts []Opt) ([]Found, []string, error) {
	table := make([]getopt.Option, len(opts))
	for i, o := range opts {
		table[i] = getopt.Option{Long: o.Long, Short: o.Short, Arg: getopt.ArgKind(o.Arg), Val: o.Val}
	}
	found, operands, err := getopt.Parse(append([]string{prog}, args...), table, getopt.Permute)
	if err != nil {
		return nil, nil, err
	}
	out := make([]Found, len(found))
	for i, f := range found {
		out[i] = Found{Opt: &opts[f.Option], Value: f.Value, HasValue: f.HasValue}
	}
	return out, operands, nil
}

package options

import (
	"errors"
	"strings"

	"github.com/orbit-hpc/orbit/compat/getopt"
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

// getoptLong scans argv[1:] with compat/getopt as Slurm's commands do (an option string
// starting with '+'): it stops at the first non-option (returning its index) or after "--".
// prog is argv[0] as glibc prints it. On an error it returns what was found so far and the
// error.
func getoptLong(cmd Cmds, argv []string) ([]occurrence, int, error) {
	rows, table := getoptTable(cmd)
	found, operands, err := getopt.Parse(argv, table, getopt.RequireOrder)
	occs := make([]occurrence, len(found))
	for i, f := range found {
		occs[i] = occurrence{opt: rows[f.Option], value: f.Value, hasVal: f.HasValue}
	}
	var ge *getopt.Error
	if errors.As(err, &ge) {
		return occs, 0, &usageError{ge.Msg + "\n"}
	}
	return occs, len(argv) - len(operands), nil
}

// getoptTable returns the rows cmd accepts (Slurm's in table order, then Orbit's
// extensions) and the matching getopt table. Extensions are getopt Fallback options, so
// they never make a Slurm prefix ambiguous; rows sharing one getopt value in Slurm's table
// (see aliases) share a Val, so their common prefixes are not ambiguous.
func getoptTable(cmd Cmds) ([]*Option, []getopt.Option) {
	slurm, ext := optionsFor(cmd)
	rows := append(slurm, ext...)
	table := make([]getopt.Option, len(rows))
	for i, o := range rows {
		val := o.ID
		if a, ok := aliases[val]; ok {
			val = a
		}
		t := getopt.Option{Long: o.Name, Arg: argKinds[o.Arg], Val: val, Fallback: o.Extension}
		if !o.Extension {
			// Orbit's extensions are long-only: a letter would take one from Slurm.
			t.Short = o.Short
		}
		table[i] = t
	}
	return rows, table
}

// argKinds maps the table's argument kinds to getopt's.
var argKinds = map[ArgKind]getopt.ArgKind{
	ArgNone:     getopt.NoArg,
	ArgRequired: getopt.RequiredArg,
	ArgOptional: getopt.OptionalArg,
}

// aliases are rows that share one getopt value in Slurm's table.
var aliases = map[string]string{
	"cpu-bind":        "cpu_bind",
	"ntasks-per-node": "tasks-per-node",
	"het-group":       "pack-group",
}

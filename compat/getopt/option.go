package getopt

// ArgKind is getopt_long's has_arg: whether an option takes a value.
type ArgKind int

// The three argument kinds of getopt_long.
const (
	NoArg       ArgKind = iota // a flag: --hold, -h
	RequiredArg                // --time=10, --time 10, -t10, -t 10
	OptionalArg                // only attached: --nice=5, -j12; --nice alone has no value
)

// Option is one row of a command's table.
type Option struct {
	Long  string  // long name without "--"; "" for a short-only option
	Short byte    // short letter; 0 for a long-only option
	Arg   ArgKind // argument kind
	// Val is glibc's val for long-name matching: prefix matches with the same Arg and the
	// same non-empty Val are one option, not an ambiguity (Slurm's --cpu_bind/--cpu-bind
	// pairs). Empty: the option is distinct from every other.
	Val string
	// Fallback options are matched by long name only when no other option matches the name,
	// exactly or as a prefix, so adding one never makes another option's prefix ambiguous
	// (Orbit's extension options beside Slurm's table).
	Fallback bool
}

// Mode is glibc's ordering, chosen in C by the first character of the option string.
type Mode int

// The orderings of glibc getopt.
const (
	// Permute accepts options anywhere; non-options are returned as operands, in order,
	// followed by everything after "--" (glibc's default).
	Permute Mode = iota
	// RequireOrder ends options at the first non-option (a leading '+'): it and everything
	// after it are the operands.
	RequireOrder
	// ReturnInOrder reports each non-option among the options, where it stands (a leading
	// '-'); only what follows "--" is returned as operands.
	ReturnInOrder
)

// Found is one option, or in ReturnInOrder mode one non-option, in command-line order.
type Found struct {
	Option   int    // index in the table; -1 for a non-option reported in ReturnInOrder mode
	Value    string // the option's argument, or the non-option itself
	HasValue bool   // false for a flag and for an optional argument not given
	Argi     int    // index in argv of the argument where the option or non-option was read
}

// Error is a getopt_long complaint: glibc's message, prefixed by argv[0], without the final
// newline glibc prints after it.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

package cmdclient

import (
	"fmt"
	"io"

	"github.com/orbit-hpc/orbit/compat/version"
)

// Info is what a command prints instead of doing its work: --help, --usage or -V/--version.
type Info int

// The informational actions every Slurm command has.
const (
	InfoNone Info = iota
	InfoHelp
	InfoUsage
	InfoVersion
)

// ParseOptions runs Getopt for command cmd invoked as prog (argv[0]). On a getopt error it
// prints glibc's message and Slurm's `Try "cmd --help" for more information` line to
// stderr, as every Slurm command does, and returns ok false (the command then exits 1).
func ParseOptions(cmd, prog string, args []string, opts []Opt, stderr io.Writer) (found []Found, operands []string, ok bool) {
	found, operands, err := Getopt(prog, args, opts)
	if err != nil {
		fmt.Fprintf(stderr, "%v\nTry \"%s --help\" for more information\n", err, cmd)
		return nil, nil, false
	}
	return found, operands, true
}

// PrintInfo writes what --help (help), --usage (usage) or --version (Slurm's version line)
// prints; InfoNone prints nothing.
func PrintInfo(w io.Writer, what Info, help, usage string) {
	switch what {
	case InfoHelp:
		io.WriteString(w, help)
	case InfoUsage:
		io.WriteString(w, usage)
	case InfoVersion:
		fmt.Fprintln(w, version.String())
	}
}

package options

import "strings"

// Error is a failed parse as the command reports it: Stderr is exactly what the command
// writes to standard error (complete lines), ExitCode its exit status. Stdout is what it
// writes to standard output first: an option's help (--hint=help, --mem-bind=help), which
// Slurm prints there and then exits with an error.
type Error struct {
	Stderr   string
	ExitCode int
	Stdout   string
}

func (e *Error) Error() string {
	if e.Stderr == "" {
		return strings.TrimSuffix(e.Stdout, "\n")
	}
	return strings.TrimSuffix(e.Stderr, "\n")
}

func cmdName(cmd Cmds) string {
	switch cmd {
	case Srun:
		return "srun"
	case Salloc:
		return "salloc"
	}
	return "sbatch"
}

// errorf builds "<cmd>: error: <msg>\n" with Slurm's exit status for a failed option
// setter (exit(-1), so 255) unless code says otherwise.
func cmdError(cmd Cmds, code int, lines ...string) *Error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(cmdName(cmd) + ": error: " + l + "\n")
	}
	return &Error{Stderr: b.String(), ExitCode: code}
}

func usageFailure(cmd Cmds, e *usageError) *Error {
	return &Error{Stderr: e.text + "Try \"" + cmdName(cmd) + " --help\" for more information\n", ExitCode: 255}
}

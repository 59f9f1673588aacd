package cmdclient

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// ExitCodes are a command's own error exits: SLURM_EXIT_ERROR for its errors and
// SLURM_EXIT_IMMEDIATE for an --immediate that gave up, 1 unless the environment says
// otherwise.
type ExitCodes struct{ Error, Immediate int }

// ReadExitCodes reads SLURM_EXIT_ERROR and SLURM_EXIT_IMMEDIATE from env as Slurm's
// commands do at start (_set_exit_code): a value atoi reads as 0 is complained of on stderr
// ("prog: error: SLURM_EXIT_ERROR has zero value") and leaves the default. immediate says
// whether the command reads SLURM_EXIT_IMMEDIATE (srun and salloc; sbatch does not).
func ReadExitCodes(prog string, env []string, stderr io.Writer, immediate bool) ExitCodes {
	e := ExitCodes{Error: 1, Immediate: 1}
	names := []string{"SLURM_EXIT_ERROR"}
	if immediate {
		names = append(names, "SLURM_EXIT_IMMEDIATE")
	}
	for _, name := range names {
		v, ok := jobspec.Lookup(env, name)
		if !ok {
			continue
		}
		n := atoi(v)
		if n == 0 {
			fmt.Fprintf(stderr, "%s: error: %s has zero value\n", prog, name)
			continue
		}
		if name == "SLURM_EXIT_ERROR" {
			e.Error = n
		} else {
			e.Immediate = n
		}
	}
	return e
}

// atoi is C's atoi: leading blanks, a sign, then digits; anything else ends the number, and
// no digits at all is 0.
func atoi(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[:j])
	return n
}

package options

import (
	"errors"
	"testing"
)

// TestCoreSpecThreadSpec: -S and --thread-spec exclude each other when both come from the
// command line or both from the environment (the reference's fatal lines, exit 1); one of
// each keeps the command line's (Slurm's test17.34, test17.40).
func TestCoreSpecThreadSpec(t *testing.T) {
	for _, c := range []struct {
		argv     []string
		env      []string
		stderr   string
		threaded bool
	}{
		{[]string{"sbatch", "--thread-spec=1", "-S1", "s.sh"}, nil, "sbatch: fatal: -S/--core-spec and --thred-spec options are mutually exclusive\n", false},
		{[]string{"sbatch", "s.sh"}, []string{"SBATCH_CORE_SPEC=1", "SBATCH_THREAD_SPEC=1"}, "sbatch: fatal: Both --core-spec and --thread-spec set using environment variables. Those options are mutually exclusive.\n", false},
		{[]string{"sbatch", "--thread-spec=2", "s.sh"}, []string{"SBATCH_CORE_SPEC=1"}, "", true},
		{[]string{"sbatch", "-S2", "s.sh"}, []string{"SBATCH_THREAD_SPEC=1"}, "", false},
	} {
		js, err := ParseSbatch(c.argv, c.env, []byte(okScript), now)
		var oe *Error
		switch {
		case c.stderr != "" && (!errors.As(err, &oe) || oe.Stderr != c.stderr || oe.ExitCode != 1):
			t.Errorf("%v %v: %v, want exit 1 and %q", c.env, c.argv, err, c.stderr)
		case c.stderr == "" && err != nil:
			t.Errorf("%v %v: %v", c.env, c.argv, err)
		case c.stderr == "" && (js.Site.CoreSpec != 2 || js.Site.ThreadSpec != c.threaded):
			t.Errorf("%v %v: core spec %d thread %v, want the command line's 2 (thread %v)", c.env, c.argv, js.Site.CoreSpec, js.Site.ThreadSpec, c.threaded)
		}
	}
}

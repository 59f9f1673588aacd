package cmdclient

import (
	"strings"
	"testing"
)

// TestReadExitCodes: values are read as C's atoi; a zero is complained of and leaves 1.
func TestReadExitCodes(t *testing.T) {
	for _, tt := range []struct {
		env       []string
		immediate bool
		want      ExitCodes
		stderr    string
	}{
		{nil, true, ExitCodes{1, 1}, ""},
		{[]string{"SLURM_EXIT_ERROR=7", "SLURM_EXIT_IMMEDIATE= 9x"}, true, ExitCodes{7, 9}, ""},
		{[]string{"SLURM_EXIT_ERROR=abc", "SLURM_EXIT_IMMEDIATE=0"}, true, ExitCodes{1, 1},
			"srun: error: SLURM_EXIT_ERROR has zero value\nsrun: error: SLURM_EXIT_IMMEDIATE has zero value\n"},
		{[]string{"SLURM_EXIT_IMMEDIATE=0", "SLURM_EXIT_ERROR=-3"}, false, ExitCodes{-3, 1}, ""},
	} {
		var b strings.Builder
		if got := ReadExitCodes("srun", tt.env, &b, tt.immediate); got != tt.want || b.String() != tt.stderr {
			t.Errorf("%q: %+v, stderr %q; want %+v, %q", tt.env, got, b.String(), tt.want, tt.stderr)
		}
	}
}

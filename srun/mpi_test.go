package main

import (
	"bytes"
	"testing"
)

// TestCheckMPI: --mpi=none runs, Slurm's PMI plugins are refused by name (Orbit serves no
// PMI yet), list names what Orbit has. (Unknown types are compared with the reference in
// testsuite/srunopts.)
func TestCheckMPI(t *testing.T) {
	for _, tc := range []struct {
		mpi            string
		code           int
		stdout, stderr string
	}{
		{"", -1, "", ""},
		{"none", -1, "", ""},
		{"list", 0, "MPI plugin types are...\n\tnone\n", ""},
		{"pmi2", 1, "", "srun: error: --mpi=pmi2 is not supported by Orbit yet\n"},
		{"pmix_v4", 1, "", "srun: error: --mpi=pmix_v4 is not supported by Orbit yet\n"},
	} {
		var out, errOut bytes.Buffer
		if code := checkMPI(tc.mpi, &out, &errOut); code != tc.code || out.String() != tc.stdout || errOut.String() != tc.stderr {
			t.Errorf("--mpi=%s: %d %q %q, want %d %q %q", tc.mpi, code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
		}
	}
}

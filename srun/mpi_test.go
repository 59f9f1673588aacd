package main

import (
	"bytes"
	"testing"
)

// TestCheckMPI: none and pmi2 run, Slurm's other PMI plugins are refused by name. (Unknown
// types are compared with the reference in testsuite/srunopts.)
func TestCheckMPI(t *testing.T) {
	for _, tc := range []struct {
		mpi    string
		code   int
		stderr string
	}{
		{"none", -1, ""},
		{"pmi2", -1, ""},
		{"pmix", 1, "srun: error: --mpi=pmix is not supported by Orbit yet\n"},
		{"pmix_v4", 1, "srun: error: --mpi=pmix_v4 is not supported by Orbit yet\n"},
		{"cray_shasta", 1, "srun: error: --mpi=cray_shasta is not supported by Orbit yet\n"},
	} {
		var errOut bytes.Buffer
		if code := checkMPI(tc.mpi, &errOut); code != tc.code || errOut.String() != tc.stderr {
			t.Errorf("--mpi=%s: %d %q, want %d %q", tc.mpi, code, errOut.String(), tc.code, tc.stderr)
		}
	}
}

// TestMPIType: --mpi wins over MpiDefault; openmpi is none; a default Orbit does not run
// leaves the step without PMI.
func TestMPIType(t *testing.T) {
	for _, tc := range []struct{ given, def, want string }{
		{"", "none", "none"},
		{"", "", "none"},
		{"", "pmi2", "pmi2"},
		{"", "pmix", "none"},
		{"", "openmpi", "none"},
		{"openmpi", "pmi2", "none"},
		{"none", "pmi2", "none"},
		{"pmi2", "none", "pmi2"},
		{"pmix", "none", "pmix"},
	} {
		if got := mpiType(tc.given, tc.def); got != tc.want {
			t.Errorf("mpiType(%q, %q) = %q, want %q", tc.given, tc.def, got, tc.want)
		}
	}
}

// Package salloc compares Orbit's salloc with the reference Slurm's: the names of the
// SLURM_* variables the command in an allocation sees, the grant/relinquish lines, exit
// codes and the error texts of bad command lines. record.sh records the reference's answers
// under testdata/; the Go test runs Orbit's salloc against a test cluster and needs no
// reference.
package salloc

// Package hostlist_test is the differential test of Orbit's hostlists against the reference
// Slurm: record.sh stores what Slurm's `scontrol show hostnames|hostlist|hostlistsorted`
// prints for every case in testdata/, and hostlist_test.go runs Orbit's scontrol binary on the
// same cases and compares exit code, stdout and stderr byte for byte. It needs no reference.
package hostlist_test

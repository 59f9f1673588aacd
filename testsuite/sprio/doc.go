// Package sprio compares Orbit's sprio with the reference Slurm's. The reference runs
// priority/basic, so what can be recorded is the refusal under priority/basic, --help,
// --usage and the option errors (record.sh, testdata/); the Go test runs Orbit's sprio
// against a priority/basic test cluster and needs no reference. sprio's multifactor output
// is checked against the documented formula in testsuite/e2e (priority_multifactor_test.go).
package sprio

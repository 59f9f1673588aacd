// Package testsuite holds tests that exercise Orbit as a user or admin would: differential
// tests against golden files recorded from the reference Slurm 22.05 (re-recorded by
// `make compat`), and, as the daemons arrive, clusters of real binaries on loopback.
//
// Tests here may import any Orbit package; nothing may import testsuite.
package testsuite

// Package sdiag compares Orbit's sdiag with the reference Slurm's: --help, --usage, bad
// options, and the statistics report's line structure (labels, order, layout; values differ
// between any two controllers, so numbers, dates and the per-RPC lines are normalised by
// normalise.sed). record.sh records the reference under testdata/; the Go test runs Orbit's
// sdiag against a test cluster and needs no reference.
package sdiag

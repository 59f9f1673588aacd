// Package format holds the differential golden test of Orbit's output-format engine
// (compat/format) against the reference Slurm: record.sh records squeue and sinfo output for
// many format strings together with the `scontrol show -o` data behind them, and the Go test
// rebuilds the rows from that data and compares Orbit's rendering byte for byte.
package format

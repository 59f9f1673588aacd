// Package sacct tests Orbit's sacct: against a real Orbit cluster with embedded accounting
// (job and step lines, states, exit codes, filters, a controller restart), and its error
// paths against goldens recorded from the reference Slurm by record.sh.
package sacct

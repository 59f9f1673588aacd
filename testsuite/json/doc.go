// Package json holds the differential tests of `squeue --json/--yaml` and
// `sinfo --json/--yaml` against goldens recorded from the reference Slurm 22.05
// (record.sh): an Orbit cluster holds the same jobs as the recording, and its output is
// compared after the same normalisation (normalise.go, mirrored in record.sh).
package json

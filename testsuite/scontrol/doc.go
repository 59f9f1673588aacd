// Package scontrol holds the differential test of Orbit's scontrol against the reference
// Slurm: record.sh runs testdata/scenario.txt on the reference and stores what each step
// printed (a step starting "squeue " runs squeue on the same jobs); scontrol_test.go runs the
// same steps on an Orbit cluster and compares after normalise. It must not import daemon code beyond the cluster harness.
package scontrol

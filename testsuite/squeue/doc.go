// Package squeue holds the differential test of Orbit's squeue against the reference Slurm:
// record.sh holds three jobs of its own on the reference (running with an srun step, held,
// held array), runs the command lines of cases.txt and stores what squeue printed and its
// exit status under testdata/; the Go test builds the same three jobs, with the same ids, on
// an Orbit cluster of the reference's shape, runs Orbit's squeue binary with the same command
// lines and compares byte for byte after normalising run times and dates. It needs no
// reference itself.
//
// Only tests live here. They may import compat/, internal/ (testbin, wire) and
// testsuite/cluster.
package squeue

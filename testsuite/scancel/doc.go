// Package scancel holds the differential test of Orbit's scancel against the reference
// Slurm: record.sh holds three jobs of its own on the reference (running with an srun step,
// held, held array), runs the command lines of cases.txt in order (they signal and cancel
// those jobs as they go) and stores what scancel printed and its exit status under
// testdata/; the Go test builds the same three jobs, with the same ids, on an Orbit cluster,
// replays the cases in the same order with Orbit's scancel binary and compares byte for
// byte. It needs no reference itself.
//
// Only tests live here. They may import compat/, internal/ (testbin, wire) and
// testsuite/cluster.
package scancel

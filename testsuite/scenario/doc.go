// Package scenario is the differential scenario harness of issue 5: one scripted scenario
// (testdata/scenario.txt) submits running, pending, held, array, dependent, failed,
// cancelled and timed-out jobs, updates, holds, releases and requeues them, and captures what
// every user command prints (sbatch, srun, squeue, scancel, scontrol, sinfo). record.sh runs
// it against the live reference Slurm and stores each capture under testdata/reference/; the
// Go test runs the same scenario against an Orbit cluster shaped like the reference's and
// compares byte for byte after one normalisation (Normalise in normalise.go). Differences
// Orbit still has are listed, each with its reason, in testdata/known-diffs.txt: the test
// logs them, and fails on any difference not listed and on any listed one that is gone.
//
// The reference's one node is shared with other people, so the scenario never drains it:
// lines marked "orbit" (drain and resume of a node) run on Orbit only and their output is
// checked against the documented shape given by "shape" lines instead of a recording.
//
// The runner (runner.go) and the normaliser are ordinary code so that the recorder
// (./recorder, run by record.sh) and the test share them. Only tests and the recorder import
// this package. It may import compat/ and, in tests, internal/testbin and testsuite/cluster;
// it never links daemon code.
package scenario

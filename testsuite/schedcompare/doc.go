// Package schedcompare runs small scheduling scenarios with priorities and backfill
// (testdata/NAME.txt) on the reference Slurm (record.sh, testdata/NAME.golden) and on an
// Orbit cluster of the same shape (1 node, 2 sockets × 32 cores, sched/backfill,
// priority/basic, default SchedulerParameters), and compares what a user sees in squeue:
// each job's pending reasons in order, and the order in which the jobs start (issue 6's
// acceptance test). The Go test needs no reference.
package schedcompare

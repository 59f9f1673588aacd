// Package jobscripts holds the job-script differential test (issue 4): scripts/ is a
// collection of batch scripts written the way users and sites write them, cases.txt says how
// each is submitted, record.sh runs every case on the reference Slurm and keeps what a user
// would find afterwards (sbatch's output and exit status, the files the job left in the
// submit directory with their contents, the final JobState/ExitCode), and
// jobscripts_test.go runs the same cases on an Orbit cluster and compares byte for byte after
// Normalize, the one place that says what may differ.
//
// The reference has no accounting, so record.sh reads the final state from `scontrol show
// job`; cases whose difference belongs to code outside this suite's fixes are recorded but
// listed in outOfTable with the reason, not compared.
//
// Only tests use this package. It imports the standard library; its test imports
// testsuite/cluster, internal/testbin, internal/wire and compat/states.
package jobscripts

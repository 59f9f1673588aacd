// Package srunopts compares Orbit's srun with the reference Slurm's for the step options
// whose outcome a single command shows: --cpu-freq (SLURM_CPU_FREQ_REQ), --cpu-bind (its
// checks and the SLURM_CPU_BIND* variables under TaskPlugin=task/none), and what --exact,
// --exclusive, --whole and --overlap give a step outside an allocation. record.sh stores the reference's answers
// under testdata/; the Go test runs the same cases on an Orbit cluster of the reference's
// shape and needs no reference. (How steps share a job's CPUs is tested end to end in
// testsuite/e2e, srun_steps_test.go.)
//
// Only tests live here.
package srunopts

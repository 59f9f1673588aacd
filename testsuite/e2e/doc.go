// Package e2e holds end-to-end tests on the real binaries: a testsuite/cluster of slurmctld
// and slurmd on loopback, driven with Orbit's sbatch, squeue and scancel exactly as a user
// drives Slurm, with expectations taken from the reference's formats and messages.
package e2e

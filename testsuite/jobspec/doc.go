// Package jobspec holds the differential test of sbatch's option and #SBATCH parsing:
// testdata/cases.txt lists job scripts and command lines, record.sh submits each to the
// reference Slurm and keeps sbatch's exit status, output and `scontrol show job -o`, and
// the Go test parses the same input with compat/options and compares.
package jobspec

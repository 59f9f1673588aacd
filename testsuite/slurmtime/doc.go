// Package slurmtime_test replays what the reference Slurm 22.05 did with time limits, memory
// sizes, --begin dates and output file patterns (testdata/*.tsv, recorded by record.sh)
// against compat/slurmtime, compat/memsize and compat/filepattern. It needs no reference.
package slurmtime_test

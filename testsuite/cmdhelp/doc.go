// Package cmdhelp compares what every Orbit command prints for --help, --usage and option
// errors (an unknown long or short option, a missing argument), and what scontrol shows of
// features the cluster has none of (licenses, a topology...), with what the
// reference Slurm's commands print: record.sh stores the reference's stdout, stderr and exit status
// under testdata/ and the Go test runs Orbit's commands, each under its own name, against a
// slurm.conf of the reference's shape (TaskPlugin=task/none, which decides srun's, sbatch's
// and salloc's binding-option lines). None of these cases needs a controller.
//
// Only tests live here.
package cmdhelp

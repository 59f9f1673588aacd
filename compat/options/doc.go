// Package options owns the command-line surface of sbatch, srun and salloc: the one option
// table of Slurm 22.05 (long name, short letter, argument kind, input environment variables,
// which commands take it, whether Orbit implements it), glibc getopt_long's parsing rules and
// error texts, #SBATCH directive extraction, the batch-script checks, and the precedence
// #SBATCH < environment < command line. ParseSbatch, ParseSrun and ParseSalloc turn argv,
// environment and script into a compat/jobspec.JobSpec, so the commands stay thin.
//
// An option Orbit does not implement yet is recognised and refused with a message naming
// it, never silently ignored.
//
// It imports only the standard library and other compat/ packages; it must not import
// conf/, internal/, plugins/ or any daemon or command package.
package options

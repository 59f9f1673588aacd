// Package jobspec owns the job specification that sbatch, srun and salloc build from their
// options, #SBATCH directives and input environment: one type for the three commands, the
// structured forms of --dependency and --array, and Validate, which reports Slurm's errors for
// values that parse but cannot describe a job.
//
// It imports only the standard library; it must not import conf/, internal/, plugins/ or any
// daemon or command package. The option parsing that fills a JobSpec lives in compat/options.
package jobspec

// Package filepattern owns Slurm's output, error and input file name patterns (sbatch and
// srun -o/-e/-i) as Slurm 22.05 expands them: for a batch job as slurmstepd does (Expand,
// Path: %j %J %A %a %x %u %N %n %t %s %% with zero-pad widths up to 10); for srun as srun does
// first (SrunExpand: terminal, one task, /dev/null or a name, with %t %n %N %u left for each
// task) and each task's slurmstepd then (StepTaskPath); the backslash escape that turns
// expansion off; and the reduced expansion `scontrol show job` uses for StdOut=/StdErr=/StdIn=
// (ShowPath). Slurm's quirks are kept on purpose: output file names are part of what scripts
// depend on.
//
// It imports only the standard library; it must not import conf/, internal/ or any daemon or
// command code.
package filepattern

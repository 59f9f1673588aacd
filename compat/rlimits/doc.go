// Package rlimits owns Slurm's resource-limit propagation surface: the rlimit names Slurm
// knows (CPU FSIZE DATA STACK CORE RSS NPROC NOFILE MEMLOCK AS, in Slurm's table order), the
// parse of slurm.conf's PropagateResourceLimits / PropagateResourceLimitsExcept and of
// sbatch/srun --propagate (Slurm's parse_rlimits, quirks included), the SLURM_RLIMIT_<NAME>
// variables a command exports with the submitting shell's soft limits ("U" in front when the
// user asked with --propagate), and reading those variables back on the node (Take), which
// removes them from the tasks' environment as slurmstepd does.
//
// Files by role: names.go (the table and Parse), export.go (what the commands collect),
// take.go (what the node reads back).
//
// It imports only the standard library; it must not import conf/, internal/ or any daemon or
// command code.
package rlimits

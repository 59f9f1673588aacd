// Package states owns Slurm's job and node state vocabulary: the job base states and flag
// states with their long (PENDING), compact (PD) and complete (RUNNING,COMPLETING) names, the
// node base states and flags with the long (DRAINING*), compact (drng*) and complete
// (IDLE+DRAIN) names shown by sinfo and scontrol, the parsing of state names given to
// `squeue -t` and `sinfo -t` (with Slurm's error texts), and the job state reason strings
// (Priority, Resources, JobHeldUser, ...) of Slurm 22.05.
//
// It imports only the standard library; it must not import conf/, internal/ or any daemon or
// command package.
package states

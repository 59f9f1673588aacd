// Package taskexec starts one task process the way Slurm's slurmstepd does: fork, set the
// child up (own session, the job's groups, gid and uid, working directory, standard streams,
// default signal dispositions, an empty signal mask, the soft resource limits propagated
// from the submitting shell, set as the user just before exec) and exec the command, with
// the task's own pid in an environment variable (Slurm's SLURM_TASK_PID) and per-task
// variables (SLURM_PROCID, SLURM_LOCALID) in its environment.
//
// Go cannot run code between fork and exec, which is why tasks used to start through a
// /bin/sh shim (`export SLURM_TASK_PID=$$; exec "$@"`): two execs per task, the shell's
// being most of a wide step's cost. Here a small C function (cgo) does the fork as glibc's
// posix_spawn does (clone with CLONE_VM|CLONE_VFORK on a stack of its own, every signal
// blocked around it) and the child, before its one execve, writes its pid into a slot of the
// environment the parent prepared. The child calls only thin system-call wrappers (raw
// syscalls for the credential changes: glibc's setuid would signal the parent's threads).
// Nothing is installed beside the binary and nothing is looked up at run time: every binary
// that links this package carries it. A build without cgo cannot honour SLURM_TASK_PID, so
// Start then fails with ErrUnsupported rather than start a task with a wrong value.
//
// It imports only the standard library and must not import any Orbit package: slurmd/stepd
// links it.
package taskexec

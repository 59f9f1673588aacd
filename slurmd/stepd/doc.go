// Package stepd owns running one job step's tasks on one node, as Slurm's slurmstepd does:
// writing the batch script into the spool directory, forking each task in its own session as
// the job's user, wiring its stdin/stdout/stderr (files opened as the user, /dev/null, or
// caller-supplied streams for srun), giving each task the resource limits propagated from
// the submitting shell (StepSpec.Rlimits, Slurm's set_user_limits), delivering signals,
// enforcing the time limit (the time-out signal, then SIGKILL after KillWait), cancelling,
// killing every process the step left behind, encoding exit statuses the way Slurm reports
// them (ExitCode=rc:sig), and recording on disk what a restarted slurmd needs to find the
// step again (reattach).
//
// It is a library: the slurmstepd binary and slurmd's use of it live elsewhere, and it has no
// network protocol (the control socket path is only recorded). It must not import conf/,
// internal/store or any command or daemon package; it may import compat/ and
// slurmd/taskexec, which forks each task and sets its own variables (SLURM_TASK_PID, its
// pid; SLURM_PROCID, SLURM_LOCALID) before the task's one exec.
//
// # Process tree cleanup
//
// Without cgroups, a step must still find processes that left the task's process group and
// session (`setsid sleep 1000 &` in a job script). Two mechanisms work together:
//
//   - The supervisor makes itself a child subreaper (PR_SET_CHILD_SUBREAPER) on the first
//     Start, so orphaned descendants of tasks are reparented to the supervisor instead of init.
//     They cannot escape by double-forking, and the supervisor reaps them.
//   - A /proc walk (taken periodically while the step runs, and again in a loop at step end)
//     attributes processes to the step: the tasks, everything in a task's session or process
//     group, descendants (by ppid) of those, processes seen as members before (pid plus start
//     time, so a recycled pid is not mistaken), and — when this process supervises only one
//     step, as slurmstepd does — any child reparented to the supervisor that is not a process
//     this package started. At step end every member is sent SIGKILL until none is left
//     (after KillWait's grace, when the step was cancelled or timed out: graceLeftovers).
//     A step that plainly left nothing (its tasks reaped, their process groups gone, and
//     the supervisor without a child it did not start) ends without that walk: every
//     survivor would descend from a task, and so be such a child once its parents died.
//
// The subreaper alone is not enough when one process supervises several steps (tests, or an
// emulated node): an orphan reparented to the supervisor no longer says which step it came
// from, so the periodic walk records it while its parent is still alive. The walk alone is
// not enough either: a process started and orphaned between two walks would reparent to init
// and be lost. With both, a single-step supervisor (the real slurmstepd) loses nothing.
//
// Because the subreaper inherits every orphan, this package reaps all children of the process
// itself (one goroutine blocked in waitid with WNOWAIT, which dispatches each exit to the
// task that waits for it and reaps unknown pids). A process that uses Start must therefore not
// wait for other children itself (os/exec's Wait would race with the reaper).
//
// # Output files
//
// Output files are opened by the supervisor, as the job's user, before the task is forked:
// a goroutine locks itself to an OS thread, switches that thread alone to the job's
// supplementary groups, gid and uid (raw per-thread setgroups/setresgid/setresuid, not Go's
// process-wide wrappers), opens the files and exits without unlocking, so the runtime
// discards the thread. This is what Slurm does (it drops privileges, opens, then reclaims
// them). Opening as root and then fchown'ing would let a user create or truncate files
// anywhere root can (`-o /etc/...`); opening in the child after setuid would need code between
// fork and exec, which Go does not offer. Files therefore belong to the job's uid and
// permissions are the user's own.
package stepd

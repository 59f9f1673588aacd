// Package builtin is sched/builtin as Slurm 22.05 does it: strict priority order, no
// backfill. Among the jobs the controller marks eligible, in Slurm's queue order (Queue:
// jobs in advance reservations, then partition PriorityTier, then priority, submit time and
// id), each job that fits starts; the first job of a partition that does not fit gets
// reason Resources and every later eligible job of that partition reason Priority, so
// nothing overtakes it. Node choice is plugins/sched/selection's, on the nodes advance
// reservations leave the job (Resvs).
//
// Main is the same pass as a function: sched/backfill runs it at every call before its own
// backfill pass, as Slurm's main scheduler runs beside the backfill thread.
//
// It imports plugins/scheduler, plugins/sched/selection, compat/states and the standard
// library only; never the controller.
package builtin

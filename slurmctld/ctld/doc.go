// Package ctld is Orbit's controller, the daemon behind slurmctld: it owns the truth about
// nodes, partitions and jobs, serves the RPC endpoints the commands and slurmd call, runs the
// scheduling cycle, launches batch jobs on nodes, enforces time limits and watches node health.
//
// Shape (DESIGN.md §2, §5):
//
//   - State lives in memory (tables.go) and in internal/store (SQLite in StateSaveLocation).
//     Every change is a typed request (a change, state_apply.go) applied by ONE function,
//     Controller.apply, which writes the store batch and the memory tables together, under
//     the state lock, in the same order. Handlers stamp ids and times before calling apply;
//     apply never reads the clock, so it is deterministic.
//   - A reply that says "accepted" (a job id, a cancel, a registration) is sent only after the
//     store has committed the change: the batch is enqueued under the lock (disk order equals
//     memory order) and waited for outside it (many requests share one group commit).
//   - Reads are served from memory under an RWMutex and return copies. Batch scripts and
//     environments are the exception: they are stored beside the job in the same batch and
//     read back only to launch the job, answer sacct (job_record_script.go) or `scontrol write
//     batch_script` (job_batch_script.go), as Slurm keeps them in StateSaveLocation.
//   - Network calls to nodes (launch, signal, terminate, ping) never hold the state lock;
//     they run in the launch agent's worker pool (launch_agent.go).
//   - Every endpoint reads the same way: authenticate (rpcauth) → authorize → validate →
//     default → apply → wait for durability → reply. One message family per file.
//
// Scheduling (DESIGN.md §6): each cycle (sched_loop.go, sched_cycle.go) the controller
// decides which pending jobs are eligible and why the others wait, sends the scheduler plugin
// what changed (sched_delta.go), asks it for a plan and verifies every entry against its
// tables before applying it (sched_verify.go). The plugin is SchedulerType's process, run
// by slurmctld/schedhost, or sched/builtin linked in-process when none is given.
// select.go's node selection serves will-run answers (job_will_run.go). Pending reasons are
// scheduler output, kept in memory only and recomputed after a restart.
//
// Advance reservations (resv_*.go): scontrol create, update and delete them through the
// same apply path; the plugin sees them in its State and keeps jobs to them, and
// verifyStart refuses any start a reservation forbids, whoever proposed it. Their windows end
// in the limits loop (resv_end.go).
//
// Simulation (sim.go, sim_node.go): Sim runs this controller in virtual time for ssim, built
// with Options.Manual (no loop or agent worker of its own); the caller owns the clock and
// calls the submit and completion handlers, the scheduling cycle and the timers' work
// directly, and emulated nodes take the launch agent's queued calls in place of slurmd.
//
// This package must not import any command package, slurmd, or the plugin host.
package ctld

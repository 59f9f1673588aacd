// Command ssim is Orbit's trace simulator: it replays a workload — a Standard Workload Format
// trace (--swf, the Parallel Workloads Archive's format) or a `sacct -P` dump of a real site
// (--sacct) — on the cluster an ordinary slurm.conf describes (-f), through the real
// controller and scheduler plugin code (SchedulerType, SchedulerParameters) in virtual
// time, and prints utilization, mean wait, mean bounded slowdown (τ = 10 s) and makespan;
// --csv writes one record per job. It answers "what would this configuration have done with these jobs?".
//
// Files by role: options.go (command line, --help), trace.go (the job record both readers
// produce), swf.go and sacct_dump.go (the readers), cluster.go (nodes and partitions from
// slurm.conf, processors to nodes), engine.go (the Engine interface and the harness engine),
// engine_ctld.go (the controller engine), metrics.go (the figures and their definitions),
// csv.go (per-job records), main.go.
//
// The default engine (ctldEngine, --engine ctld) runs the real controller, slurmctld/ctld's
// Sim, in virtual time: jobs enter through the controller's submit handler at their submit
// times; its eligibility, the real plugin's plan (sched/builtin or sched/backfill linked
// in-process), its verification and its apply path decide every start; state goes to a real
// SQLite store in a temporary directory (on /dev/shm, where the store's fsync costs
// nothing); emulated nodes with no slurmd process end each job at its trace runtime through
// the controller's completion handler, or the controller's time-limit timer ends it TIMEOUT
// at its limit plus OverTimeLimit, as it would a real node's job. The clock is the
// controller's Options.Now, and nothing runs between the engine's calls, so the clock jumps
// from event to event (next submit, job end, time limit, due backfill or sched_interval
// pass) instead of ticking. The harness engine (--engine harness) drives
// plugins/scheduler's Harness instead: the same plugin code with a minimal stand-in for the
// controller; it is faster, and the two agree on every test scenario.
//
// It may import conf/, compat/, internal/cmdclient, internal/wire, plugins/... and
// slurmctld/ctld (and with it the store); it must never link slurmd/, satellited/ or the
// plugin host (slurmctld/schedhost): no process is started, plugins are linked in-process.
package main

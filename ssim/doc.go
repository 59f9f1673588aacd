// Command ssim is Orbit's trace simulator: it replays a workload — a Standard Workload Format
// trace (--swf, the Parallel Workloads Archive's format) or a `sacct -P` dump of a real site
// (--sacct) — on the cluster an ordinary slurm.conf describes (-f), through the real
// scheduler plugin code (SchedulerType, SchedulerParameters) in virtual time, and prints
// utilization, mean wait, mean bounded slowdown (τ = 10 s) and makespan; --csv writes one
// record per job. It answers "what would this configuration have done with these jobs?".
//
// Files by role: options.go (command line, --help), trace.go (the job record both readers
// produce), swf.go and sacct_dump.go (the readers), cluster.go (nodes and partitions from
// slurm.conf, processors to nodes), engine.go (the Engine interface and the harness engine),
// metrics.go (the figures and their definitions), csv.go (per-job records), main.go.
//
// The engine is behind the Engine interface. Today's engine (harnessEngine) drives
// plugins/scheduler's Harness: the plugin code is the real sched/builtin or sched/backfill,
// linked in-process, and the Harness stands in for slurmctld with a minimal verification of
// every start. The controller-driven engine that replaces it will need, from slurmctld/ctld:
// a clock it does not read from the OS (ctld's Options.Now, advanced by the engine, and
// every timer — sched_interval, bf_interval, MinJobAge purges, SlurmdTimeout — driven from
// it rather than from time.Ticker); a submit path that takes a job with a given submit time
// without an RPC round trip per job (or an in-process RPC); a node emulation that registers
// the slurm.conf's nodes without slurmd processes and ends each job at its trace runtime
// (or its time limit, as slurmstepd would) by reporting completion to the controller, with no
// processes launched; and a way to ask "is the controller idle until time T?" so the engine
// can jump the clock to the next submit or job end instead of ticking.
//
// It may import conf/, compat/, plugins/... and internal/cmdclient; it must never import
// slurmctld/ or slurmd/ (until the controller engine lands) nor the store.
package main

// Package store owns slurmctld's durable state: the SQLite file orbit_state.db in
// StateSaveLocation, the lock that keeps a second controller away from it, and the single
// writer goroutine that makes every change durable before the controller acknowledges it.
//
// The store is deliberately generic. It knows record kinds and keys with opaque values, named
// integer counters (the next job id), an append-only accounting table (finished jobs, read by
// sacct) and batches of mutations; it does not know what a job, a node or a step looks like —
// the controller encodes its records as bytes. The controller keeps its tables in memory and
// reads them from here only at startup (Load, Counter); run-time reads are served from memory.
//
// Writes go through Commit (or Enqueue then Pending.Wait): one writer goroutine gathers the
// batches queued by concurrent callers into one SQLite transaction (group commit), so one
// fsync covers many batches and durability does not cap throughput. Batches commit in the
// order they were queued, each atomically, and a failing batch does not fail the others of
// its group. A syncer goroutine beside the writer fsyncs the write-ahead log after each
// COMMIT and only then releases the group's waiters, so the next group is written while
// the last one's fsync runs (group.go).
//
// This package must not import wire, auth, conf, compat or any daemon package: it sits below
// all of them.
package store

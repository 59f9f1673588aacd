// Package scheduler is the contract between slurmctld and a scheduler plugin, and the SDK a
// plugin author imports: the cluster state a plugin mirrors (State, fed by Delta), the Plan it
// returns from one Schedule call per cycle, the go-plugin handshake and transport that carry
// them between processes, and an in-process harness to test a plugin without a cluster.
//
// A plugin proposes; the controller verifies every plan entry against its own tables before
// applying it (DESIGN.md §6), so nothing a plugin returns can double-book a node or start a
// job the controller does not consider eligible. That includes advance reservations
// (State.Reservations, Job.Reservation): a plugin that ignores them sees its starts on
// reserved nodes refused; ReservedNodes says what they allow a job.
//
// It must not import the controller (slurmctld/...), the store or any command: a plugin
// author links only this package, compat/ and the standard library.
package scheduler

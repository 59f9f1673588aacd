// Package node is the slurmd daemon as a library: it hosts one node or many emulated nodes in
// one process behind one listener, registers each with the controller at start (and again
// when the controller asks), answers the controller's broadcasts forwarded down the
// TreeWidth tree for all its nodes at once (forward.go), verifies every request (rpcauth)
// and accepts launch, signal and terminate only from root or SlurmUser, checks the controller's launch credential before running anything,
// starts one slurmstepd per batch job and per srun step on each node (slurmd/stepdlaunch is
// the contract; step_launch.go), and finds the steps again from their state files after a
// restart (reattach). It also serves the local auth socket for unprivileged commands.
// Registrations of many hosted nodes travel in batches (register_batch.go), and a test-only
// list of emulated nodes that do not answer stands in for dead nodes (emulate.go).
//
// It must not import the controller, the store, commands or test helpers (internal/testbin):
// the node daemon links none of them. StartTest (testing.go) runs a real daemon in-process.
package node

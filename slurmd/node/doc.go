// Package node is the slurmd daemon as a library: it hosts one node or many emulated nodes in
// one process behind one listener, registers each with the controller and re-registers as the
// heartbeat, verifies every request (rpcauth) and accepts launch, signal and terminate only
// from root or SlurmUser, checks the controller's launch credential before running anything,
// starts one slurmstepd per batch job (slurmd/stepdlaunch is the contract), and finds the
// steps again from their state files after a restart (reattach). It also serves the local
// auth socket for unprivileged commands.
//
// It must not import the controller, the store, commands or test helpers (internal/testbin):
// the node daemon links none of them. StartTest (testing.go) runs a real daemon in-process.
package node

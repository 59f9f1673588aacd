package cluster

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// deadNodesFile is where the node daemon reads the emulated nodes that do not answer
// (node.DeadNodesEnv).
func (c *Cluster) deadNodesFile() string { return filepath.Join(c.Dir, "run", "dead-nodes") }

// SetDeadNodes makes the nodes of the hostlist expr stop answering (an empty expr: every node
// answers again): the emulating slurmd drops the broadcasts sent to them, as a node that
// died would, while the daemon itself lives on. It takes effect within a fraction of a
// second (the daemon rereads the list when it changes).
func (c *Cluster) SetDeadNodes(t testing.TB, expr string) {
	t.Helper()
	tmp := c.deadNodesFile() + ".tmp"
	if err := os.WriteFile(tmp, []byte(expr+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, c.deadNodesFile()); err != nil {
		t.Fatal(err)
	}
}

// pollInterval is how often a wait on the whole node table asks the controller: every
// 100 ms, less often for large clusters, where each answer lists thousands of nodes and the
// polling itself would take a good part of the controller's CPU (50 µs per node: 1 s at
// 20,000 nodes).
func (c *Cluster) pollInterval() time.Duration {
	return max(100*time.Millisecond, time.Duration(c.Opts.Nodes)*50*time.Microsecond)
}

// startBound bounds the wait for every node to register: waitBound, plus 5 ms per node for
// emulated clusters of thousands of nodes (a guard against hanging, not an expectation).
func (c *Cluster) startBound() time.Duration {
	return waitBound + time.Duration(c.Opts.Nodes)*5*time.Millisecond
}

package cluster

import (
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// Nodes returns the controller's node table (state, reason) as sinfo and scontrol read it.
func (c *Cluster) Nodes(t testing.TB) []wire.NodeInfo {
	t.Helper()
	var rep wire.NodeInfoReply
	if err := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		t.Fatalf("cluster: node info: %v", err)
	}
	return rep.Nodes
}

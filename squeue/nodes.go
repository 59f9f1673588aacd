package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// mapNodes is Slurm's _filter_nodes for -w: each name given must be a node of the cluster,
// by NodeName or NodeHostname ("localhost" is this host), and stands for that node's name;
// the first that is none ends squeue with "Invalid node name X" (false).
func mapNodes(c *cmdclient.Client, p *params, stderr io.Writer) bool {
	if p.nodes == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*c.MessageTimeout+time.Duration(c.ConnectRetries)*time.Second)
	defer cancel()
	var rep wire.NodeInfoReply
	if err := c.Call(ctx, wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		fmt.Fprintf(stderr, "slurm_load_node error: %s\n", cmdclient.AsError(err).Text)
		return false
	}
	mapped := make(map[string]bool, len(p.nodes))
	for _, name := range p.nodeOrder {
		look := name
		if strings.EqualFold(name, "localhost") {
			host, _ := os.Hostname()
			look, _, _ = strings.Cut(host, ".")
		}
		found := ""
		for i := range rep.Nodes {
			if n := &rep.Nodes[i]; n.Name == look || n.Hostname == look {
				found = n.Name
				break
			}
		}
		if found == "" {
			fmt.Fprintf(stderr, "squeue: error: Invalid node name %s\n", name)
			return false
		}
		mapped[found] = true
	}
	p.nodes = mapped
	return true
}

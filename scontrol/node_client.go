package main

import (
	"context"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// localNode is the node of slurm.conf this scontrol runs on, as Slurm's commands guess it:
// the named one, else the first whose NodeHostname is this host's short name, else (Orbit's
// emulated nodes share one machine) the first whose address is a loopback one.
func (c *cli) localNode(name string) *conf.Node {
	cfg := c.client().Conf
	if name != "" {
		for _, n := range cfg.Nodes {
			if n.Name == name {
				return n
			}
		}
		return nil
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	for _, n := range cfg.Nodes {
		if n.Hostname == host {
			return n
		}
	}
	for _, n := range cfg.Nodes {
		if ip := net.ParseIP(n.Addr); n.Addr == "localhost" || ip != nil && ip.IsLoopback() {
			return n
		}
	}
	return nil
}

// nodeAddr is where node n's slurmd listens.
func (c *cli) nodeAddr(n *conf.Node) string {
	port := uint32(n.Port)
	if port == 0 {
		port = c.client().Conf.SlurmdPort
	}
	return net.JoinHostPort(n.Addr, strconv.Itoa(int(port)))
}

// callNode sends one request to node n's slurmd.
func (c *cli) callNode(n *conf.Node, t wire.MsgType, req, resp any) error {
	return c.callSlurmd(c.nodeAddr(n), t, req, resp)
}

// callSlurmd sends one request to the slurmd at addr, bounded as a call to the controller.
func (c *cli) callSlurmd(addr string, t wire.MsgType, req, resp any) error {
	cl := c.client()
	ctx, cancel := context.WithTimeout(context.Background(), 2*cl.MessageTimeout)
	defer cancel()
	return wire.Call(ctx, "tcp", addr, t, req, resp, wire.ClientOptions{MessageTimeout: cl.MessageTimeout, Signer: cl.Signer()})
}

package cluster

import (
	"fmt"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/node"
)

// KillNodeDaemon kills slurmd with SIGKILL, as a crash would, and reaps it; the slurmstepd
// processes it started live on (they run in their own sessions). In-process it closes the
// node daemon cleanly instead, which leaves them running too but is not a crash: tests that
// need one use the binaries.
func (c *Cluster) KillNodeDaemon(t testing.TB) {
	t.Helper()
	if c.in != nil {
		if c.in.node != nil {
			c.in.node.Close()
			c.in.node = nil
		}
		return
	}
	if c.slurmd == nil {
		return
	}
	c.slurmd.Process.Kill()
	c.slurmd.Wait()
	c.slurmd = nil
}

// RestartNodeDaemon starts slurmd again (after KillNodeDaemon) and waits until the controller
// has the new daemon's registration of every node.
func (c *Cluster) RestartNodeDaemon(t testing.TB) {
	t.Helper()
	if c.slurmd != nil || c.in != nil && c.in.node != nil {
		c.KillNodeDaemon(t)
	}
	before := c.slurmdStarts(t)
	// Registrations carry the daemon's start in whole seconds: start the new daemon in a
	// later second than the old one, so its registrations can be told apart.
	latest := int64(0)
	for _, s := range before {
		latest = max(latest, s)
	}
	for deadline := time.Now().Add(waitBound); time.Now().Unix() <= latest && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if c.in != nil {
		d, err := node.Start(node.Options{
			ConfPath:      c.ConfPath,
			Config:        c.in.cfg,
			NodeNames:     fmt.Sprintf("n[1-%d]", c.Opts.Nodes),
			StepdPath:     testbin.Path(t, "slurmd/slurmstepd"),
			DeadNodesFile: c.deadNodesFile(),
			Logger:        c.in.logger(t, c.in.cfg.SlurmdLogFile, "n1", "n1"),
			LogFile:       conf.ExpandNodePattern(c.in.cfg.SlurmdLogFile, "n1", "n1"),
		})
		if err != nil {
			c.Fatalf(t, "cluster: restarting the in-process slurmd: %v", err)
		}
		c.in.node = d
	} else {
		c.slurmd = c.startDaemon(t, "slurmd", "-D", "-f", c.ConfPath, "-N", fmt.Sprintf("n[1-%d]", c.Opts.Nodes))
	}
	deadline := time.Now().Add(waitBound)
	for time.Now().Before(deadline) {
		now, fresh := c.slurmdStarts(t), 0
		for name, s := range now {
			if s > before[name] {
				fresh++
			}
		}
		if fresh == c.Opts.Nodes {
			return
		}
		c.checkAlive(t)
		time.Sleep(100 * time.Millisecond)
	}
	c.Fatalf(t, "cluster: restarted slurmd did not register every node within %v", waitBound)
}

// slurmdStarts is each node's slurmd start time as the controller last heard it.
func (c *Cluster) slurmdStarts(t testing.TB) map[string]int64 {
	t.Helper()
	var rep wire.NodeInfoReply
	if err := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{}, &rep); err != nil {
		t.Fatalf("cluster: node info: %v", err)
	}
	out := map[string]int64{}
	for _, n := range rep.Nodes {
		out[n.Name] = n.SlurmdStart
	}
	return out
}

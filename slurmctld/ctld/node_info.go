package ctld

import (
	"context"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleNodeInfo serves MsgNodeInfo (sinfo, scontrol show node/partition): the node table in
// configuration order, and every partition.
func (c *Controller) handleNodeInfo(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.NodeInfoRequest)
	want := map[string]bool{}
	for _, n := range r.NodeNames {
		want[n] = true
	}
	hide := r.HideHidden && !c.privileged(id)
	now := c.now()
	if hide && !c.slurmUser(id.UID) {
		// Partitions whose AllowGroups leave the user out are hidden too: look the user's
		// groups up first, outside the lock (part_access_groups.go).
		c.mu.RLock()
		groups := c.t.partGroupNames()
		c.mu.RUnlock()
		if len(groups) > 0 {
			c.groups.load(id.UID, groups, now)
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	rep := &wire.NodeInfoReply{LastUpdate: c.now().Unix()}
	partsOf := map[string][]string{}
	for _, pn := range c.t.partOrder {
		for _, n := range c.t.parts[pn].nodes {
			partsOf[n] = append(partsOf[n], pn)
		}
	}
	resvFlags := c.t.nodeResvFlags(c.now().Unix()) // resv_record.go: RESERVED, MAINT
	planned := c.plannedNodes()
	for _, name := range c.t.nodeOrder {
		if len(want) > 0 && !want[name] {
			continue
		}
		n := c.t.nodes[name]
		cf := n.conf
		rep.Nodes = append(rep.Nodes, wire.NodeInfo{
			Name:           name,
			Arch:           n.rec.Arch,
			OS:             n.rec.OS,
			Hostname:       cf.Hostname,
			Addr:           c.nodeAddr(n),
			State:          uint32(plannedState(n, planned[name]) | resvFlags[name]),
			CPUs:           n.cpus(),
			AllocCPUs:      n.busyCPUs(),
			Boards:         uint32(cf.Boards),
			Sockets:        uint32(cf.Sockets),
			CoresPerSocket: uint32(cf.CoresPerSocket),
			ThreadsPerCore: uint32(cf.ThreadsPerCore),
			RealMemory:     cf.RealMemory,
			AllocMemory:    n.allocMem,
			TmpDisk:        uint64(cf.TmpDisk),
			Owner:          c.nodeOwner(n),
			Gres:           c.nodeGresText(n), // gres.go
			Partitions:     partsOf[name],
			Reason:         n.rec.Reason,
			ReasonUID:      n.rec.ReasonUID,
			ReasonTime:     n.rec.ReasonTime,
			BootTime:       n.rec.BootTime,
			SlurmdStart:    n.rec.SlurmdStart,
			LastBusy:       n.lastBusy,
			Version:        n.rec.Version,
			Port:           c.nodePort(cf),
			CPUEfctv:       n.cpus() - uint32(cf.CoreSpecCount)*uint32(max(cf.ThreadsPerCore, 1)),
			CfgTRES:        joinTRES(nodeCfgTRES(cf), c.nodeGresTRES(n, false)), // gres.go
			AllocTRES:      joinTRES(nodeAllocTRES(n), c.nodeGresTRES(n, true)),
			CPULoad:        wire.NoVal,
			FreeMem:        wire.NoVal64,
			GresUsed:       nodeGresUsed(c.config().GresTypes, n.gres), // gres.go
		})
		nodeFeaturesInfo(n, &rep.Nodes[len(rep.Nodes)-1]) // node_features.go
		if n.load.Known && !n.noRespond {
			ni := &rep.Nodes[len(rep.Nodes)-1]
			ni.CPULoad, ni.FreeMem = n.load.CPULoad, n.load.FreeMem
		}
	}
	for _, pn := range c.t.partOrder {
		p := c.t.parts[pn]
		if hide && !c.partVisible(p, id.UID, now) {
			continue
		}
		rep.Partitions = append(rep.Partitions, wire.PartitionInfo{
			Name:        pn,
			Nodes:       hostlist.Compress(p.nodes),
			Default:     p.conf.Default,
			State:       p.conf.State,
			MaxTime:     p.conf.MaxTime,
			DefaultTime: p.conf.DefaultTime,
			MaxNodes:    p.conf.MaxNodes,
			MinNodes:    p.conf.MinNodes,
			TotalCPUs:   p.cpus,
			TotalNodes:  uint32(len(p.nodes)),
		})
		c.partInfoExtra(p, &rep.Partitions[len(rep.Partitions)-1]) // node_info_show.go
	}
	return rep, nil
}

// plannedNodes are the nodes the last backfill plan holds for pending jobs (their expected
// starts' nodes). Called with c.mu held.
func (c *Controller) plannedNodes() map[string]bool {
	var out map[string]bool
	for _, r := range c.plug.resv {
		for _, n := range r.Nodes {
			if out == nil {
				out = map[string]bool{}
			}
			out[n] = true
		}
	}
	return out
}

// plannedState is n's displayed state with PLANNED when it is planned for a pending job and
// runs none, as Slurm's backfill marks such nodes (sinfo's "plnd"): a node running a job is
// allocated to Slurm, mixed or not, and is not marked.
func plannedState(n *nodeEntry, planned bool) states.NodeState {
	s := n.displayState()
	if planned && n.jobs == 0 {
		s |= states.NodePlanned
	}
	return s
}

// partVisible is Slurm's _part_is_visible for a user who is not an operator: a partition is
// hidden when Hidden=YES or when its AllowGroups leave the user out (a user whose groups
// are not known yet sees it). Called with c.mu held.
func (c *Controller) partVisible(p *partEntry, uid uint32, now time.Time) bool {
	if p.conf.Hidden {
		return false
	}
	if p.conf.AllowGroups == "" || c.slurmUser(uid) {
		return true
	}
	in, known := c.groups.inAny(uid, p.conf.AllowGroups, now)
	return in || !known
}

package main

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/format"
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// nodeRec is one node as sinfo sees it: the controller's record, with the state sinfo
// derives from it (MIXED when only some CPUs are allocated) and whether a filter removed it.
type nodeRec struct {
	*wire.NodeInfo
	state     states.NodeState
	reasonUID uint32 // format.NoVal when the node has no reason
	addr      string // NodeAddr without the slurmd port
	gone      bool
}

// group is one line of sinfo before printing (Slurm's sinfo_data_t): the nodes of one
// partition (or of several, for -R and formats without a partition column) that agree on
// every shown attribute.
type group struct {
	part    *wire.PartitionInfo // nil: no partition
	partIdx int
	row     format.SinfoRow

	nodes, hosts, addrs []string
	nodeIn              map[string]bool
	reasonTime          int64
	cpuLoad             [2]uint32 // min, max
	freeMem             [2]uint64
}

// newNodeRecs prepares the node table: sinfo turns a node with some (not all) CPUs
// allocated into MIXED unless it is draining.
func newNodeRecs(nodes []wire.NodeInfo) []*nodeRec {
	out := make([]*nodeRec, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		st := states.NodeState(n.State)
		if st&states.NodeDrain == 0 {
			cpus := n.CPUs
			if n.CPUEfctv != 0 {
				cpus = n.CPUEfctv
			}
			idle := int64(cpus) - int64(n.AllocCPUs)
			if idle != 0 && idle != int64(cpus) {
				st = st&states.NodeStateFlags | states.NodeMixed
			}
		}
		uid := n.ReasonUID
		if n.Reason == "" {
			uid = format.NoVal
		}
		addr := n.Addr
		if h, _, err := net.SplitHostPort(addr); err == nil {
			// The controller reports where it reaches slurmd (host:port); sinfo shows
			// NodeAddr, the host alone.
			addr = h
		}
		out[i] = &nodeRec{NodeInfo: n, state: st, reasonUID: uid, addr: addr}
	}
	return out
}

// buildGroups groups the nodes into sinfo's lines as _build_sinfo_data does: every shown
// partition gets a line even without nodes (partition views), filtered-out nodes are dropped,
// then each partition's nodes, in node-table order, join the first line they match.
func buildGroups(p *params, parts []wire.PartitionInfo, nodes []*nodeRec) []*group {
	var list []*group
	wanted := func(name string) bool { return p.partList == nil || slices.Contains(p.partList, name) }
	if !p.nodeView && p.flags.partition {
		for j := range parts {
			if wanted(parts[j].Name) {
				list = append(list, newGroup(&parts[j], j))
			}
		}
	}
	if p.filtering {
		for _, n := range nodes {
			n.gone = p.filterOut(n)
		}
	}
	byName := make(map[string]*nodeRec, len(nodes))
	for _, n := range nodes {
		byName[n.Name] = n
	}
	for j := range parts {
		part := &parts[j]
		if p.filtering && !wanted(part.Name) {
			continue
		}
		for _, n := range partitionNodes(part, nodes, byName) {
			if n.gone {
				continue
			}
			list = p.insert(list, part, j, n)
		}
	}
	return list
}

// partitionNodes lists a partition's nodes in node-table order (Slurm walks the partition's
// node index ranges, which follow the node table).
func partitionNodes(part *wire.PartitionInfo, nodes []*nodeRec, byName map[string]*nodeRec) []*nodeRec {
	in := map[string]bool{}
	if part.Nodes != "" {
		if hl, err := hostlist.Parse(part.Nodes); err == nil {
			for _, h := range hl.Hosts() {
				in[h] = true
			}
		}
	}
	// A node may also name its partitions itself; either way counts.
	var out []*nodeRec
	for _, n := range nodes {
		if in[n.Name] || slices.Contains(n.Partitions, part.Name) {
			out = append(out, n)
		}
	}
	return out
}

func newGroup(part *wire.PartitionInfo, idx int) *group {
	return &group{part: part, partIdx: idx, nodeIn: map[string]bool{}}
}

// insert adds node n of partition part to the first line that matches it, or to a new line
// (Slurm's _insert_node_ptr).
func (p *params) insert(list []*group, part *wire.PartitionInfo, idx int, n *nodeRec) []*group {
	for _, g := range list {
		if !p.matchPart(g, part) {
			continue
		}
		if g.row.NodesTotal > 0 && !p.matchNode(g, n) {
			continue
		}
		p.update(g, n)
		return list
	}
	g := newGroup(part, idx)
	p.update(g, n)
	return append(list, g)
}

// matchPart reports whether a node of part may join line g (Slurm's _match_part_data).
func (p *params) matchPart(g *group, part *wire.PartitionInfo) bool {
	if p.reasons || part == g.part {
		return true
	}
	if part == nil || g.part == nil {
		return false
	}
	a, b, f := part, g.part, &p.flags
	switch {
	case f.partition && a.Name != b.Name,
		f.avail && !strings.EqualFold(a.State, b.State),
		f.groups && a.AllowGroups != b.AllowGroups,
		f.jobSize && (a.MinNodes != b.MinNodes || a.MaxNodes != b.MaxNodes),
		f.defaultTime && a.DefaultTime != b.DefaultTime,
		f.maxTime && a.MaxTime != b.MaxTime,
		f.root && a.RootOnly != b.RootOnly,
		f.oversubscribe && maxShare(a) != maxShare(b),
		f.preemptMode && preemptMode(a) != preemptMode(b),
		f.prioTier && a.PriorityTier != b.PriorityTier,
		f.prioJobFactor && a.PriorityJobFactor != b.PriorityJobFactor,
		f.maxCPUsPerNode && a.MaxCPUsPerNode != b.MaxCPUsPerNode:
		return false
	}
	return true
}

// matchNode reports whether node n may join line g, which already holds nodes (Slurm's
// _match_node_data). Without -e, nodes of different sizes share a line ("64+").
func (p *params) matchNode(g *group, n *nodeRec) bool {
	f, r := &p.flags, &g.row
	if p.nodeView {
		return false
	}
	if f.hostnames && !slices.Contains(g.hosts, n.Hostname) {
		return false
	}
	if f.nodeAddr && !slices.Contains(g.addrs, n.addr) {
		return false
	}
	switch {
	case f.features && n.Features != r.Features,
		f.featuresAct && activeFeatures(n) != r.FeaturesAct,
		f.comment && n.Comment != r.Comment,
		f.extra && n.Extra != r.Extra,
		f.gres && n.Gres != r.Gres,
		f.gresUsed && n.GresUsed != r.GresUsed,
		f.reason && n.Reason != r.Reason,
		f.reasonTime && n.ReasonTime != g.reasonTime,
		f.reasonUser && n.reasonUID != r.ReasonUID,
		f.state && n.state.String() != r.NodeState.String(),
		f.stateComplete && n.state.Complete() != r.NodeState.Complete(),
		f.allocMem && n.AllocMemory != r.AllocMemMB:
		return false
	}
	if !p.exact {
		return true
	}
	switch {
	case f.cpus && n.CPUs != r.MinCPUs,
		f.sockets && uint16(n.Sockets) != r.MinSockets,
		f.cores && uint16(n.CoresPerSocket) != r.MinCores,
		f.threads && uint16(n.ThreadsPerCore) != r.MinThreads,
		f.sct && (uint16(n.Sockets) != r.MinSockets || uint16(n.CoresPerSocket) != r.MinCores ||
			uint16(n.ThreadsPerCore) != r.MinThreads),
		f.disk && uint32(n.TmpDisk) != r.MinDiskMB,
		f.memory && n.RealMemory != r.MinMemMB,
		f.weight && n.Weight != r.MinWeight,
		f.cpuLoad && n.CPULoad != g.cpuLoad[0],
		f.freeMem && n.FreeMem != g.freeMem[0],
		f.port && n.Port != r.Port,
		f.version && n.Version != r.Version:
		return false
	}
	return true
}

// update adds node n to line g (Slurm's _update_sinfo): the first node sets the line's
// state and attributes, later ones widen its min/max ranges; counts split nodes and CPUs
// into allocated, idle and other (down or drained).
func (p *params) update(g *group, n *nodeRec) {
	r := &g.row
	sockets, cores, threads := uint16(n.Sockets), uint16(n.CoresPerSocket), uint16(n.ThreadsPerCore)
	switch {
	case r.NodesTotal == 0:
		r.NodeState = n.state
		r.Features, r.FeaturesAct, r.Gres, r.GresUsed = n.Features, activeFeatures(n), n.Gres, n.GresUsed
		r.Comment, r.Extra = n.Comment, n.Extra
		r.Reason, r.ReasonUID, g.reasonTime = n.Reason, n.reasonUID, n.ReasonTime
		r.MinCPUs, r.MaxCPUs = n.CPUs, n.CPUs
		r.MinSockets, r.MaxSockets = sockets, sockets
		r.MinCores, r.MaxCores = cores, cores
		r.MinThreads, r.MaxThreads = threads, threads
		r.MinDiskMB, r.MaxDiskMB = uint32(n.TmpDisk), uint32(n.TmpDisk)
		r.MinMemMB, r.MaxMemMB = n.RealMemory, n.RealMemory
		r.Port = n.Port
		r.MinWeight, r.MaxWeight = n.Weight, n.Weight
		g.cpuLoad = [2]uint32{n.CPULoad, n.CPULoad}
		g.freeMem = [2]uint64{n.FreeMem, n.FreeMem}
		r.Version = n.Version
	case g.nodeIn[n.Name]:
		return // already on this line (a node in two merged partitions)
	default:
		r.MinCPUs, r.MaxCPUs = min(r.MinCPUs, n.CPUs), max(r.MaxCPUs, n.CPUs)
		r.MinSockets, r.MaxSockets = min(r.MinSockets, sockets), max(r.MaxSockets, sockets)
		r.MinCores, r.MaxCores = min(r.MinCores, cores), max(r.MaxCores, cores)
		r.MinThreads, r.MaxThreads = min(r.MinThreads, threads), max(r.MaxThreads, threads)
		r.MinDiskMB, r.MaxDiskMB = min(r.MinDiskMB, uint32(n.TmpDisk)), max(r.MaxDiskMB, uint32(n.TmpDisk))
		r.MinMemMB, r.MaxMemMB = min(r.MinMemMB, n.RealMemory), max(r.MaxMemMB, n.RealMemory)
		r.MinWeight, r.MaxWeight = min(r.MinWeight, n.Weight), max(r.MaxWeight, n.Weight)
		g.cpuLoad = [2]uint32{min(g.cpuLoad[0], n.CPULoad), max(g.cpuLoad[1], n.CPULoad)}
		g.freeMem = [2]uint64{min(g.freeMem[0], n.FreeMem), max(g.freeMem[1], n.FreeMem)}
	}
	g.nodeIn[n.Name] = true
	g.nodes = append(g.nodes, n.Name)
	if p.flags.nodeAddr && !slices.Contains(g.addrs, n.addr) {
		g.addrs = append(g.addrs, n.addr)
	}
	if p.flags.hostnames && !slices.Contains(g.hosts, n.Hostname) {
		g.hosts = append(g.hosts, n.Hostname)
	}

	base := n.state.Base()
	switch {
	case base == states.NodeAllocated || base == states.NodeMixed || n.state&states.NodeCompleting != 0:
		r.NodesAlloc++
	case n.state&states.NodeDrain != 0 || base == states.NodeDown:
		r.NodesOther++
	default:
		r.NodesIdle++
	}
	r.NodesTotal++
	used := min(n.AllocCPUs, n.CPUs)
	r.CPUsAlloc += used
	r.CPUsTotal += n.CPUs
	r.AllocMemMB = n.AllocMemory
	if n.state&states.NodeDrain != 0 || base == states.NodeDown {
		r.CPUsOther += n.CPUs - used
	} else {
		r.CPUsIdle += n.CPUs - used
	}
}

// finish fills the partition attributes and the printed host lists of each line.
func (p *params) finish(list []*group, slurmdPort uint16) []*format.SinfoRow {
	rows := make([]*format.SinfoRow, len(list))
	users := map[uint32]string{}
	for i, g := range list {
		r := &g.row
		r.NoConvert = p.noConvert
		hl := hostlist.FromNames(g.nodes)
		hl.Sort()
		r.NodeList = hl.Ranged()
		r.Hostnames = hostlist.FromNames(g.hosts).Ranged()
		r.NodeAddrs = hostlist.FromNames(g.addrs).Ranged()
		r.MinCPULoad, r.MaxCPULoad = g.cpuLoad[0], g.cpuLoad[1]
		r.MinFreeMemMB, r.MaxFreeMemMB = g.freeMem[0], g.freeMem[1]
		if r.NodesTotal == 0 {
			// Slurm prints its zeroed record: load and memory 0, and reason uid 0, whose
			// name is printed as the reason's user.
			r.MinCPULoad, r.MaxCPULoad, r.MinFreeMemMB, r.MaxFreeMemMB = 0, 0, 0, 0
			r.ReasonUID = 0
		}
		if r.Port == 0 && r.NodesTotal > 0 {
			r.Port = slurmdPort
		}
		if r.ReasonUID != format.NoVal {
			name, ok := users[r.ReasonUID]
			if !ok {
				if u, err := userdb.LookupId(strconv.FormatUint(uint64(r.ReasonUID), 10)); err == nil {
					name = u.Username
				}
				users[r.ReasonUID] = name
			}
			r.ReasonUser = name
		}
		if g.reasonTime != 0 {
			r.ReasonTime = time.Unix(g.reasonTime, 0)
		}
		if part := g.part; part != nil {
			r.HasPartition = true
			r.Partition = part.Name
			r.PartitionDefault = part.Default
			r.PartitionState = strings.ToLower(part.State)
			r.MaxTime, r.DefaultTime = part.MaxTime, part.DefaultTime
			r.MinNodes, r.MaxNodes = part.MinNodes, part.MaxNodes
			r.RootOnly = part.RootOnly
			r.MaxShare = maxShare(part)
			r.AllowGroups = allOr(part.AllowGroups)
			r.AllowAllocNodes = allOr(part.AllocNodes)
			r.PriorityTier, r.PriorityJobFactor = part.PriorityTier, part.PriorityJobFactor
			r.PreemptMode = preemptMode(part)
			r.MaxCPUsPerNode = part.MaxCPUsPerNode
		}
		rows[i] = r
	}
	return rows
}

// allOr maps slurm.conf's "ALL" (or nothing) to "", which sinfo prints as "all".
func allOr(s string) string {
	if strings.EqualFold(s, "ALL") {
		return ""
	}
	return s
}

// maxShare encodes a partition's OverSubscribe as Slurm's max_share: 0 EXCLUSIVE, 1 NO,
// n YES:n, FORCE:n with format.ShareForce set. Unset means Slurm's default, NO.
func maxShare(part *wire.PartitionInfo) uint16 {
	s := strings.ToUpper(part.OverSubscribe)
	num := func(t string) uint16 {
		n, err := strconv.ParseUint(t, 10, 15)
		if err != nil {
			return 4 // Slurm's default count for YES and FORCE
		}
		return uint16(n)
	}
	switch {
	case s == "EXCLUSIVE":
		return 0
	case s == "YES":
		return 4
	case strings.HasPrefix(s, "YES:"):
		return num(s[4:])
	case s == "FORCE":
		return format.ShareForce | 4
	case strings.HasPrefix(s, "FORCE:"):
		return format.ShareForce | num(s[6:])
	}
	return 1
}

// preemptMode is the partition's PreemptMode as sinfo prints it; unset means OFF.
func preemptMode(part *wire.PartitionInfo) string {
	if part.PreemptMode == "" {
		return "OFF"
	}
	return part.PreemptMode
}

// activeFeatures is the node's active features: its available ones unless set apart.
func activeFeatures(n *nodeRec) string {
	if n.ActiveFeatures != nil {
		return *n.ActiveFeatures
	}
	return n.Features
}

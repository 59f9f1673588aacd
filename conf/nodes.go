package conf

import (
	"regexp"
	"strconv"
	"strings"
)

var portRange = regexp.MustCompile(`^([0-9]+)-([0-9]+)$`)

// expandPorts expands a NodeName Port= value: one port, a range "17000-17003", or a hostlist
// form "[17000-17003]".
func (l *loader) expandPorts(pos position, s string) ([]string, bool) {
	if m := portRange.FindStringSubmatch(s); m != nil {
		a, e1 := strconv.Atoi(m[1])
		b, e2 := strconv.Atoi(m[2])
		if e1 != nil || e2 != nil || b < a || b-a > 65535 {
			l.errs.add(pos.file, pos.line, "Port", "Unable to create Port list from %s", s)
			return nil, false
		}
		out := make([]string, 0, b-a+1)
		for p := a; p <= b; p++ {
			out = append(out, strconv.Itoa(p))
		}
		return out, true
	}
	return l.expand(pos, "Port", s)
}

// buildNodes expands every NodeName line into nodes, deriving the CPU layout as Slurm's
// _parse_nodename() and node_conf.c do.
func (l *loader) buildNodes(c *Config) {
	for _, rec := range l.nodes {
		pos, v := rec.pos, rec.vals
		names, ok := l.expand(pos, "NodeName", rec.value)
		if !ok {
			continue
		}
		if len(names) == 0 {
			l.errs.add(pos.file, pos.line, "NodeName", "Empty NodeName in config.")
			continue
		}
		hostExpr := or(v["NodeHostname"], rec.value)
		hosts, ok := l.expand(pos, "NodeHostname", hostExpr)
		if !ok {
			continue
		}
		addrs := hosts
		if a, set := v["NodeAddr"]; set {
			if addrs, ok = l.expand(pos, "NodeAddr", a); !ok {
				continue
			}
		}
		var bcast []string
		if b, set := v["BcastAddr"]; set {
			if bcast, ok = l.expand(pos, "BcastAddr", b); !ok {
				continue
			}
		}
		var ports []string
		if p, set := v["Port"]; set {
			if ports, ok = l.expandPorts(pos, p); !ok {
				continue
			}
		}
		// The reference is built with MULTIPLE_SLURMD: address lists must match the names
		// one for one or hold a single entry shared by all.
		if len(addrs) != len(names) && len(addrs) != 1 {
			l.errs.add(pos.file, pos.line, "NodeAddr", "NodeAddr count must equal that of NodeName records of there must be no more than one")
			continue
		}
		if len(hosts) != len(names) && len(hosts) != 1 {
			l.errs.add(pos.file, pos.line, "NodeHostname", "NodeHostname count must equal that of NodeName records of there must be no more than one")
			continue
		}
		if len(bcast) > 1 && len(bcast) != len(names) {
			l.errs.add(pos.file, pos.line, "BcastAddr", "BcastAddr count must equal that of NodeName records, or there must be no more than one")
			continue
		}
		if len(ports) > 1 && len(ports) != len(names) {
			l.errs.add(pos.file, pos.line, "Port", "Port count must equal that of NodeName records or there must be no more than one (%d != %d)", len(ports), len(names))
			continue
		}
		tmpl, ok := l.nodeTemplate(rec)
		if !ok {
			continue
		}
		for i, name := range names {
			n := *tmpl
			n.Name = name
			n.Hostname = pick(hosts, i)
			n.Addr = pick(addrs, i)
			n.BcastAddr = pick(bcast, i)
			if len(ports) > 0 {
				p, err := strconv.Atoi(pick(ports, i))
				if err != nil || p <= 0 || p > 0xffff {
					l.errs.add(pos.file, pos.line, "Port", "Invalid Port %s", v["Port"])
					break
				}
				n.Port = uint16(p)
			}
			if prev, dup := c.nodeIndex[name]; dup {
				l.errs.add(pos.file, pos.line, "NodeName", "Duplicated NodeHostName %s in config file (first defined at %s:%d)", name, prev.File, prev.Line)
				continue
			}
			np := &n
			c.Nodes = append(c.Nodes, np)
			c.nodeIndex[name] = np
		}
	}
}

// pick returns list[i], or the last entry when the list is shorter (a single shared value).
func pick(list []string, i int) string {
	switch {
	case len(list) == 0:
		return ""
	case i < len(list):
		return list[i]
	default:
		return list[len(list)-1]
	}
}

// nodeTemplate computes everything a NodeName line gives all its nodes.
func (l *loader) nodeTemplate(rec lineRec) (*Node, bool) {
	pos, v, names := rec.pos, rec.vals, rec.value
	n := &Node{File: pos.file, Line: pos.line}
	warn := func(format string, args ...any) { l.errs.warn(pos.file, pos.line, "NodeName", format, args...) }
	n.Boards = u16(v, "Boards", 1)
	n.CoresPerSocket = u16(v, "CoresPerSocket", 1)
	n.ThreadsPerCore = u16(v, "ThreadsPerCore", 1)
	_, hasCPUs := v["CPUs"]
	_, hasProcs := v["Procs"]
	noCPUs := !hasCPUs && !hasProcs
	n.CPUs = 1
	if hasCPUs {
		n.CPUs = u16(v, "CPUs", 1)
	} else if hasProcs {
		n.CPUs = u16(v, "Procs", 1)
	}
	_, hasSockets := v["Sockets"]
	n.Sockets = u16(v, "Sockets", 1)
	_, hasSPB := v["SocketsPerBoard"]
	spb := u16(v, "SocketsPerBoard", 1)
	n.RealMemory = u64(v, "RealMemory", 1)
	n.TmpDisk = u32(v, "TmpDisk", 0)
	n.MemSpecLimit = u64(v, "MemSpecLimit", 0)
	n.CoreSpecCount = u16(v, "CoreSpecCount", 0)
	n.CPUSpecList = v["CPUSpecList"]
	n.CpuBind = v["CpuBind"]
	n.Gres = v["Gres"]
	feat, ok := v["Feature"]
	if !ok {
		feat = v["Features"]
	}
	if feat != "" {
		n.Features = strings.Split(feat, ",")
	}
	n.Weight = u32(v, "Weight", 1)
	if n.Weight == Infinite32 {
		n.Weight--
	}
	n.State = v["State"]
	if n.State != "" && !validNodeState(n.State) {
		l.errs.add(pos.file, pos.line, "State", "Invalid state %s from %s", n.State, names)
		return nil, false
	}
	n.Reason = v["Reason"]
	n.TRESWeights = v["TRESWeights"]

	if n.CoresPerSocket == 0 {
		warn("NodeNames=%s CoresPerSocket=0 is invalid, reset to 1", names)
		n.CoresPerSocket = 1
	}
	if n.CPUs == 0 {
		warn("NodeNames=%s CPUs=0 is invalid, reset to 1", names)
		n.CPUs = 1
	}
	if n.ThreadsPerCore == 0 {
		warn("NodeNames=%s ThreadsPerCore=0 is invalid, reset to 1", names)
		n.ThreadsPerCore = 1
	}
	if spb == 0 {
		warn("NodeNames=%s SocketsPerBoards=0 is invalid, reset to 1", names)
		spb = 1
	}
	if n.Sockets == 0 {
		warn("NodeNames=%s Sockets=0 is invalid, reset to 1", names)
		n.Sockets = 1
	}
	noSockets := !hasSockets
	if hasSPB && hasSockets {
		warn("NodeNames=%s Sockets=# and SocketsPerBoard=# is invalid , using SocketsPerBoard", names)
		noSockets = true
	}
	if n.Boards == 0 {
		warn("NodeNames=%s Boards=0 is invalid, reset to 1", names)
		n.Boards = 1
	}
	ct := n.CoresPerSocket * n.ThreadsPerCore
	if noSockets {
		switch {
		case hasSPB:
			n.Sockets = n.Boards * spb
		case !noCPUs && ct != 0 && n.CPUs/ct > 0 && n.CPUs%ct == 0:
			n.Sockets = n.CPUs / ct
		default:
			n.Sockets = n.Boards
		}
	}
	if noCPUs {
		n.CPUs = n.Sockets * n.CoresPerSocket * n.ThreadsPerCore
	}
	if n.Sockets < n.Boards {
		warn("NodeNames=%s Sockets(%d) < Boards(%d) resetting Boards=1", names, n.Sockets, n.Boards)
		n.Boards = 1
	}
	if n.CPUs != n.Sockets && n.CPUs != n.Sockets*n.CoresPerSocket && n.CPUs != n.Sockets*n.CoresPerSocket*n.ThreadsPerCore {
		warn("NodeNames=%s CPUs=%d match no Sockets, Sockets*CoresPerSocket or Sockets*CoresPerSocket*ThreadsPerCore. Resetting CPUs.", names, n.CPUs)
		n.CPUs = n.Sockets * n.CoresPerSocket * n.ThreadsPerCore
	}
	if uint32(n.CoreSpecCount) >= uint32(n.Sockets)*uint32(n.CoresPerSocket) {
		warn("NodeNames=%s CoreSpecCount=%d is invalid, reset to 1", names, n.CoreSpecCount)
		n.CoreSpecCount = 1
	}
	if n.CoreSpecCount > 0 && n.CPUSpecList != "" {
		warn("NodeNames=%s CoreSpecCount=%d is invalid with CPUSpecList, reset to 0", names, n.CoreSpecCount)
		n.CoreSpecCount = 0
	}
	if n.MemSpecLimit >= n.RealMemory && n.MemSpecLimit > 0 {
		warn("NodeNames=%s MemSpecLimit=%d is invalid, reset to 0", names, n.MemSpecLimit)
		n.MemSpecLimit = 0
	}
	return n, true
}

// validNodeState accepts the states a NodeName line may start a node in (state_str2int):
// a base state optionally followed by +FLAG words.
func validNodeState(s string) bool {
	for i, w := range strings.Split(strings.ToUpper(s), "+") {
		switch w {
		case "UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ALLOC", "ERROR", "MIXED", "FUTURE", "CLOUD",
			"DRAIN", "DRAINED", "DRAINING", "FAIL", "POWER_SAVE", "POWERED_DOWN", "POWER_DOWN", "NO_RESPOND":
			continue
		default:
			_ = i
			return false
		}
	}
	return true
}

// buildNodeSets expands NodeSet lines: Nodes= names nodes, Feature= selects every node with
// that feature.
func (l *loader) buildNodeSets(c *Config) {
	for _, rec := range l.nodeSets {
		ns := &NodeSet{Name: rec.value, Feature: rec.vals["Feature"], File: rec.pos.file, Line: rec.pos.line}
		if expr, ok := rec.vals["Nodes"]; ok {
			if strings.EqualFold(expr, "ALL") {
				for _, n := range c.Nodes {
					ns.Nodes = append(ns.Nodes, n.Name)
				}
			} else if names, ok := l.expand(rec.pos, "Nodes", expr); ok {
				ns.Nodes = append(ns.Nodes, names...)
			}
		}
		if ns.Feature != "" {
			for _, n := range c.Nodes {
				for _, f := range n.Features {
					if f == ns.Feature {
						ns.Nodes = append(ns.Nodes, n.Name)
						break
					}
				}
			}
		}
		c.NodeSets = append(c.NodeSets, ns)
	}
}

// buildDownNodes expands DownNodes lines; each node must exist.
func (l *loader) buildDownNodes(c *Config) {
	for _, rec := range l.downs {
		names, ok := l.expand(rec.pos, "DownNodes", rec.value)
		if !ok {
			continue
		}
		d := &DownNodes{State: or(rec.vals["State"], "DOWN"), Reason: or(rec.vals["Reason"], "Set in slurm.conf"),
			File: rec.pos.file, Line: rec.pos.line}
		if !validNodeState(d.State) {
			l.errs.add(rec.pos.file, rec.pos.line, "State", "Invalid state %s from %s", d.State, rec.value)
			continue
		}
		for _, name := range names {
			if c.nodeIndex[name] == nil {
				l.errs.add(rec.pos.file, rec.pos.line, "DownNodes", "DownNode \"%s\" does not exist!", name)
				continue
			}
			d.Nodes = append(d.Nodes, name)
		}
		c.DownNodes = append(c.DownNodes, d)
	}
}

// buildFrontends expands FrontendName lines.
func (l *loader) buildFrontends(c *Config) {
	for _, rec := range l.fronts {
		names, ok := l.expand(rec.pos, "FrontendName", rec.value)
		if !ok {
			continue
		}
		addrs := names
		if a, set := rec.vals["FrontendAddr"]; set {
			if addrs, ok = l.expand(rec.pos, "FrontendAddr", a); !ok {
				continue
			}
		}
		if len(addrs) != len(names) {
			l.errs.add(rec.pos.file, rec.pos.line, "FrontendAddr", "Node count mismatch between FrontendNames and FrontendAddr")
			continue
		}
		c.Frontends = append(c.Frontends, &Frontend{Names: names, Addrs: addrs, Port: u16(rec.vals, "Port", 0),
			State: rec.vals["State"], Reason: rec.vals["Reason"], File: rec.pos.file, Line: rec.pos.line})
	}
}

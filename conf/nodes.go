package conf

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// splitPortRange splits "17000-17003" (digits, a dash, digits) into its two ends; ok is false
// for any other shape. A plain split rather than a package-level regexp: compiling one at init
// cost every command's start-up a quarter millisecond.
func splitPortRange(s string) (lo, hi string, ok bool) {
	lo, hi, ok = strings.Cut(s, "-")
	return lo, hi, ok && allDigits(lo) && allDigits(hi)
}

// allDigits reports a non-empty string of ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// expandPorts expands a NodeName Port= value: one port, a range "17000-17003", or a hostlist
// form "[17000-17003]".
func (l *loader) expandPorts(pos position, s string) ([]string, bool) {
	if lo, hi, ok := splitPortRange(s); ok {
		a, e1 := strconv.Atoi(lo)
		b, e2 := strconv.Atoi(hi)
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

// nodeScratch holds the per-line expansion buffers of buildNodes, reused from line to line:
// only the strings in them are kept (in Node fields), never the slices.
type nodeScratch struct {
	names, hosts, addrs, bcast []string
}

// buildNodes expands every NodeName line into nodes, deriving the CPU layout as Slurm's
// _parse_nodename() and node_conf.c do.
func (l *loader) buildNodes(c *Config) {
	// Counting first lets the node list, the name index and the node storage be allocated
	// once: on a 20,000-node cluster growing them dominates the cost otherwise.
	total := 0
	for _, block := range l.nodes.blocks {
		for i := range block {
			total += countNames(block[i].value)
		}
	}
	c.Nodes = make([]*Node, 0, total)
	c.nodeIndex = make(map[string]nodeRef, total)
	slab := make([]Node, total)
	features := map[string][]string{}
	var sc nodeScratch
	tc := templateCache{m: map[string]Node{}}
	for _, block := range l.nodes.blocks {
		l.buildNodeBlock(c, block, &slab, features, &sc, &tc)
	}
}

// buildNodeBlock builds the nodes of one block of NodeName lines (see buildNodes).
func (l *loader) buildNodeBlock(c *Config, block []lineRec, slab *[]Node, features map[string][]string,
	sc *nodeScratch, tc *templateCache) {
	for _, rec := range block {
		pos, v := rec.pos, rec.vals
		names, ok := l.expandInto(sc.names, pos, "NodeName", rec.value)
		if !ok {
			continue
		}
		sc.names = names
		if len(names) == 0 {
			l.errs.add(pos.file, pos.line, "NodeName", "Empty NodeName in config.")
			continue
		}
		// NodeHostname defaults to the NodeName value: the names just expanded, not expanded
		// again (on a 20,000-node line that is 20,000 names every command would build twice).
		hosts := names
		if hostExpr := or(v.str("NodeHostname"), rec.value); hostExpr != rec.value {
			if hosts, ok = l.expandInto(sc.hosts, pos, "NodeHostname", hostExpr); !ok {
				continue
			}
			sc.hosts = hosts
		}
		addrs := hosts
		if a, set := v.get("NodeAddr"); set {
			if addrs, ok = l.expandInto(sc.addrs, pos, "NodeAddr", a); !ok {
				continue
			}
			sc.addrs = addrs
		}
		var bcast []string
		if b, set := v.get("BcastAddr"); set {
			if bcast, ok = l.expandInto(sc.bcast, pos, "BcastAddr", b); !ok {
				continue
			}
			sc.bcast = bcast
		}
		var ports []string
		if p, set := v.get("Port"); set {
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
		tmpl, ok := tc.template(l, rec, features)
		if !ok {
			continue
		}
		for i, name := range names {
			n := tmpl
			n.Name = name
			n.Hostname = pick(hosts, i)
			n.Addr = pick(addrs, i)
			n.BcastAddr = pick(bcast, i)
			if len(ports) > 0 {
				p, err := strconv.Atoi(pick(ports, i))
				if err != nil || p <= 0 || p > 0xffff {
					l.errs.add(pos.file, pos.line, "Port", "Invalid Port %s", v.str("Port"))
					break
				}
				n.Port = uint16(p)
			}
			if prev, dup := c.nodeIndex[name]; dup {
				l.errs.add(pos.file, pos.line, "NodeName", "Duplicated NodeHostName %s in config file (first defined at %s:%d)", name, prev.node.File, prev.node.Line).Daemon = true
				continue
			}
			var np *Node
			if len(*slab) > 0 {
				np, *slab = &(*slab)[0], (*slab)[1:]
			} else {
				np = new(Node)
			}
			*np = n
			c.nodeIndex[name] = nodeRef{np, len(c.Nodes)}
			c.Nodes = append(c.Nodes, np)
		}
	}
}

// templateCache remembers the Node templates of NodeName lines that set the same values.
// A large cluster repeats a handful of hardware descriptions over thousands of lines; the
// template depends only on the line's values (not its node names or addresses), so lines
// with equal values share it. Templates whose computation logged a warning are not cached,
// so every line still gets its own message.
type templateCache struct {
	m    map[string]Node
	dflt []subVal // the DEFAULT values the cached templates were built with
	key  []byte
}

// addressKey reports whether a NodeName sub-key varies per node and so does not enter the
// template.
func addressKey(name string) bool {
	return name == "NodeHostname" || name == "NodeAddr" || name == "BcastAddr" || name == "Port"
}

func (tc *templateCache) template(l *loader, rec lineRec, features map[string][]string) (Node, bool) {
	d := rec.vals.dflt
	if len(d) != len(tc.dflt) || (len(d) > 0 && &d[0] != &tc.dflt[0]) {
		// A NodeName=DEFAULT line came in between: the defaults are a new slice.
		clear(tc.m)
		tc.dflt = d
	}
	tc.key = tc.key[:0]
	for _, kv := range rec.vals.own {
		if !addressKey(kv.name) {
			// Length-prefixed, so no value (whatever bytes it holds) can mimic two.
			tc.key = append(binary.AppendUvarint(append(tc.key, kv.name...), uint64(len(kv.value))), kv.value...)
		}
	}
	if n, hit := tc.m[string(tc.key)]; hit {
		n.File, n.Line = rec.pos.file, rec.pos.line
		return n, true
	}
	before := len(l.errs.errs) + len(l.errs.warns)
	n, ok := l.nodeTemplate(rec, features)
	if ok && len(l.errs.errs)+len(l.errs.warns) == before {
		tc.m[string(tc.key)] = n
	}
	return n, ok
}

// countNames is how many names a NodeName value holds, 0 when it is not a valid hostlist
// (buildNodes reports that when it expands the value).
func countNames(expr string) int {
	if isPlainName(expr) {
		return 1
	}
	n, err := hostlist.Count(expr)
	if err != nil || n < 0 || n > hostlist.MaxExpand {
		return 0
	}
	return n
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
//
// features caches the split Feature lists: nodes with the same Feature value share one
// (read-only) slice, as the nodes of one hostlist line always have.
func (l *loader) nodeTemplate(rec lineRec, features map[string][]string) (Node, bool) {
	pos, v, names := rec.pos, rec.vals, rec.value
	n := Node{File: pos.file, Line: pos.line}
	// Every program reading slurm.conf checks NodeName lines in Slurm: the commands print
	// these too.
	warn := func(format string, args ...any) {
		l.errs.warn(pos.file, pos.line, "NodeName", format, args...).Client = true
	}
	n.Boards = u16(v, "Boards", 1)
	n.CoresPerSocket = u16(v, "CoresPerSocket", 1)
	n.ThreadsPerCore = u16(v, "ThreadsPerCore", 1)
	_, hasCPUs := v.get("CPUs")
	_, hasProcs := v.get("Procs")
	noCPUs := !hasCPUs && !hasProcs
	n.CPUs = 1
	if hasCPUs {
		n.CPUs = u16(v, "CPUs", 1)
	} else if hasProcs {
		n.CPUs = u16(v, "Procs", 1)
	}
	_, hasSockets := v.get("Sockets")
	n.Sockets = u16(v, "Sockets", 1)
	_, hasSPB := v.get("SocketsPerBoard")
	spb := u16(v, "SocketsPerBoard", 1)
	n.RealMemory = u64(v, "RealMemory", 1)
	n.TmpDisk = u32(v, "TmpDisk", 0)
	n.MemSpecLimit = u64(v, "MemSpecLimit", 0)
	n.CoreSpecCount = u16(v, "CoreSpecCount", 0)
	n.CPUSpecList = v.str("CPUSpecList")
	n.CpuBind = v.str("CpuBind")
	n.Gres = v.str("Gres")
	feat, ok := v.get("Feature")
	if !ok {
		feat = v.str("Features")
	}
	if feat != "" {
		f, ok := features[feat]
		if !ok {
			f = strings.Split(feat, ",")
			features[feat] = f
		}
		n.Features = f
	}
	n.Weight = u32(v, "Weight", 1)
	if n.Weight == Infinite32 {
		n.Weight--
	}
	n.State = v.str("State")
	if n.State != "" && !validNodeState(n.State) {
		// slurmctld's node table (node_conf.c) refuses it; Slurm's commands do not look.
		e := l.errs.add(pos.file, pos.line, "State", "Invalid state %s from %s", n.State, names)
		e.Fatal, e.Daemon = true, true
		return Node{}, false
	}
	n.Reason = v.str("Reason")
	n.TRESWeights = v.str("TRESWeights")

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

// nodeStateWords are the words a node state may be made of: a base state and +FLAG words.
var nodeStateWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`UNKNOWN DOWN IDLE ALLOCATED ALLOC ERROR MIXED FUTURE CLOUD
		DRAIN DRAINED DRAINING FAIL POWER_SAVE POWERED_DOWN POWER_DOWN NO_RESPOND`) {
		nodeStateWords[w] = true
	}
}

// validNodeState accepts the states a NodeName line may start a node in (state_str2int):
// a base state optionally followed by +FLAG words, in any case.
func validNodeState(s string) bool {
	for {
		w, rest, more := strings.Cut(s, "+")
		if !validStateWord(w) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// validStateWord upper-cases w into a stack buffer (checked every node line, so without
// allocating); non-ASCII text takes strings.ToUpper's Unicode rules.
func validStateWord(w string) bool {
	var buf [16]byte
	if len(w) > len(buf) {
		return nodeStateWords[strings.ToUpper(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 0x80 {
			return nodeStateWords[strings.ToUpper(w)]
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		buf[i] = c
	}
	return nodeStateWords[string(buf[:len(w)])]
}

// buildNodeSets expands NodeSet lines: Nodes= names nodes, Feature= selects every node with
// that feature.
func (l *loader) buildNodeSets(c *Config) {
	for _, rec := range l.nodeSets {
		ns := &NodeSet{Name: rec.value, Feature: rec.vals.str("Feature"), File: rec.pos.file, Line: rec.pos.line}
		if expr, ok := rec.vals.get("Nodes"); ok {
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
		d := &DownNodes{State: or(rec.vals.str("State"), "DOWN"), Reason: or(rec.vals.str("Reason"), "Set in slurm.conf"),
			File: rec.pos.file, Line: rec.pos.line}
		if !validNodeState(d.State) {
			l.errs.add(rec.pos.file, rec.pos.line, "State", "Invalid state %s from %s", d.State, rec.value)
			continue
		}
		for _, name := range names {
			if c.nodeIndex[name].node == nil {
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
		if a, set := rec.vals.get("FrontendAddr"); set {
			if addrs, ok = l.expand(rec.pos, "FrontendAddr", a); !ok {
				continue
			}
		}
		if len(addrs) != len(names) {
			l.errs.add(rec.pos.file, rec.pos.line, "FrontendAddr", "Node count mismatch between FrontendNames and FrontendAddr")
			continue
		}
		c.Frontends = append(c.Frontends, &Frontend{Names: names, Addrs: addrs, Port: u16(rec.vals, "Port", 0),
			State: rec.vals.str("State"), Reason: rec.vals.str("Reason"), File: rec.pos.file, Line: rec.pos.line})
	}
}

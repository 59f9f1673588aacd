package conf

import (
	"slices"
	"strconv"
	"strings"
)

// buildPartitions turns PartitionName lines into partitions, resolving Nodes= (ALL, node
// sets, hostlists) against the defined nodes as slurmctld does.
func (l *loader) buildPartitions(c *Config) {
	seen := map[string]*Partition{}
	for _, rec := range l.parts {
		pos, v := rec.pos, rec.vals
		bad := func(key, format string, args ...any) { l.errs.add(pos.file, pos.line, key, format, args...) }
		p := &Partition{Name: rec.value, File: pos.file, Line: pos.line, State: "UP",
			MaxTime: Infinite32, DefaultTime: NoValue32, MaxNodes: Infinite32, MinNodes: 0,
			MaxCPUsPerNode: Infinite32, OverSubscribe: "NO", PriorityJobFactor: 1, PriorityTier: 1}
		if prev, dup := seen[p.Name]; dup {
			l.errs.add(pos.file, pos.line, "PartitionName", "duplicate entry for partition %s (first defined at %s:%d)", p.Name, prev.File, prev.Line).Daemon = true
			continue
		}
		// Registered before its values are checked so a later duplicate is reported even
		// when this line has errors of its own.
		seen[p.Name] = p
		p.AllowAccounts = allOrList(strings.ToLower(v.str("AllowAccounts")))
		p.AllowGroups = allOrList(v.str("AllowGroups"))
		p.AllowQos = allOrList(strings.ToLower(v.str("AllowQos")))
		p.DenyAccounts = v.str("DenyAccounts")
		p.DenyQos = v.str("DenyQos")
		if p.AllowAccounts != "" && p.DenyAccounts != "" {
			l.errs.warn(pos.file, pos.line, "DenyAccounts", "Both AllowAccounts and DenyAccounts are defined, DenyAccounts will be ignored").Client = true
			p.DenyAccounts = ""
		}
		if p.AllowQos != "" && p.DenyQos != "" {
			l.errs.warn(pos.file, pos.line, "DenyQos", "Both AllowQos and DenyQos are defined, DenyQos will be ignored").Client = true
			p.DenyQos = ""
		}
		p.AllocNodes = v.str("AllocNodes")
		p.Alternate = v.str("Alternate")
		p.QOS = v.str("QOS")
		p.Default = boolKey(v, "Default")
		p.Hidden = boolKey(v, "Hidden")
		p.RootOnly = boolKey(v, "RootOnly")
		p.ReqResv = boolKey(v, "ReqResv")
		p.LLN = boolKey(v, "LLN")
		p.ExclusiveUser = boolKey(v, "ExclusiveUser")
		p.DisableRootJobs = boolKey(v, "DisableRootJobs")
		p.GraceTime = u32(v, "GraceTime", 0)
		p.MaxNodes = u32(v, "MaxNodes", Infinite32)
		p.MinNodes = u32(v, "MinNodes", 0)
		p.MaxCPUsPerNode = u32(v, "MaxCPUsPerNode", Infinite32)
		p.DefMemPerCPU = u64(v, "DefMemPerCPU", 0)
		p.DefMemPerNode = u64(v, "DefMemPerNode", 0)
		p.MaxMemPerCPU = u64(v, "MaxMemPerCPU", 0)
		p.MaxMemPerNode = u64(v, "MaxMemPerNode", 0)
		p.TRESBillingWeights = v.str("TRESBillingWeights")
		p.OverTimeLimit = v.str("OverTimeLimit")
		if s, ok := v.get("MaxTime"); ok {
			m := timeStr2Mins(s)
			if m < 0 {
				bad("MaxTime", "Bad value \"%s\" for MaxTime", s)
				continue
			}
			p.MaxTime = uint32(m)
		}
		if s, ok := v.get("DefaultTime"); ok {
			m := timeStr2Mins(s)
			if m < 0 {
				bad("DefaultTime", "Bad value \"%s\" for DefaultTime", s)
				continue
			}
			p.DefaultTime = uint32(m)
		}
		if s, ok := v.get("PreemptMode"); ok {
			if !validPreemptMode(s) {
				bad("PreemptMode", "Bad value \"%s\" for PreemptMode", s)
				continue
			}
			p.PreemptMode = strings.ToUpper(s)
		}
		if s, ok := v.get("SelectTypeParameters"); ok {
			u := strings.ToUpper(s)
			if !strings.HasPrefix(u, "CR_CORE") && !strings.HasPrefix(u, "CR_SOCKET") {
				bad("SelectTypeParameters", "Bad value for SelectTypeParameters: %s", s)
				continue
			}
		}
		if pr, ok := v.get("Priority"); ok {
			n, _ := parseUint(KindUint16, "Priority", pr)
			p.PriorityJobFactor, p.PriorityTier = uint16(n), uint16(n)
		} else {
			p.PriorityJobFactor = u16(v, "PriorityJobFactor", 1)
			p.PriorityTier = u16(v, "PriorityTier", 1)
		}
		if s, ok := v.get("OverSubscribe"); ok || hasKey(v, "Shared") {
			if !ok {
				s = v.str("Shared")
			}
			os, okOS, warn := overSubscribe(s)
			if !okOS {
				bad("OverSubscribe", "Bad value \"%s\" for OverSubscribe", s)
				continue
			}
			if warn {
				l.errs.warn(pos.file, pos.line, "OverSubscribe", "Ignoring bad OverSubscribe value: %s", s)
			}
			p.OverSubscribe = os
		}
		if s, ok := v.get("State"); ok {
			u := strings.ToUpper(s)
			switch {
			case strings.HasPrefix(u, "DOWN"):
				p.State = "DOWN"
			case strings.HasPrefix(u, "UP"):
				p.State = "UP"
			case strings.HasPrefix(u, "DRAIN"):
				p.State = "DRAIN"
			case strings.HasPrefix(u, "INACTIVE"):
				p.State = "INACTIVE"
			default:
				bad("State", "Bad value \"%s\" for State", s)
				continue
			}
		}
		if s, ok := v.get("SuspendTime"); ok && !strings.EqualFold(s, "INFINITE") && s != "-1" {
			// Slurm reads it with strtoul: leading digits, so "NONE" is 0; only a value
			// beyond 32 bits is refused.
			if atoul(s) > 1<<32-1 {
				bad("SuspendTime", "Bad value \"%s\" for SuspendTime", s)
				continue
			}
		}
		if expr, ok := v.get("Nodes"); ok {
			// Slurm turns white space inside Nodes= into commas.
			p.NodesExpr = strings.Map(func(r rune) rune {
				if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
					return ','
				}
				return r
			}, expr)
			if !l.partitionNodes(c, p, pos) {
				continue
			}
		}
		c.Partitions = append(c.Partitions, p)
	}
}

func hasKey(v subVals, k string) bool { return v.has(k) }

func allOrList(s string) string {
	if strings.EqualFold(s, "ALL") {
		return ""
	}
	return s
}

// partitionNodes resolves Nodes=: ALL, node set names and hostlist expressions, each name
// having to be a defined node ("Invalid node names in partition" otherwise, as slurmctld
// refuses to start). A node named twice is listed once, where it first appears.
func (l *loader) partitionNodes(c *Config, p *Partition, pos position) bool {
	sets := map[string]*NodeSet{}
	for _, ns := range c.NodeSets {
		sets[ns.Name] = ns
	}
	// Defined nodes are marked by their position in c.Nodes (a fresh mark per partition);
	// only names that are not nodes (from a node set) need a set.
	if len(l.mark) != len(c.Nodes) {
		l.mark = make([]uint32, len(c.Nodes))
	}
	l.markGen++
	gen := l.markGen
	var others map[string]bool
	addNode := func(r nodeRef) {
		if l.mark[r.ord] != gen {
			l.mark[r.ord] = gen
			p.Nodes = append(p.Nodes, r.node.Name)
		}
	}
	add := func(n string) {
		if r, ok := c.nodeIndex[n]; ok {
			addNode(r)
			return
		}
		if others == nil {
			others = map[string]bool{}
		}
		if !others[n] {
			others[n] = true
			p.Nodes = append(p.Nodes, n)
		}
	}
	ok := true
	for _, part := range splitTopLevelCommas(p.NodesExpr) {
		if part == "" {
			continue
		}
		if strings.EqualFold(part, "ALL") {
			p.AllNodes = true
			p.Nodes = slices.Grow(p.Nodes, len(c.Nodes))
			for i, n := range c.Nodes {
				addNode(nodeRef{n, i})
			}
			continue
		}
		if ns, isSet := sets[part]; isSet {
			for _, n := range ns.Nodes {
				add(n)
			}
			continue
		}
		names, good := l.expand(pos, "Nodes", part)
		if !good {
			ok = false
			continue
		}
		p.Nodes = slices.Grow(p.Nodes, len(names))
		var missing []string
		for _, n := range names {
			r, defined := c.nodeIndex[n]
			if !defined {
				missing = append(missing, n)
				continue
			}
			addNode(r)
		}
		if len(missing) > 0 {
			l.errs.add(pos.file, pos.line, "Nodes", "Invalid node names in partition %s: %s not defined by any NodeName line",
				p.Name, strings.Join(missing, ",")).Daemon = true
			ok = false
		}
	}
	return ok
}

// splitTopLevelCommas splits a node expression on commas outside brackets.
func splitTopLevelCommas(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// overSubscribe normalises an OverSubscribe (or Shared) value as Slurm stores it; warn is set
// for the values Slurm logs and replaces with NO.
func overSubscribe(s string) (v string, ok, warn bool) {
	u := strings.ToUpper(s)
	switch {
	case u == "NO":
		return "NO", true, false
	case u == "EXCLUSIVE":
		return "EXCLUSIVE", true, false
	case strings.HasPrefix(u, "YES:"):
		n, _ := strconv.Atoi(leadingInt(u[4:]))
		if n <= 1 {
			return "NO", true, true
		}
		return "YES:" + strconv.Itoa(n), true, false
	case u == "YES":
		return "YES:4", true, false
	case strings.HasPrefix(u, "FORCE:"):
		n, _ := strconv.Atoi(leadingInt(u[6:]))
		if n < 1 {
			return "NO", true, true
		}
		return "FORCE:" + strconv.Itoa(n), true, false
	case u == "FORCE":
		return "FORCE:4", true, false
	}
	return "", false, false
}

func leadingInt(s string) string {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

func validPreemptMode(s string) bool {
	_, ok := preemptModeNum(s) // preempt.go
	return ok
}

// atoul reads s as Slurm's slurm_atoul (C's strtoul in base 10) does: leading blanks, a
// sign, then the leading digits (none is 0); beyond 64 bits it saturates, and a minus sign
// negates modulo 2^64. (values.go's strtoul is base 0, as Slurm's key parser reads numbers.)
func atoul(s string) uint64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var n uint64
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if n > (^uint64(0)-d)/10 {
			return ^uint64(0)
		}
		n = n*10 + d
	}
	if neg {
		return -n
	}
	return n
}

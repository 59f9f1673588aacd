package conf

import "github.com/orbit-hpc/orbit/compat/hostlist"

// SwitchKeys are the sub-keys of a topology.conf SwitchName= line.
var SwitchKeys = []Key{
	{Name: "LinkSpeed", Kind: KindUint32}, {Name: "Nodes", Kind: KindString}, {Name: "Switches", Kind: KindString},
}

// TopologyConfig is topology.conf (topology/tree).
type TopologyConfig struct {
	Path     string
	Switches []*Switch
}

// Switch is one SwitchName line: a leaf switch has Nodes, an inner switch has Switches.
type Switch struct {
	Name      string
	Nodes     []string
	NodesExpr string
	Switches  []string
	LinkSpeed uint32 // 1 when not given
	File      string
	Line      int
}

// LoadTopology reads and validates topology.conf: each switch has either nodes or child
// switches, names are unique, and every child switch is defined.
func LoadTopology(path string) (*TopologyConfig, error) {
	var errs errList
	cf := readCompanion(path, nil, map[string][]Key{"SwitchName": SwitchKeys}, &errs)
	t := &TopologyConfig{Path: path}
	if cf == nil {
		return t, errs.err()
	}
	seen := map[string]*Switch{}
	for _, r := range cf.recs {
		s := &Switch{Name: r.value, LinkSpeed: u32(r.vals, "LinkSpeed", 1), File: r.pos.file, Line: r.pos.line}
		nodes, hasNodes := r.vals.get("Nodes")
		sw, hasSw := r.vals.get("Switches")
		switch {
		case hasNodes && hasSw:
			errs.add(r.pos.file, r.pos.line, "SwitchName", "switch %s has both child switches and nodes", s.Name)
			continue
		case !hasNodes && !hasSw:
			errs.add(r.pos.file, r.pos.line, "SwitchName", "switch %s has neither child switches nor nodes", s.Name)
			continue
		}
		if prev, dup := seen[s.Name]; dup {
			errs.add(r.pos.file, r.pos.line, "SwitchName", "Switch (%s) has already been defined (at %s:%d)", s.Name, prev.File, prev.Line)
			continue
		}
		var err error
		if hasNodes {
			s.NodesExpr = nodes
			s.Nodes, err = hostlist.Expand(nodes)
		} else {
			s.Switches, err = hostlist.Expand(sw)
		}
		if err != nil {
			errs.add(r.pos.file, r.pos.line, "SwitchName", "Invalid switches: %s", or(sw, nodes))
			continue
		}
		seen[s.Name] = s
		t.Switches = append(t.Switches, s)
	}
	for _, s := range t.Switches {
		for _, child := range s.Switches {
			if seen[child] == nil {
				errs.add(s.File, s.Line, "Switches", "Switch configuration %s has invalid child (%s)", s.Name, child)
			}
		}
	}
	return t, errs.done(path)
}

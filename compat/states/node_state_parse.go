package states

import (
	"strings"
)

// NodeStateFilter is a parsed `sinfo -t` argument.
type NodeStateFilter struct {
	// States are the states named, each a base state, a flag, or a base with flags
	// (DRAINED = IDLE+DRAIN, DRAINING = ALLOCATED+DRAIN).
	States []NodeState
	// And is set when the list used "&": a node must match every entry, not any.
	And bool
}

// NodeStateListError is the error for a bad name in a `sinfo -t` list. Lines are what sinfo
// prints, each after "sinfo: error: "; sinfo then exits 1.
type NodeStateListError struct {
	Name string
}

func (e *NodeStateListError) Error() string { return `Bad state string: "` + e.Name + `"` }

// Lines returns sinfo's two error messages for the bad name.
func (e *NodeStateListError) Lines() []string {
	return []string{e.Error(), "valid states: " + ValidNodeStateNames()}
}

// ValidNodeStateNames is the lower-case list sinfo prints after a bad state name. It is
// built as Slurm builds it, from the long names of the base states and of single flags, so
// it holds Slurm's oddities ("?" for the unused ERROR state, "unknown" for PLANNED).
func ValidNodeStateNames() string {
	names := []string{}
	for b := NodeUnknown; b < nodeEnd; b++ {
		names = append(names, b.String())
	}
	names = append(names, "DRAIN", "DRAINED", "DRAINING", "NO_RESPOND", "RESERVED", "PERFCTRS")
	for _, f := range []NodeState{NodeCloud, NodeCompleting, NodePoweringDown, NodePoweredDown,
		NodePowerDown, NodePoweringUp, NodeFail, NodeMaint, NodeRebootRequested,
		NodeRebootIssued, NodePlanned} {
		names = append(names, f.String())
	}
	return strings.ToLower(strings.Join(names, ","))
}

// hasPrefixFold reports whether name starts with prefix, ignoring case; sinfo accepts any
// leading part of a state name ("dra" selects drain).
func hasPrefixFold(name, prefix string) bool {
	return len(prefix) <= len(name) && strings.EqualFold(name[:len(prefix)], prefix)
}

func nodeStateEqual(s NodeState, str string) bool {
	return hasPrefixFold(s.Compact(), str) || hasPrefixFold(s.String(), str)
}

// ParseNodeState resolves one `sinfo -t` name: a case-insensitive leading part of a base
// state's long or compact name, or of a flag's name, tried in Slurm's order.
func ParseNodeState(str string) (NodeState, bool) {
	for b := NodeUnknown; b < nodeEnd; b++ {
		if nodeStateEqual(b, str) {
			return b, true
		}
	}
	pre := func(names ...string) bool {
		for _, n := range names {
			if hasPrefixFold(n, str) {
				return true
			}
		}
		return false
	}
	switch {
	case pre("PLANNED", "PLND"):
		return NodePlanned, true
	case pre("DRAIN"):
		return NodeDrain, true
	case pre("DRAINED"):
		return NodeDrain | NodeIdle, true
	case pre("RESV", "RESERVED"):
		return NodeReserved, true
	case pre("PERFCTRS", "NPC"):
		return NodeNet, true
	case pre("DRAINING", "DRNG"):
		return NodeDrain | NodeAllocated, true
	case nodeStateEqual(NodeCompleting, str):
		return NodeCompleting, true
	case pre("NO_RESPOND"):
		return NodeNoRespond, true
	}
	for _, f := range []NodeState{NodePoweringDown, NodePoweredDown, NodePowerDown,
		NodePoweringUp, NodeFail, NodeMaint, NodeRebootRequested, NodeRebootIssued, NodeCloud} {
		if nodeStateEqual(f, str) {
			return f, true
		}
	}
	return 0, false
}

// ParseNodeStateList parses the argument of `sinfo -t`: "all" (any case) selects every base
// state plus DRAIN and COMPLETING; otherwise names separated by "," (any) or "&" (all).
func ParseNodeStateList(list string) (NodeStateFilter, error) {
	var f NodeStateFilter
	if strings.EqualFold(list, "all") {
		for b := NodeUnknown; b < nodeEnd; b++ {
			f.States = append(f.States, b)
		}
		f.States = append(f.States, NodeDrain, NodeCompleting)
		return f, nil
	}
	f.And = strings.Contains(list, "&")
	for _, item := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '&' }) {
		s, ok := ParseNodeState(item)
		if !ok {
			return NodeStateFilter{}, &NodeStateListError{Name: item}
		}
		f.States = append(f.States, s)
	}
	return f, nil
}

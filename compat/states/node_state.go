package states

import "strings"

// NodeState is a node's state as Slurm keeps it: a base state in the low four bits
// (NodeUnknown ... NodeFuture) ORed with flag bits (NodeDrain, NodeNoRespond, ...).
type NodeState uint32

// Node base states, in Slurm's numbering (enum node_states).
const (
	NodeUnknown NodeState = iota
	NodeDown
	NodeIdle
	NodeAllocated
	NodeError // unused by Slurm; prints as "?"
	NodeMixed
	NodeFuture
	nodeEnd
)

// NodeStateBase masks the base state; NodeStateFlags masks the flag bits.
const (
	NodeStateBase  NodeState = 0x0000000f
	NodeStateFlags NodeState = 0xfffffff0
)

// Node state flags, with Slurm's bit positions.
const (
	NodeNet             NodeState = 1 << 4 // PERFCTRS
	NodeReserved        NodeState = 1 << 5
	NodeUndrain         NodeState = 1 << 6
	NodeCloud           NodeState = 1 << 7
	NodeResume          NodeState = 1 << 8
	NodeDrain           NodeState = 1 << 9
	NodeCompleting      NodeState = 1 << 10
	NodeNoRespond       NodeState = 1 << 11
	NodePoweredDown     NodeState = 1 << 12
	NodeFail            NodeState = 1 << 13
	NodePoweringUp      NodeState = 1 << 14
	NodeMaint           NodeState = 1 << 15
	NodeRebootRequested NodeState = 1 << 16
	NodeRebootCancel    NodeState = 1 << 17
	NodePoweringDown    NodeState = 1 << 18
	NodeDynamicFuture   NodeState = 1 << 19
	NodeRebootIssued    NodeState = 1 << 20
	NodePlanned         NodeState = 1 << 21
	NodeInvalidReg      NodeState = 1 << 22
	NodePowerDown       NodeState = 1 << 23
	NodePowerUp         NodeState = 1 << 24
	NodePowerDrain      NodeState = 1 << 25
	NodeDynamicNorm     NodeState = 1 << 26
)

var nodeBaseNames = [nodeEnd]string{"UNKNOWN", "DOWN", "IDLE", "ALLOCATED", "ERROR", "MIXED", "FUTURE"}

// nodeFlagNames is the order in which Complete appends flags ("IDLE+DRAIN+NOT_RESPONDING").
var nodeFlagNames = []struct {
	flag NodeState
	name string
}{
	{NodeCloud, "CLOUD"},
	{NodeCompleting, "COMPLETING"},
	{NodeDrain, "DRAIN"},
	{NodeDynamicFuture, "DYNAMIC_FUTURE"},
	{NodeDynamicNorm, "DYNAMIC_NORM"},
	{NodeInvalidReg, "INVALID_REG"},
	{NodeFail, "FAIL"},
	{NodeMaint, "MAINTENANCE"},
	{NodePowerDown, "POWER_DOWN"},
	{NodePowerUp, "POWER_UP"},
	{NodeNet, "PERFCTRS"},
	{NodePoweredDown, "POWERED_DOWN"},
	{NodeRebootRequested, "REBOOT_REQUESTED"},
	{NodeRebootIssued, "REBOOT_ISSUED"},
	{NodeReserved, "RESERVED"},
	{NodeResume, "RESUME"},
	{NodeNoRespond, "NOT_RESPONDING"},
	{NodePlanned, "PLANNED"},
	{NodePoweringUp, "POWERING_UP"},
	{NodePoweringDown, "POWERING_DOWN"},
}

// nodeVocab holds the words of one naming style (long or compact).
type nodeVocab struct {
	inval, maint, boot, draining, drained, failing, fail        string
	down, alloc, comp, idle, perfctrs, reserved, planned, mixed string
	future, resume, unknown                                     string
	exact                                                       map[NodeState]string
}

var longVocab = nodeVocab{
	inval: "INVAL", maint: "MAINT", boot: "REBOOT", draining: "DRAINING", drained: "DRAINED",
	failing: "FAILING", fail: "FAIL", down: "DOWN", alloc: "ALLOCATED", comp: "COMPLETING",
	idle: "IDLE", perfctrs: "PERFCTRS", reserved: "RESERVED", planned: "PLANNED",
	mixed: "MIXED", future: "FUTURE", resume: "RESUME", unknown: "UNKNOWN",
	// A state that is exactly one of these flags (base UNKNOWN) prints the flag's own name;
	// the compact form never does (Slurm compares the base there, which cannot match).
	exact: map[NodeState]string{
		NodeRebootCancel: "CANCEL_REBOOT",
		NodeCloud:        "CLOUD",
		NodePowerDown:    "POWER_DOWN",
		NodePowerUp:      "POWER_UP",
		NodePoweringDown: "POWERING_DOWN",
		NodePoweredDown:  "POWERED_DOWN",
		NodePoweringUp:   "POWERING_UP",
		NodeRebootIssued: "REBOOT_ISSUED",
	},
}

var compactVocab = nodeVocab{
	inval: "INVAL", maint: "MAINT", boot: "BOOT", draining: "DRNG", drained: "DRAIN",
	failing: "FAILG", fail: "FAIL", down: "DOWN", alloc: "ALLOC", comp: "COMP",
	idle: "IDLE", perfctrs: "NPC", reserved: "RESV", planned: "PLND",
	mixed: "MIX", future: "FUTR", resume: "RESM", unknown: "UNK",
}

// Base returns the base state without flags.
func (s NodeState) Base() NodeState { return s & NodeStateBase }

// Has reports whether every bit of flag is set.
func (s NodeState) Has(flag NodeState) bool { return s&flag == flag }

// suffix is the one-character mark sinfo appends, by Slurm's precedence: $ maintenance,
// ^ reboot issued, @ reboot requested, # powering up, % powering down, ~ powered down,
// ! power down pending, * not responding.
func (s NodeState) suffix() string {
	switch {
	case s&NodeMaint != 0:
		return "$"
	case s&NodeRebootIssued != 0:
		return "^"
	case s&NodeRebootRequested != 0:
		return "@"
	case s&NodePoweringUp != 0:
		return "#"
	case s&NodePoweringDown != 0:
		return "%"
	case s&NodePoweredDown != 0:
		return "~"
	case s&NodePowerDown != 0:
		return "!"
	case s&NodeNoRespond != 0:
		return "*"
	}
	return ""
}

func (s NodeState) name(v *nodeVocab) string {
	base := s.Base()
	noResp := ""
	if s&NodeNoRespond != 0 {
		noResp = "*"
	}
	busy := base == NodeAllocated || base == NodeMixed
	if s&NodeInvalidReg != 0 {
		return v.inval
	}
	if s&NodeMaint != 0 && !(s&NodeDrain != 0 || busy || base == NodeDown) {
		return v.maint + noResp
	}
	if s&(NodeRebootRequested|NodeRebootIssued) != 0 && !busy {
		if s&NodeRebootIssued != 0 {
			return v.boot + "^"
		}
		return v.boot + noResp
	}
	if s&NodeDrain != 0 {
		if s&NodeCompleting != 0 || busy {
			return v.draining + s.suffix()
		}
		return v.drained + s.suffix()
	}
	if s&NodeFail != 0 {
		if s&NodeCompleting != 0 || base == NodeAllocated {
			return v.failing + noResp
		}
		return v.fail + noResp
	}
	if n, ok := v.exact[s]; ok {
		return n
	}
	sfx := s.suffix()
	switch {
	case base == NodeDown:
		return v.down + sfx
	case base == NodeAllocated:
		if sfx == "" && s&NodeCompleting != 0 {
			sfx = "+"
		}
		return v.alloc + sfx
	case s&NodeCompleting != 0:
		return v.comp + sfx
	case base == NodeIdle:
		switch {
		case sfx != "":
			return v.idle + sfx
		case s&NodeNet != 0:
			return v.perfctrs
		case s&NodeReserved != 0:
			return v.reserved
		case s&NodePlanned != 0:
			return v.planned
		}
		return v.idle
	case base == NodeMixed:
		if sfx == "" && s&NodePlanned != 0 {
			sfx = "-"
		}
		return v.mixed + sfx
	case base == NodeFuture:
		return v.future + sfx
	case s&NodeResume != 0:
		return v.resume
	case base == NodeUnknown:
		return v.unknown + noResp
	}
	return "?"
}

// String returns the long name (node_state_string): DRAINING*, ALLOCATED+, IDLE, ... as
// `sinfo -o %T` prints it before lower-casing.
func (s NodeState) String() string { return s.name(&longVocab) }

// Compact returns the short name (node_state_string_compact): DRNG*, ALLOC+, MIX-, ... as
// `sinfo -o %t` prints it before lower-casing.
func (s NodeState) Compact() string { return s.name(&compactVocab) }

// SinfoLong is the lower-case long name sinfo's STATE column prints with %T/statelong.
func (s NodeState) SinfoLong() string { return strings.ToLower(s.String()) }

// SinfoCompact is the lower-case compact name sinfo's default STATE column prints.
func (s NodeState) SinfoCompact() string { return strings.ToLower(s.Compact()) }

// BaseString returns the base state's name ("INVALID" for an out-of-range base).
func (s NodeState) BaseString() string {
	if b := s.Base(); b < nodeEnd {
		return nodeBaseNames[b]
	}
	return "INVALID"
}

// Complete returns the base name followed by "+FLAG" for each flag set, e.g. "IDLE+DRAIN",
// as `scontrol show node` prints State= (node_state_string_complete). Unknown flag bits
// print as "?".
func (s NodeState) Complete() string {
	var b strings.Builder
	b.WriteString(s.BaseString())
	flags := s & NodeStateFlags
	for flags != 0 {
		name := "?"
		bit := flags & -flags
		for _, f := range nodeFlagNames {
			if flags&f.flag != 0 {
				name, bit = f.name, f.flag
				break
			}
		}
		flags &^= bit
		b.WriteString("+")
		b.WriteString(name)
	}
	return b.String()
}

// ScontrolState is the State= value `scontrol show node` prints: like Complete, except that
// an ALLOCATED node whose CPUs are only partly allocated is shown as MIXED.
func (s NodeState) ScontrolState(partlyAllocated bool) string {
	if partlyAllocated && s.Base() == NodeAllocated {
		s = s&NodeStateFlags | NodeMixed
	}
	return s.Complete()
}

// ParseNodeStateComplete parses the form Complete prints ("IDLE+DRAIN+NOT_RESPONDING",
// as in `scontrol show node` State=), case-insensitively. ok is false for an unknown base
// or flag name.
func ParseNodeStateComplete(s string) (NodeState, bool) {
	parts := strings.Split(s, "+")
	var st NodeState
	found := false
	for b := NodeUnknown; b < nodeEnd; b++ {
		if strings.EqualFold(parts[0], nodeBaseNames[b]) {
			st, found = b, true
			break
		}
	}
	if !found {
		return 0, false
	}
	for _, p := range parts[1:] {
		found = false
		for _, f := range nodeFlagNames {
			if strings.EqualFold(p, f.name) {
				st |= f.flag
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	return st, true
}

package conf

import "strings"

// This file holds the sub-key tables of the repeatable slurm.conf lines (NodeName=,
// PartitionName=, NodeSet=, DownNodes=, FrontendName=) as _parse_nodename() and its siblings
// in Slurm 22.05's read_config.c define them, and the parser of a line's sub-keys.

// NodeKeys are the sub-keys of a NodeName= line. Procs is Slurm's old name for CPUs.
var NodeKeys = []Key{
	{Name: "BcastAddr", Kind: KindString}, {Name: "Boards", Kind: KindUint16},
	{Name: "CoreSpecCount", Kind: KindUint16}, {Name: "CoresPerSocket", Kind: KindUint16},
	{Name: "CPUs", Kind: KindUint16}, {Name: "CPUSpecList", Kind: KindString},
	{Name: "CpuBind", Kind: KindString}, {Name: "Feature", Kind: KindString},
	{Name: "Features", Kind: KindString}, {Name: "Gres", Kind: KindString},
	{Name: "MemSpecLimit", Kind: KindUint64}, {Name: "NodeAddr", Kind: KindString},
	{Name: "NodeHostname", Kind: KindString}, {Name: "Port", Kind: KindString},
	{Name: "Procs", Kind: KindUint16}, {Name: "RealMemory", Kind: KindUint64},
	{Name: "Reason", Kind: KindString}, {Name: "Sockets", Kind: KindUint16},
	{Name: "SocketsPerBoard", Kind: KindUint16}, {Name: "State", Kind: KindString},
	{Name: "ThreadsPerCore", Kind: KindUint16}, {Name: "TmpDisk", Kind: KindUint32},
	{Name: "TRESWeights", Kind: KindString}, {Name: "Weight", Kind: KindUint32},
}

// PartitionKeys are the sub-keys of a PartitionName= line. Shared is the old name of
// OverSubscribe; Priority sets both PriorityJobFactor and PriorityTier.
var PartitionKeys = []Key{
	{Name: "AllocNodes", Kind: KindString}, {Name: "AllowAccounts", Kind: KindString},
	{Name: "AllowGroups", Kind: KindString}, {Name: "AllowQos", Kind: KindString},
	{Name: "Alternate", Kind: KindString}, {Name: "CpuBind", Kind: KindString},
	{Name: "DefCPUPerGPU", Kind: KindUint64}, {Name: "DefMemPerCPU", Kind: KindUint64},
	{Name: "DefMemPerGPU", Kind: KindUint64}, {Name: "DefMemPerNode", Kind: KindUint64},
	{Name: "Default", Kind: KindBool}, {Name: "DefaultTime", Kind: KindString},
	{Name: "DenyAccounts", Kind: KindString}, {Name: "DenyQos", Kind: KindString},
	{Name: "DisableRootJobs", Kind: KindBool}, {Name: "ExclusiveUser", Kind: KindBool},
	{Name: "GraceTime", Kind: KindUint32}, {Name: "Hidden", Kind: KindBool},
	{Name: "LLN", Kind: KindBool}, {Name: "MaxCPUsPerNode", Kind: KindUint32},
	{Name: "MaxMemPerCPU", Kind: KindUint64}, {Name: "MaxMemPerNode", Kind: KindUint64},
	{Name: "MaxTime", Kind: KindString}, {Name: "MaxNodes", Kind: KindUint32},
	{Name: "MinNodes", Kind: KindUint32}, {Name: "Nodes", Kind: KindString},
	{Name: "OverSubscribe", Kind: KindString}, {Name: "OverTimeLimit", Kind: KindString},
	{Name: "PreemptMode", Kind: KindString}, {Name: "Priority", Kind: KindUint16},
	{Name: "PriorityJobFactor", Kind: KindUint16}, {Name: "PriorityTier", Kind: KindUint16},
	{Name: "QOS", Kind: KindString}, {Name: "RootOnly", Kind: KindBool},
	{Name: "ReqResv", Kind: KindBool}, {Name: "ResumeTimeout", Kind: KindUint16},
	{Name: "SelectTypeParameters", Kind: KindString}, {Name: "Shared", Kind: KindString},
	{Name: "State", Kind: KindString}, {Name: "SuspendTime", Kind: KindString},
	{Name: "SuspendTimeout", Kind: KindUint16}, {Name: "TRESBillingWeights", Kind: KindString},
}

// NodeSetKeys are the sub-keys of a NodeSet= line.
var NodeSetKeys = []Key{{Name: "Feature", Kind: KindString}, {Name: "Nodes", Kind: KindString}}

// DownNodesKeys are the sub-keys of a DownNodes= line.
var DownNodesKeys = []Key{{Name: "Reason", Kind: KindString}, {Name: "State", Kind: KindString}}

// FrontendKeys are the sub-keys of a FrontendName= line.
var FrontendKeys = []Key{
	{Name: "AllowGroups", Kind: KindString}, {Name: "AllowUsers", Kind: KindString},
	{Name: "DenyGroups", Kind: KindString}, {Name: "DenyUsers", Kind: KindString},
	{Name: "FrontendAddr", Kind: KindString}, {Name: "Port", Kind: KindUint16},
	{Name: "Reason", Kind: KindString}, {Name: "State", Kind: KindString},
}

// SlurmctldHost= takes no sub-keys.
var slurmctldHostKeys = []Key{}

type subTable map[string]*Key

// lookupFold finds name in a table keyed by lower-case names without allocating: a key
// name is lower-cased into a stack buffer (Go does not copy string(buf) in a map index).
func lookupFold[V any](m map[string]V, name string) (V, bool) {
	var buf [64]byte
	if len(name) > len(buf) {
		v, ok := m[strings.ToLower(name)]
		return v, ok
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	v, ok := m[string(buf[:len(name)])]
	return v, ok
}

func indexKeys(keys []Key) subTable {
	t := make(subTable, len(keys))
	for i := range keys {
		t[strings.ToLower(keys[i].Name)] = &keys[i]
	}
	return t
}

var (
	nodeTable      = indexKeys(NodeKeys)
	partitionTable = indexKeys(PartitionKeys)
	nodeSetTable   = indexKeys(NodeSetKeys)
	downNodesTable = indexKeys(DownNodesKeys)
	frontendTable  = indexKeys(FrontendKeys)
	ctldHostTable  = indexKeys(slurmctldHostKeys)
)

// subVal is one sub-key value; name is the canonical spelling from the table.
type subVal struct{ name, value string }

// subVals holds one line's sub-key values: own are the line's, dflt the DEFAULT line values
// in force when it was read, consulted when the line does not set a key. Both are short
// (a line sets a handful of keys), so a linear scan beats a map, and sharing dflt between
// lines replaces copying the defaults into every line of a 20,000-node file. Neither slice
// is ever modified once stored: a later DEFAULT line builds a new dflt.
type subVals struct {
	own, dflt []subVal
}

// get returns the value of the canonical key name, the line's own before the defaults'.
func (v subVals) get(name string) (string, bool) {
	for i := range v.own {
		if v.own[i].name == name {
			return v.own[i].value, true
		}
	}
	for i := range v.dflt {
		if v.dflt[i].name == name {
			return v.dflt[i].value, true
		}
	}
	return "", false
}

// str returns the value of name, "" when unset.
func (v subVals) str(name string) string { s, _ := v.get(name); return s }

// has reports whether name is set.
func (v subVals) has(name string) bool { _, ok := v.get(name); return ok }

// set stores name=value in a list of sub-key values, replacing an earlier value (the last one
// written wins, as in Slurm's hash table).
func set(list []subVal, name, value string) []subVal {
	for i := range list {
		if list[i].name == name {
			list[i].value = value
			return list
		}
	}
	return append(list, subVal{name, value})
}

// without returns the line's values minus the named keys (a new slice; v is unchanged).
func (v subVals) without(names ...string) subVals {
	drop := func(list []subVal) []subVal {
		out := make([]subVal, 0, len(list))
		for _, kv := range list {
			keep := true
			for _, n := range names {
				keep = keep && kv.name != n
			}
			if keep {
				out = append(out, kv)
			}
		}
		return out
	}
	return subVals{own: drop(v.own), dflt: drop(v.dflt)}
}

// subArena hands out storage for the sub-key values of many lines from a few large blocks
// instead of one small allocation per line.
type subArena struct{ free []subVal }

// keep returns a copy of vals that the caller may hold; a nil arena allocates it alone.
func (a *subArena) keep(vals []subVal) []subVal {
	if a == nil {
		return append([]subVal(nil), vals...)
	}
	if len(vals) > cap(a.free)-len(a.free) {
		a.free = make([]subVal, 0, max(1024, len(vals)))
	}
	n := len(a.free)
	a.free = append(a.free, vals...)
	// Capped at its length: appending to the result can never overwrite the next line's.
	return a.free[n : n+len(vals) : n+len(vals)]
}

// parseSubKeys reads the sub-keys after the line's main key. Like Slurm it stops at the first
// unknown key or bad value (reporting it) and then reports whatever is left of the line.
// arena, when not nil, stores the values.
func parseSubKeys(t subTable, rest string, pos position, errs *errList, arena *subArena) subVals {
	var buf [16]subVal
	vals := buf[:0]
	for {
		key, _, value, next, ok := nextPair(rest)
		if !ok {
			break
		}
		k, known := lookupFold(t, key)
		if !known {
			errs.add(pos.file, pos.line, key, "Parsing error at unrecognized key: %s", key)
			break
		}
		if err := checkValue(k.Kind, k.Name, value); err != nil {
			errs.add(pos.file, pos.line, k.Name, "%v", err)
			break
		}
		vals = set(vals, k.Name, value)
		rest = next
	}
	if !isBlank(rest) {
		errs.parseError(pos, rest)
	}
	if len(vals) == 0 {
		return subVals{}
	}
	// A copy: the stack buffer does not outlive the call.
	return subVals{own: arena.keep(vals)}
}

// withDefaults layers a line's own values over the DEFAULT values in force (flattened).
func withDefaults(defaults, line subVals) subVals {
	return subVals{own: line.own, dflt: defaults.flat()}
}

// flat returns own and dflt as one list, own winning; it shares own when there is no dflt.
func (v subVals) flat() []subVal {
	if len(v.dflt) == 0 {
		return v.own
	}
	out := make([]subVal, 0, len(v.own)+len(v.dflt))
	out = append(out, v.own...)
	for _, kv := range v.dflt {
		if !v.hasOwn(kv.name) {
			out = append(out, kv)
		}
	}
	return out
}

func (v subVals) hasOwn(name string) bool {
	for i := range v.own {
		if v.own[i].name == name {
			return true
		}
	}
	return false
}

// merge returns defaults overridden by vals, flattened into a new list: how a NodeName=DEFAULT
// (or PartitionName=DEFAULT) line's values reach the lines after it.
func merge(defaults, vals subVals) subVals {
	out := make([]subVal, 0, len(defaults.own)+len(defaults.dflt)+len(vals.own)+len(vals.dflt))
	out = append(out, vals.flat()...)
	for _, kv := range defaults.flat() {
		if !(subVals{own: out}).hasOwn(kv.name) {
			out = append(out, kv)
		}
	}
	return subVals{own: out}
}

type position struct {
	file string
	line int
}

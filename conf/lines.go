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

// subVals holds one line's sub-key values by canonical name.
type subVals map[string]string

func (v subVals) get(name string) (string, bool) { s, ok := v[name]; return s, ok }

// parseSubKeys reads the sub-keys after the line's main key. Like Slurm it stops at the first
// unknown key or bad value (reporting it) and then reports whatever is left of the line.
func parseSubKeys(t subTable, rest string, pos position, errs *errList) subVals {
	vals := subVals{}
	for {
		key, _, value, next, ok := nextPair(rest)
		if !ok {
			break
		}
		k, known := t[strings.ToLower(key)]
		if !known {
			errs.add(pos.file, pos.line, key, "Parsing error at unrecognized key: %s", key)
			break
		}
		if err := checkValue(k.Kind, k.Name, value); err != nil {
			errs.add(pos.file, pos.line, k.Name, "%v", err)
			break
		}
		vals[k.Name] = value
		rest = next
	}
	if !isBlank(rest) {
		errs.add(pos.file, pos.line, "", "Parse error at \"%s\"", trimCRLF(rest))
	}
	return vals
}

// merge returns a copy of defaults overridden by vals: how a NodeName=DEFAULT (or
// PartitionName=DEFAULT) line's values reach the lines after it.
func merge(defaults, vals subVals) subVals {
	out := make(subVals, len(defaults)+len(vals))
	for k, v := range defaults {
		out[k] = v
	}
	for k, v := range vals {
		out[k] = v
	}
	return out
}

type position struct {
	file string
	line int
}

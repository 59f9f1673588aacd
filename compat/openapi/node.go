package openapi

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// ErrInvalidNodeName is ESLURM_INVALID_NODE_NAME, which the nodes handler reports when the
// controller has no node to list.
const ErrInvalidNodeName = 2018

// NodeContext is what a v0.0.38 node object needs beyond wire.NodeInfo.
type NodeContext struct {
	// UserName names a uid (reason_set_by_user); "" when it cannot.
	UserName func(uid uint32) string
}

// Nodes renders the answer to GET /slurm/v0.0.38/nodes/ (what sinfo --json prints).
func Nodes(nodes []wire.NodeInfo, ctx NodeContext) *Value {
	r := NewResponse()
	list := r.Set("nodes", NewList())
	for i := range nodes {
		list.Append(Node(&nodes[i], ctx))
	}
	if len(nodes) == 0 {
		AddNodeError(r, ErrInvalidNodeName, wire.Strerror(ErrInvalidNodeName))
	}
	return r
}

// Node renders one node as v0.0.38's _dump_node does, keys in its order.
func Node(n *wire.NodeInfo, ctx NodeContext) *Value {
	st := states.NodeState(n.State)
	// The nodes handler asks with SHOW_MIXED: a partly allocated node is "mixed".
	if st.Base() == states.NodeAllocated && n.AllocCPUs < n.CPUs {
		st = st&states.NodeStateFlags | states.NodeMixed
	}
	d := NewDict()
	d.Set("architecture", Str(n.Arch))
	d.Set("burstbuffer_network_address", Str(""))
	d.Set("boards", IntValue(int64(n.Boards)))
	d.Set("boot_time", IntValue(n.BootTime))
	d.Set("comment", Str(n.Comment))
	d.Set("cores", IntValue(int64(n.CoresPerSocket)))
	d.Set("cpu_binding", IntValue(0))
	d.Set("cpu_load", IntValue(int64(n.CPULoad)))
	d.Set("extra", Str(n.Extra))
	d.Set("free_memory", IntValue(int64(n.FreeMem))) // NO_VAL64 prints as -2, as in C
	d.Set("cpus", IntValue(int64(n.CPUs)))
	d.Set("last_busy", IntValue(n.LastBusy))
	d.Set("features", Str(n.Features))
	act := n.Features
	if n.ActiveFeatures != nil {
		act = *n.ActiveFeatures
	}
	d.Set("active_features", Str(act))
	d.Set("gres", Str(n.Gres))
	d.Set("gres_drained", Str("N/A"))
	d.Set("gres_used", Str(""))
	d.Set("mcs_label", Str(""))
	d.Set("name", Str(n.Name))
	// next_state is NO_VAL unless a reboot was asked for: "invalid", with no flags.
	d.Set("next_state_after_reboot", Str("invalid"))
	d.Set("address", Str(n.Addr))
	d.Set("hostname", Str(n.Hostname))
	d.Set("state", Str(strings.ToLower(st.BaseString())))
	flags := d.Set("state_flags", NewList())
	if parts := strings.Split(st.Complete(), "+"); len(parts) > 1 {
		for _, f := range parts[1:] {
			flags.AppendStr(f)
		}
	}
	d.Set("next_state_after_reboot", Str("invalid"))
	d.Set("next_state_after_reboot_flags", NewList())
	d.Set("operating_system", Str(n.OS))
	d.Set("owner", NullValue())
	parts := d.Set("partitions", NewList())
	for _, p := range n.Partitions {
		parts.AppendStr(p)
	}
	d.Set("port", IntValue(int64(n.Port)))
	d.Set("real_memory", IntValue(int64(n.RealMemory)))
	d.Set("reason", Str(n.Reason))
	d.Set("reason_changed_at", IntValue(n.ReasonTime))
	name := ""
	if n.Reason != "" && n.ReasonUID != wire.NoVal && ctx.UserName != nil {
		name = ctx.UserName(n.ReasonUID)
	}
	if name == "" {
		d.Set("reason_set_by_user", NullValue()) // uid_to_string_or_null gave NULL
	} else {
		d.Set("reason_set_by_user", Str(name))
	}
	d.Set("slurmd_start_time", IntValue(n.SlurmdStart))
	d.Set("sockets", IntValue(int64(n.Sockets)))
	d.Set("threads", IntValue(int64(n.ThreadsPerCore)))
	d.Set("temporary_disk", IntValue(int64(n.TmpDisk)))
	d.Set("weight", IntValue(int64(n.Weight)))
	d.Set("tres", Str(n.CfgTRES))
	d.Set("slurmd_version", Str(n.Version))
	d.Set("alloc_memory", IntValue(int64(n.AllocMemory)))
	d.Set("alloc_cpus", IntValue(int64(n.AllocCPUs)))
	d.Set("idle_cpus", IntValue(int64(n.CPUs)-int64(n.AllocCPUs)))
	d.Set("tres_used", Str(n.AllocTRES)) // null (YAML) when nothing is allocated
	// tres_weighted is the allocation's billing: its billing TRES, by default its CPUs.
	weighted := float64(n.AllocCPUs)
	if b, ok := tresValue(n.AllocTRES, "billing"); ok {
		weighted = float64(b)
	}
	d.Set("tres_weighted", FloatValue(weighted))
	return d
}

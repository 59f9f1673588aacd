package ctld

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// The fields of `scontrol show node` and `show partition` beyond what sinfo needs.

// nodePort is the node's slurmd port as slurm.conf gives it.
func (c *Controller) nodePort(cf *conf.Node) uint16 {
	if cf.Port != 0 {
		return cf.Port
	}
	return uint16(c.config().SlurmdPort)
}

// nodeCfgTRES is a node's configured TRES ("cpu=64,mem=257000M,billing=64").
func nodeCfgTRES(cf *conf.Node) string {
	cpus := strconv.Itoa(int(cf.CPUs))
	return "cpu=" + cpus + ",mem=" + memsize.FormatMB(cf.RealMemory) + ",billing=" + cpus
}

// nodeAllocTRES is what the node's jobs hold ("" when nothing).
func nodeAllocTRES(n *nodeEntry) string {
	var parts []string
	if n.busyCPUs() > 0 {
		parts = append(parts, "cpu="+strconv.FormatUint(uint64(n.busyCPUs()), 10))
	}
	if n.allocMem > 0 {
		parts = append(parts, "mem="+memsize.FormatMB(n.allocMem))
	}
	return strings.Join(parts, ",")
}

// partInfoExtra fills the scontrol-only fields of a partition.
func (c *Controller) partInfoExtra(p *partEntry, pi *wire.PartitionInfo) {
	cf := p.conf
	pi.AllowGroups, pi.AllowAccounts, pi.AllowQos = cf.AllowGroups, cf.AllowAccounts, cf.AllowQos
	pi.DenyAccounts, pi.DenyQos, pi.AllocNodes = cf.DenyAccounts, cf.DenyQos, cf.AllocNodes
	pi.Alternate, pi.QOS = cf.Alternate, cf.QOS
	pi.Hidden, pi.RootOnly, pi.ReqResv, pi.LLN = cf.Hidden, cf.RootOnly, cf.ReqResv, cf.LLN
	pi.ExclusiveUser, pi.DisableRootJobs = cf.ExclusiveUser, cf.DisableRootJobs
	pi.GraceTime, pi.MaxCPUsPerNode = cf.GraceTime, cf.MaxCPUsPerNode
	pi.PriorityJobFactor, pi.PriorityTier = cf.PriorityJobFactor, cf.PriorityTier
	pi.OverSubscribe, pi.OverTimeLimit = cf.OverSubscribe, cf.OverTimeLimit
	pi.PreemptMode = conf.PreemptModeString(cmp.Or(cf.PreemptMode, c.config().PreemptMode))
	pi.DefMemPerCPU, pi.DefMemPerNode = cf.DefMemPerCPU, cf.DefMemPerNode
	pi.MaxMemPerCPU, pi.MaxMemPerNode = cf.MaxMemPerCPU, cf.MaxMemPerNode
	pi.BillingWeights = cf.TRESBillingWeights
	var mem uint64
	for _, name := range p.nodes {
		mem += c.t.nodes[name].conf.RealMemory
	}
	cpus := strconv.FormatUint(uint64(p.cpus), 10)
	pi.TRES = "cpu=" + cpus + ",mem=" + memsize.FormatMB(mem) + ",node=" + strconv.Itoa(len(p.nodes)) + ",billing=" + cpus
	if len(p.nodes) == 0 {
		pi.TRES = "(null)" // a partition with no nodes (scontrol create) has no TRES string
	}
}

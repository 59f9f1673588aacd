package main

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// showNode is `scontrol show node [NAME]` (Slurm's scontrol_print_node_list).
func (c *cli) showNode(_ string, val *string, _ []string) {
	rep, ok := c.loadNodes(false)
	if !ok {
		return
	}
	if c.quiet == -1 {
		fmt.Fprintf(c.stdout, "last_update_time=%s, records=%d\n", c.timeStr(rep.LastUpdate), len(rep.Nodes))
	}
	var want map[string]bool
	if val != nil {
		want = map[string]bool{}
		names, err := expandNames(*val)
		if err != nil {
			c.exitCode = 1
			c.eprintf("Invalid node name specified\n")
			return
		}
		for _, n := range names {
			want[n] = true
		}
	}
	printed := 0
	for i := range rep.Nodes {
		n := &rep.Nodes[i]
		if want != nil && !want[n.Name] {
			continue
		}
		c.stdout.WriteString(c.sprintNode(n))
		printed++
	}
	if printed == 0 {
		c.exitCode = 1
		if c.quiet != 1 {
			if val != nil {
				fmt.Fprintf(c.stdout, "Node %s not found\n", *val)
			} else {
				c.stdout.WriteString("No nodes in the system\n")
			}
		}
	}
}

// loadNodes asks for the nodes and partitions; hideHidden leaves Hidden partitions out for
// a user who is not an operator.
func (c *cli) loadNodes(hideHidden bool) (*wire.NodeInfoReply, bool) {
	var rep wire.NodeInfoReply
	if e := c.call(wire.MsgNodeInfo, &wire.NodeInfoRequest{HideHidden: hideHidden}, &rep); e != nil {
		c.perror("slurm_load_node error", e)
		return nil, false
	}
	return &rep, true
}

// sprintNode renders one node as Slurm's slurm_sprint_node_table does. Arch=, OS= appear
// only once the node has reported them, CPULoad=/FreeMem= print N/A until then.
func (c *cli) sprintNode(n *wire.NodeInfo) string {
	r := newRecord(c.oneLiner)
	st := states.NodeState(n.State)
	r.f("NodeName=%s ", n.Name)
	if n.Arch != "" {
		r.f("Arch=%s ", n.Arch)
	}
	r.f("CoresPerSocket=%d ", n.CoresPerSocket)
	r.nl()
	load := "N/A"
	if n.CPULoad != wire.NoVal {
		load = fmt.Sprintf("%.2f", float64(n.CPULoad)/100)
	}
	r.f("CPUAlloc=%d CPUEfctv=%d CPUTot=%d CPULoad=%s", n.AllocCPUs, n.CPUEfctv, n.CPUs, load)
	r.nl()
	r.f("AvailableFeatures=%s", nullStr(n.Features))
	r.nl()
	act := nullStr(n.Features)
	if n.ActiveFeatures != nil {
		act = *n.ActiveFeatures // set apart, or to nothing (blank, not "(null)")
	}
	r.f("ActiveFeatures=%s", act)
	r.nl()
	r.f("Gres=%s", nullStr(n.Gres))
	r.nl()
	if c.details {
		// Slurm gathers these only for -d: GresDrain is always N/A in 22.05
		// (gres_get_node_drain); GresUsed only when the node has GRES state (GresTypes).
		r.s("GresDrain=N/A")
		r.nl()
		if n.GresUsed != "" {
			r.f("GresUsed=%s", n.GresUsed)
			r.nl()
		}
	}
	r.f("NodeAddr=%s NodeHostName=%s ", nodeAddr(n.Addr), n.Hostname)
	if c.slurmdPort() != uint32(n.Port) {
		r.f("Port=%d ", n.Port)
	}
	if n.Version != "" {
		r.f("Version=%s", n.Version)
	}
	r.nl()
	if n.OS != "" {
		r.f("OS=%s ", n.OS)
		r.nl()
	}
	free := "N/A"
	if n.FreeMem != wire.NoVal64 {
		free = fmt.Sprint(n.FreeMem)
	}
	r.f("RealMemory=%d AllocMem=%d FreeMem=%s Sockets=%d Boards=%d", n.RealMemory, n.AllocMemory, free, n.Sockets, max(n.Boards, 1))
	r.nl()
	state := st
	if st.Base() == states.NodeAllocated && n.AllocCPUs < n.CPUEfctv {
		state = st&states.NodeStateFlags | states.NodeMixed
	}
	owner := cmp.Or(n.Owner, "N/A")
	r.f("State=%s ThreadsPerCore=%d TmpDisk=%d Weight=%d Owner=%s MCS_label=N/A", state.Complete(), n.ThreadsPerCore, n.TmpDisk, n.Weight, owner)
	r.nl()
	if len(n.Partitions) > 0 {
		r.f("Partitions=%s ", strings.Join(n.Partitions, ","))
		r.nl()
	}
	boot, start := "None", "None"
	if n.BootTime != 0 {
		boot = c.timeStr(n.BootTime)
	}
	if n.SlurmdStart != 0 {
		start = c.timeStr(n.SlurmdStart)
	}
	r.f("BootTime=%s SlurmdStartTime=%s", boot, start)
	r.nl()
	r.f("LastBusyTime=%s", c.timeStr(n.LastBusy))
	r.nl()
	r.f("CfgTRES=%s", n.CfgTRES)
	r.nl()
	r.f("AllocTRES=%s", n.AllocTRES)
	r.nl()
	r.s("CapWatts=n/a")
	r.nl()
	r.s("CurrentWatts=0 AveWatts=0")
	r.nl()
	r.s("ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s")
	if n.Reason != "" {
		r.nl()
		for i, line := range strings.Split(strings.TrimRight(n.Reason, "\n"), "\n") {
			if i == 0 {
				r.s("Reason=" + line)
				if n.ReasonTime != 0 {
					r.f(" [%s@%s]", userName(n.ReasonUID), slurmtime.FormatUnix(n.ReasonTime, time.Local))
				}
				continue
			}
			r.nl()
			r.s("       " + line)
		}
	}
	if n.Comment != "" {
		r.nl()
		r.s("Comment=" + n.Comment)
	}
	if n.Extra != "" {
		r.nl()
		r.s("Extra=" + n.Extra)
	}
	return r.end()
}

// slurmdPort is slurm.conf's SlurmdPort.
func (c *cli) slurmdPort() uint32 {
	if p := c.client().Conf.SlurmdPort; p != 0 {
		return uint32(p)
	}
	return 6818
}

// nodeAddr is a node's NodeAddr: the controller reports host:port, Slurm shows the host.
func nodeAddr(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		return addr[:i]
	}
	return addr
}

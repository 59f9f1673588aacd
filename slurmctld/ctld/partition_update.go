package ctld

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update PartitionName=... (Slurm's update_part): operators only. What an update
// changed is stored as a partition override (kind "part") and laid over slurm.conf's
// partition at start, so it survives a controller restart, as Slurm's saved partition state
// does until the next reconfigure.

const kindPart = "part"

// partRecord is a partition's run-time override of its slurm.conf line. Every field's zero
// value means "as configured", so records stored before a field existed decode unchanged.
type partRecord struct {
	Name     string   `codec:"name"`
	State    string   `codec:"state"`     // "" = as configured
	MaxTime  uint32   `codec:"max_time"`  // wire.NoVal = as configured
	NodesSet bool     `codec:"nodes_set"` // Nodes replaces the configured list
	Nodes    []string `codec:"nodes"`

	PreemptMode       string  `codec:"preempt_mode,omitempty"` // OFF, SUSPEND, REQUEUE, CANCEL
	PriorityTier      *uint16 `codec:"priority_tier,omitempty"`
	PriorityJobFactor *uint16 `codec:"priority_job_factor,omitempty"`
	GraceTime         *uint32 `codec:"grace_time,omitempty"`
	DefaultTime       *uint32 `codec:"default_time,omitempty"`
	MaxNodes          *uint32 `codec:"max_nodes,omitempty"`
	MinNodes          *uint32 `codec:"min_nodes,omitempty"`
	OverSubscribe     string  `codec:"over_subscribe,omitempty"` // NO, EXCLUSIVE, YES:n, FORCE:n
	Default           string  `codec:"default,omitempty"`        // YES or NO
	// Flags are Hidden, RootOnly, ReqResv, LLN, ExclusiveUser and DisableRootJobs as set.
	Flags          map[string]bool `codec:"flags,omitempty"`
	MaxCPUsPerNode *uint32         `codec:"max_cpus_per_node,omitempty"`
	// The access lists ("" for ALL; Alternate "" for none).
	AllowGroups   *string `codec:"allow_groups,omitempty"`
	AllowAccounts *string `codec:"allow_accounts,omitempty"`
	AllowQos      *string `codec:"allow_qos,omitempty"`
	DenyAccounts  *string `codec:"deny_accounts,omitempty"`
	DenyQos       *string `codec:"deny_qos,omitempty"`
	AllocNodes    *string `codec:"alloc_nodes,omitempty"`
	Alternate     *string `codec:"alternate,omitempty"`
	// Memory default and limit in MB: per CPU or per node (the other one 0).
	DefMemPerCPU  *uint64 `codec:"def_mem_per_cpu,omitempty"`
	DefMemPerNode *uint64 `codec:"def_mem_per_node,omitempty"`
	MaxMemPerCPU  *uint64 `codec:"max_mem_per_cpu,omitempty"`
	MaxMemPerNode *uint64 `codec:"max_mem_per_node,omitempty"`

	// Def is the definition of a partition scontrol create made (partition_create.go): the
	// record brings it back at start. Deleted records a partition scontrol delete removed.
	Def     *conf.Partition `codec:"def,omitempty"`
	Deleted bool            `codec:"deleted,omitempty"`
}

// empty says whether r changes nothing of its partition's configuration.
func (r partRecord) empty() bool {
	return r.State == "" && r.MaxTime == wire.NoVal && !r.NodesSet && r.PreemptMode == "" &&
		r.PriorityTier == nil && r.PriorityJobFactor == nil && r.GraceTime == nil &&
		r.DefaultTime == nil && r.MaxNodes == nil && r.MinNodes == nil && r.OverSubscribe == "" &&
		r.Default == "" && len(r.Flags) == 0 && r.MaxCPUsPerNode == nil && r.AllowGroups == nil &&
		r.AllowAccounts == nil && r.AllowQos == nil && r.DenyAccounts == nil && r.DenyQos == nil &&
		r.AllocNodes == nil && r.Alternate == nil && r.DefMemPerCPU == nil && r.DefMemPerNode == nil &&
		r.MaxMemPerCPU == nil && r.MaxMemPerNode == nil
}

// changePart installs a partition override, and others' (the partition Default=YES took
// the default from).
type changePart struct {
	rec    partRecord
	others []partRecord
}

func (ch changePart) plan(t *tables) (*effects, error) {
	recs := append(append([]partRecord(nil), ch.others...), ch.rec)
	for _, r := range recs {
		if t.parts[r.Name] == nil && r.Def == nil {
			return nil, fmt.Errorf("unknown partition %s", r.Name)
		}
	}
	return &effects{parts: recs}, nil
}

// installPart lays r over the partition's configuration. The configuration is copied, never
// modified: c.config() stays what slurm.conf says.
func (t *tables) installPart(r partRecord) {
	if r.Deleted {
		t.removePart(r.Name)
		return
	}
	p := t.parts[r.Name]
	if p == nil {
		if r.Def == nil {
			return
		}
		p = t.addPart(r.Def, true)
	}
	if p.base == nil {
		p.base = p.conf
	}
	cp := *p.base
	if r.State != "" {
		cp.State = r.State
	}
	if r.MaxTime != wire.NoVal {
		cp.MaxTime = r.MaxTime
	}
	if r.PreemptMode != "" {
		cp.PreemptMode = r.PreemptMode
	}
	setIf(&cp.PriorityTier, r.PriorityTier)
	setIf(&cp.PriorityJobFactor, r.PriorityJobFactor)
	setIf(&cp.GraceTime, r.GraceTime)
	setIf(&cp.DefaultTime, r.DefaultTime)
	setIf(&cp.MaxNodes, r.MaxNodes)
	setIf(&cp.MinNodes, r.MinNodes)
	if r.OverSubscribe != "" {
		cp.OverSubscribe = r.OverSubscribe
	}
	for name, on := range r.Flags {
		if f := partFlag(&cp, name); f != nil {
			*f = on
		}
	}
	setIf(&cp.MaxCPUsPerNode, r.MaxCPUsPerNode)
	setIf(&cp.AllowGroups, r.AllowGroups)
	setIf(&cp.AllowAccounts, r.AllowAccounts)
	setIf(&cp.AllowQos, r.AllowQos)
	setIf(&cp.DenyAccounts, r.DenyAccounts)
	setIf(&cp.DenyQos, r.DenyQos)
	setIf(&cp.AllocNodes, r.AllocNodes)
	setIf(&cp.Alternate, r.Alternate)
	if r.DefMemPerCPU != nil || r.DefMemPerNode != nil {
		cp.DefMemPerCPU, cp.DefMemPerNode = 0, 0
		setIf(&cp.DefMemPerCPU, r.DefMemPerCPU)
		setIf(&cp.DefMemPerNode, r.DefMemPerNode)
	}
	if r.MaxMemPerCPU != nil || r.MaxMemPerNode != nil {
		cp.MaxMemPerCPU, cp.MaxMemPerNode = 0, 0
		setIf(&cp.MaxMemPerCPU, r.MaxMemPerCPU)
		setIf(&cp.MaxMemPerNode, r.MaxMemPerNode)
	}
	// Default=YES makes this the default partition (the handler clears it on the one that was);
	// Default=NO on the default partition leaves none, as in Slurm.
	switch r.Default {
	case "YES":
		cp.Default, t.defPart = true, r.Name
	case "NO":
		cp.Default = false
		if t.defPart == r.Name {
			t.defPart = ""
		}
	}
	nodes := cp.Nodes
	if r.NodesSet {
		nodes = r.Nodes
	}
	t.setPartNodes(p, nodes)
	cp.Nodes = p.nodes
	p.conf = &cp
	p.override = r
}

// orKeep is v when set, else was.
func orKeep[T any](v, was *T) *T {
	if v != nil {
		return v
	}
	return was
}

// maxShareString names Slurm's max_share as its show partition prints OverSubscribe.
func maxShareString(v uint16) string {
	force, n := v&0x8000 != 0, v&^0x8000
	switch {
	case n == 0:
		return "EXCLUSIVE"
	case force:
		return "FORCE:" + strconv.Itoa(int(n))
	case n == 1:
		return "NO"
	}
	return "YES:" + strconv.Itoa(int(n))
}

// setIf sets *dst to *v when v is set.
func setIf[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// recoverParts loads the saved partition overrides.
func (c *Controller) recoverParts() error {
	return c.store.Load(kindPart, func(key string, v []byte) error {
		r := new(partRecord)
		if err := wire.Unmarshal(v, r); err != nil {
			return fmt.Errorf("partition record %s in %s: %w", key, c.store.Path(), err)
		}
		if c.t.parts[r.Name] == nil && r.Def == nil && !r.Deleted {
			c.log.Warn("saved partition is no longer in the configuration; dropped", "partition", r.Name)
			return nil
		}
		c.t.installPart(*r)
		return nil
	})
}

// handleUpdatePartition serves MsgUpdatePartition.
func (c *Controller) handleUpdatePartition(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.UpdatePartitionRequest)
	c.mu.Lock()
	p := c.t.parts[r.Name]
	if p == nil {
		c.mu.Unlock()
		return nil, slurmErr(errnoInvalidPartitionName)
	}
	rec := p.override
	if rec.Name == "" {
		rec = partRecord{Name: r.Name, MaxTime: wire.NoVal}
	}
	rec, others, badNodes := c.partUpdate(p, rec, r)
	pend, err := c.apply(changePart{rec: rec, others: others})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "partition update not applied: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("partition updated", "partition", r.Name, "state", r.State, "uid", id.UID)
	c.wake()
	if badNodes {
		return nil, slurmErr(errnoInvalidNodeName)
	}
	return &wire.OK{}, nil
}

// partUpdate lays update r over rec, partition p's override, and returns it with the
// overrides of the partitions Default=YES takes the default from. badNodes says Nodes named
// what is not a node: as Slurm's update_part, the update still applies, with the nodes that
// are (or, for a list that does not parse, the partition's nodes as they were), and the
// caller reports "Invalid node name specified" once it has. (Slurm then shows Nodes=(null)
// for the partition while it holds those nodes; Orbit shows the nodes it holds.) Called
// with c.mu held.
func (c *Controller) partUpdate(p *partEntry, rec partRecord, r *wire.UpdatePartitionRequest) (_ partRecord, others []partRecord, badNodes bool) {
	if r.State != "" {
		rec.State = strings.ToUpper(r.State)
	}
	if r.MaxTime != wire.NoVal {
		rec.MaxTime = r.MaxTime
	}
	if r.PreemptMode != nil {
		if m, ok := conf.PartitionPreemptModeUpdate(*r.PreemptMode); ok {
			rec.PreemptMode = m
		} else {
			c.log.Info("update_part: invalid preempt_mode", "partition", r.Name, "mode", *r.PreemptMode&^0x8000)
		}
	}
	rec.PriorityTier = orKeep(r.PriorityTier, rec.PriorityTier)
	rec.PriorityJobFactor = orKeep(r.PriorityJobFactor, rec.PriorityJobFactor)
	rec.GraceTime = orKeep(r.GraceTime, rec.GraceTime)
	rec.MaxNodes = orKeep(r.MaxNodes, rec.MaxNodes)
	// Slurm leaves NO_VAL alone here (a MinNodes that scontrol read as -2).
	if r.MinNodes != nil && *r.MinNodes != wire.NoVal {
		rec.MinNodes = r.MinNodes
	}
	if r.DefaultTime != nil && *r.DefaultTime != wire.NoVal {
		// Slurm ignores a DefaultTime beyond the MaxTime the partition has after this update.
		maxTime := p.conf.MaxTime
		if r.MaxTime != wire.NoVal {
			maxTime = r.MaxTime
		}
		if *r.DefaultTime > maxTime {
			c.log.Info("update_part: DefaultTime would exceed MaxTime", "partition", r.Name)
		} else {
			rec.DefaultTime = r.DefaultTime
		}
	}
	if r.MaxShare != nil && *r.MaxShare != 0xfffe { // NO_VAL16 ("YES:65534") changes nothing
		rec.OverSubscribe = maxShareString(*r.MaxShare)
	}
	// Default=YES takes the default from the partition that had it.
	switch strings.ToUpper(r.Default) {
	case "YES":
		rec.Default = "YES"
		for _, name := range c.t.partOrder {
			if o := c.t.parts[name]; name != r.Name && o.conf.Default {
				or := o.override
				if or.Name == "" {
					or = partRecord{Name: name, MaxTime: wire.NoVal}
				}
				or.Default = "NO"
				others = append(others, or)
			}
		}
	case "NO":
		if p.conf.Default {
			rec.Default = "NO"
		}
	}
	if len(r.Flags) > 0 {
		flags := maps.Clone(rec.Flags) // rec shares the installed override's map
		if flags == nil {
			flags = map[string]bool{}
		}
		for name, on := range r.Flags {
			if partFlag(p.conf, name) != nil { // names are scontrol's; others are ignored
				flags[name] = on
			}
		}
		rec.Flags = flags
	}
	if r.MaxCPUsPerNode != nil {
		rec.MaxCPUsPerNode = r.MaxCPUsPerNode
	}
	// "" and ALL are every one, as in Slurm; Orbit's configuration keeps "" for that.
	all := func(v *string, word string) *string {
		if v == nil {
			return nil
		}
		if strings.EqualFold(*v, word) {
			return new("")
		}
		return v
	}
	rec.AllowGroups = orKeep(all(r.AllowGroups, "ALL"), rec.AllowGroups)
	rec.AllowAccounts = orKeep(all(r.AllowAccounts, "ALL"), rec.AllowAccounts)
	rec.AllowQos = orKeep(all(r.AllowQos, "ALL"), rec.AllowQos)
	rec.DenyAccounts = orKeep(r.DenyAccounts, rec.DenyAccounts)
	rec.DenyQos = orKeep(r.DenyQos, rec.DenyQos)
	rec.AllocNodes = orKeep(all(r.AllocNodes, "ALL"), rec.AllocNodes)
	rec.Alternate = orKeep(all(r.Alternate, "NONE"), rec.Alternate)
	if r.DefMemPerCPU != nil || r.DefMemPerNode != nil {
		rec.DefMemPerCPU, rec.DefMemPerNode = r.DefMemPerCPU, r.DefMemPerNode
	}
	if r.MaxMemPerCPU != nil || r.MaxMemPerNode != nil {
		rec.MaxMemPerCPU, rec.MaxMemPerNode = r.MaxMemPerCPU, r.MaxMemPerNode
	}
	if r.Nodes != "" {
		names := []string{}
		if strings.EqualFold(r.Nodes, "ALL") {
			names = append(names, c.t.nodeOrder...)
		} else if exp, err := hostlist.Expand(r.Nodes); err != nil {
			// Slurm keeps the nodes the partition had (none for a new one).
			c.log.Info("update_part: invalid node list", "partition", r.Name, "nodes", r.Nodes)
			return rec, others, true
		} else {
			for _, n := range exp {
				if c.t.nodes[n] == nil {
					c.log.Info("update_part: invalid node name in partition", "partition", r.Name, "node", n)
					badNodes = true
					continue
				}
				names = append(names, n)
			}
		}
		rec.NodesSet, rec.Nodes = true, names
	}
	return rec, others, badNodes
}

// partFlag is the flag of partition configuration p an update names, or nil.
func partFlag(p *conf.Partition, name string) *bool {
	switch name {
	case "Hidden":
		return &p.Hidden
	case "RootOnly":
		return &p.RootOnly
	case "ReqResv":
		return &p.ReqResv
	case "LLN":
		return &p.LLN
	case "ExclusiveUser":
		return &p.ExclusiveUser
	case "DisableRootJobs":
		return &p.DisableRootJobs
	}
	return nil
}

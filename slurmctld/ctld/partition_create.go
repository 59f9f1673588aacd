package ctld

import (
	"context"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol create PartitionName=... and scontrol delete PartitionName=... (Slurm's
// create_part / delete_partition): operators only. A created partition starts from Slurm's
// defaults for one (MinNodes=1, no nodes, the cluster's PreemptMode) with the options given
// laid over them as an update; it is saved with its definition and survives a restart. A
// reconfigure rebuilds the partitions from slurm.conf, which drops it, as in Slurm. Delete
// refuses a partition that jobs still name.

const errnoPartitionInUse = 2075 // ESLURM_PARTITION_IN_USE

func init() { errnoTexts[errnoPartitionInUse] = "Partition is in use" }

// newPartDef is the partition Slurm's create_part_record makes before the options apply.
func newPartDef(name string) *conf.Partition {
	return &conf.Partition{Name: name, State: "UP", MaxTime: conf.Infinite32, DefaultTime: conf.NoValue32,
		MaxNodes: conf.Infinite32, MinNodes: 1, MaxCPUsPerNode: conf.Infinite32, OverSubscribe: "NO",
		PriorityJobFactor: 1, PriorityTier: 1}
}

// addPart adds partition def after the others, and returns its entry. A created partition
// (scontrol create) keeps def as its base, under a copy that overrides are laid on.
func (t *tables) addPart(def *conf.Partition, created bool) *partEntry {
	pe := &partEntry{conf: def}
	if created {
		cp := *def
		pe.conf, pe.base = &cp, def
	}
	t.setPartNodes(pe, def.Nodes)
	t.parts[def.Name] = pe
	t.partOrder = append(t.partOrder, def.Name)
	if def.Default && t.defPart == "" {
		t.defPart = def.Name
	}
	return pe
}

// removePart removes a partition from the tables.
func (t *tables) removePart(name string) {
	if t.parts[name] == nil {
		return
	}
	delete(t.parts, name)
	t.partOrder = slices.DeleteFunc(t.partOrder, func(n string) bool { return n == name })
	if t.defPart == name {
		t.defPart = ""
	}
}

// configured says whether slurm.conf defines the partition.
func configured(cfg *conf.Config, name string) bool {
	for _, p := range cfg.Partitions {
		if p.Name == name {
			return true
		}
	}
	return false
}

// handleCreatePartition serves MsgCreatePartition.
func (c *Controller) handleCreatePartition(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := (*wire.UpdatePartitionRequest)(req.Body.(*wire.CreatePartitionRequest))
	c.mu.Lock()
	if r.Name == "" || c.t.parts[r.Name] != nil || strings.EqualFold(r.Name, "default") {
		c.mu.Unlock()
		return nil, slurmErr(errnoInvalidPartitionName)
	}
	def := newPartDef(r.Name)
	scratch := &partEntry{conf: def}
	rec, others, badNodes := c.partUpdate(scratch, partRecord{Name: r.Name, MaxTime: wire.NoVal}, r)
	rec.Def = def
	pend, err := c.apply(changePart{rec: rec, others: others})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "partition not created: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("partition created", "partition", r.Name, "uid", id.UID)
	c.wake()
	if badNodes {
		// Created all the same, as by Slurm's create_part.
		return nil, slurmErr(errnoInvalidNodeName)
	}
	return &wire.OK{}, nil
}

// handleDeletePartition serves MsgDeletePartition.
func (c *Controller) handleDeletePartition(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.DeletePartitionRequest)
	c.mu.Lock()
	if c.t.parts[r.Name] == nil {
		c.mu.Unlock()
		return nil, slurmErr(errnoInvalidPartitionName)
	}
	for _, j := range c.t.jobs {
		if !j.state().IsFinished() && j.Partition == r.Name {
			c.mu.Unlock()
			return nil, slurmErr(errnoPartitionInUse)
		}
	}
	pend, err := c.apply(changePart{rec: partRecord{Name: r.Name, MaxTime: wire.NoVal, Deleted: true}})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "partition not deleted: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("partition deleted", "partition", r.Name, "uid", id.UID)
	return &wire.OK{}, nil
}

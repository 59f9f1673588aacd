package ctld

import (
	"context"
	"fmt"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update PartitionName=... State= MaxTime= Nodes= (Slurm's update_part): operators
// only. What an update changed is stored as a partition override (kind "part") and laid over
// slurm.conf's partition at start, so it survives a controller restart, as Slurm's saved
// partition state does until the next reconfigure.

const kindPart = "part"

// partRecord is a partition's run-time override of its slurm.conf line.
type partRecord struct {
	Name     string   `codec:"name"`
	State    string   `codec:"state"`     // "" = as configured
	MaxTime  uint32   `codec:"max_time"`  // wire.NoVal = as configured
	NodesSet bool     `codec:"nodes_set"` // Nodes replaces the configured list
	Nodes    []string `codec:"nodes"`
}

// changePart installs a partition override.
type changePart struct{ rec partRecord }

func (ch changePart) plan(t *tables) (*effects, error) {
	if t.parts[ch.rec.Name] == nil {
		return nil, fmt.Errorf("unknown partition %s", ch.rec.Name)
	}
	return &effects{parts: []partRecord{ch.rec}}, nil
}

// installPart lays r over the partition's configuration. The configuration is copied, never
// modified: c.config() stays what slurm.conf says.
func (t *tables) installPart(r partRecord) {
	p := t.parts[r.Name]
	if p == nil {
		return
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
	nodes := cp.Nodes
	if r.NodesSet {
		nodes = r.Nodes
	}
	t.setPartNodes(p, nodes)
	cp.Nodes = p.nodes
	p.conf = &cp
	p.override = r
}

// recoverParts loads the saved partition overrides.
func (c *Controller) recoverParts() error {
	return c.store.Load(kindPart, func(key string, v []byte) error {
		r := new(partRecord)
		if err := wire.Unmarshal(v, r); err != nil {
			return fmt.Errorf("partition record %s in %s: %w", key, c.store.Path(), err)
		}
		if c.t.parts[r.Name] == nil {
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
	if r.State != "" {
		rec.State = strings.ToUpper(r.State)
	}
	if r.MaxTime != wire.NoVal {
		rec.MaxTime = r.MaxTime
	}
	if r.Nodes != "" {
		var names []string
		if strings.EqualFold(r.Nodes, "ALL") {
			names = append(names, c.t.nodeOrder...)
		} else {
			exp, err := hostlist.Expand(r.Nodes)
			if err != nil {
				c.mu.Unlock()
				return nil, slurmErr(errnoInvalidNodeName)
			}
			for _, n := range exp {
				if c.t.nodes[n] == nil {
					c.mu.Unlock()
					return nil, slurmErr(errnoInvalidNodeName)
				}
				names = append(names, n)
			}
		}
		rec.NodesSet, rec.Nodes = true, names
	}
	pend, err := c.apply(changePart{rec: rec})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "partition update not applied: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("partition updated", "partition", r.Name, "state", r.State, "uid", id.UID)
	c.wake()
	return &wire.OK{}, nil
}

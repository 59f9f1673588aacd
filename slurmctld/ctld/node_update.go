package ctld

import (
	"context"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update NodeName=... State=... Reason=... (Slurm's update_node): operators only.
// DOWN ends the node's jobs as a node failure does (requeued when allowed); DRAIN keeps them
// running and takes no new ones; RESUME undoes DOWN, DRAIN and FAIL; UNDRAIN clears only the
// drain. The new state and its reason are durable, so they survive a controller restart.

const errnoInvalidNodeState = 2025 // ESLURM_INVALID_NODE_STATE

func init() {
	errnoTexts[errnoInvalidNodeState] = "Invalid node state specified"
}

// handleUpdateNode serves MsgUpdateNode: authenticate → authorize → validate every node →
// one batch for all of them → wait until durable → terminate the jobs a DOWN ended.
func (c *Controller) handleUpdateNode(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.UpdateNodeRequest)
	names, err := hostlist.Expand(r.NodeNames)
	if err != nil || len(names) == 0 {
		return nil, slurmErr(errnoInvalidNodeName)
	}
	now := c.now().Unix()
	c.mu.Lock()
	var errno int32 // an update of features that failed on some node; the rest applies
	var chs multi
	ended := map[uint32]bool{}
	var loss nodeLoss
	for _, name := range names {
		n := c.t.nodeOrAlias(name)
		if n == nil {
			c.mu.Unlock()
			return nil, slurmErr(errnoInvalidNodeName)
		}
		name = n.conf.Name
		rec := n.rec
		st := states.NodeState(rec.State)
		setReason := func() {
			if r.Reason != "" {
				rec.Reason, rec.ReasonTime, rec.ReasonUID = r.Reason, now, r.ReasonUID
			}
		}
		switch strings.ToUpper(r.State) {
		case "":
			setReason()
		case "DOWN":
			st = (st &^ (states.NodeStateBase | states.NodeFail)) | states.NodeDown
			setReason()
			for _, j := range c.t.jobsOnNode(name) {
				if !j.state().IsCompleting() {
					loss.add(j, name) // decided with every node of the update (node_fail.go)
					continue
				}
				if !ended[j.JobID] {
					chs = append(chs, endJob{jobID: j.JobID, state: j.state().Base(), keepReason: true, end: j.EndTime})
				}
				ended[j.JobID] = true
			}
		case "DRAIN":
			st |= states.NodeDrain
			setReason()
		case "FAIL":
			st |= states.NodeDrain | states.NodeFail
			setReason()
		case "RESUME", "IDLE":
			if strings.EqualFold(r.State, "RESUME") && st.Base() != states.NodeDown &&
				st&(states.NodeDrain|states.NodeFail) == 0 {
				c.mu.Unlock()
				return nil, slurmErr(errnoInvalidNodeState)
			}
			if st.Base() == states.NodeDown {
				// Back to service now; the health check sets it DOWN again if slurmd is silent.
				st = (st &^ states.NodeStateBase) | states.NodeIdle
				n.lastContact = now
			}
			st &^= states.NodeDrain | states.NodeFail
			rec.Reason, rec.ReasonTime, rec.ReasonUID = "", 0, 0
		case "UNDRAIN":
			st &^= states.NodeDrain
			if st.Base() != states.NodeDown && st&states.NodeFail == 0 {
				rec.Reason, rec.ReasonTime, rec.ReasonUID = "", 0, 0
			}
		default:
			c.mu.Unlock()
			return nil, slurmErr(errnoInvalidNodeState)
		}
		rec.State = uint32(st)
		if e := updateFeatures(n, &rec, r); e != 0 { // node_features.go
			errno = e
		}
		chs = append(chs, updateNode{rec: rec})
	}
	lossChs, ends := c.lossChanges(&loss, now) // node_fail.go
	chs = append(chs, lossChs...)
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "node update not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("nodes updated", "nodes", r.NodeNames, "state", r.State, "reason", r.Reason, "uid", id.UID)
	for _, e := range ends {
		for _, n := range e.nodes {
			c.send(agentTask{kind: taskTerminate, jobID: e.jobID, node: n})
		}
	}
	c.wake()
	if errno != 0 {
		return nil, slurmErr(errno)
	}
	return &wire.OK{}, nil
}

// nodeOrAlias is Slurm's find_node_record: the node called name or, failing that, the first
// node whose NodeHostname is name (scontrol update NodeName=<host> names it).
func (t *tables) nodeOrAlias(name string) *nodeEntry {
	if n := t.nodes[name]; n != nil {
		return n
	}
	for _, nn := range t.nodeOrder {
		if n := t.nodes[nn]; n.conf.Hostname == name {
			return n
		}
	}
	return nil
}

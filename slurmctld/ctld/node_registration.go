package ctld

import (
	"context"
	"slices"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// reasonNotResponding is the reason of a node set DOWN by the health check, as Slurm writes it.
const reasonNotResponding = "Not responding"

// handleNodeRegistration serves MsgNodeRegistration (slurmd, once per hosted node).
//
// The node becomes IDLE (or stays ALLOCATED/MIXED with its jobs) unless it is DOWN for a
// reason ReturnToService does not clear. Its address is recorded: the controller contacts
// the node there from now on. RunningJobs reconcile the node with the controller:
//   - a job the node runs that the controller does not have running there is terminated
//     (TerminateJobs in the reply);
//   - a job the controller has running with this node as batch host that the node does not
//     list, and that started before this slurmd did, is lost (the node rebooted, or its
//     slurmstepd died with it): it ends NODE_FAIL. A job started after this slurmd started is
//     left alone, since its launch may still be on the way.
//   - a job CANCELLED/TIMEOUT+COMPLETING that the node no longer runs has ended: its nodes are
//     released.
func (c *Controller) handleNodeRegistration(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.NodeRegistration)
	now := c.now().Unix()
	running := map[uint32]bool{}
	for _, jid := range r.RunningJobs {
		running[jid] = true
	}

	c.mu.Lock()
	n := c.t.nodes[r.NodeName]
	if n == nil {
		c.mu.Unlock()
		c.log.Warn("registration from a node not in slurm.conf", "node", r.NodeName, "addr", r.Addr)
		return nil, slurmErr(errnoInvalidNodeName)
	}
	rec := n.rec
	rec.Addr = r.Addr
	rec.BootTime = r.BootTime
	rec.SlurmdStart = r.SlurmdStart
	rec.Version = r.Version
	if r.Arch != "" || r.OS != "" { // an older slurmd sends neither: keep what is known
		rec.Arch, rec.OS = r.Arch, r.OS
	}
	st := states.NodeState(rec.State)
	switch st.Base() {
	case states.NodeUnknown:
		st = (st &^ states.NodeStateBase) | states.NodeIdle
	case states.NodeDown:
		rts := c.config().ReturnToService
		// slurmd registers when it starts and when the controller asks (its ping sweep
		// requests a registration from a node it lost touch with); only a restarted slurmd
		// (a new SlurmdStart) or a node that was merely silent returns to service, so a DOWN
		// set by an operator (node_update.go) stays until slurmd restarts, as in Slurm.
		restarted := r.SlurmdStart != n.rec.SlurmdStart
		if (rts >= 2 && (restarted || rec.Reason == reasonNotResponding)) || (rts == 1 && rec.Reason == reasonNotResponding) {
			st = (st &^ states.NodeStateBase) | states.NodeIdle
			if !st.Has(states.NodeDrain) {
				rec.Reason, rec.ReasonTime, rec.ReasonUID = "", 0, 0
			}
		}
	}
	rec.State = uint32(st)

	var changes multi
	if rec != n.rec {
		changes = append(changes, updateNode{rec: rec})
	}
	var terminate []uint32
	for _, j := range c.t.jobsOnNode(r.NodeName) {
		if running[j.JobID] || j.batchHost() != r.NodeName {
			continue
		}
		switch {
		case j.state().IsCompleting() && c.awaitingEpilogs(j.JobID) && r.SlurmdStart == n.rec.SlurmdStart:
			// Its epilogs still run (epilog_wait.go); a slurmd restarted meanwhile will not
			// report its epilog, so that case ends the COMPLETING below.
		case j.state().IsCompleting():
			changes = append(changes, endJob{jobID: j.JobID, state: j.state().Base(), keepReason: true, end: j.EndTime})
		case r.SlurmdStart > 0 && j.StartTime < r.SlurmdStart:
			c.log.Warn("job lost: its node restarted without it", "job", j.JobID, "node", r.NodeName)
			changes = append(changes, endJob{jobID: j.JobID, state: states.JobNodeFail, reason: states.FailDownNode, end: now})
			terminate = append(terminate, j.JobID)
		}
	}
	for _, jid := range r.RunningJobs {
		if wire.IsNoAllocJob(jid) {
			continue // srun -Z's steps have no job here (Slurm's NoAllocate steps)
		}
		j := c.t.jobs[jid]
		if j == nil || !j.holdsNodes() || !slices.Contains(j.Nodes, r.NodeName) {
			terminate = append(terminate, jid)
		}
	}
	n.lastContact = now
	n.noRespond = false
	n.lastBusy = now // Slurm's validate_node_specs: a node that registers counts as busy now
	if r.Load.Known {
		n.load = r.Load
	}
	var p interface{ Wait(context.Context) error }
	if len(changes) > 0 {
		pp, err := c.apply(changes)
		if err != nil {
			c.mu.Unlock()
			return nil, wire.Errorf(wire.ErrnoSlurmError, "registration not applied: %v", err)
		}
		p = pp
	}
	c.mu.Unlock()
	if p != nil {
		if err := p.Wait(ctx); err != nil {
			return nil, durabilityError(err)
		}
	}
	c.log.Info("node registered", "node", r.NodeName, "addr", r.Addr, "state", states.NodeState(rec.State).String(), "running_jobs", len(r.RunningJobs))
	c.wake()
	slices.Sort(terminate)
	return &wire.NodeRegistrationReply{TerminateJobs: slices.Compact(terminate)}, nil
}

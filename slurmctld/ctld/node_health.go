package ctld

import (
	"github.com/orbit-hpc/orbit/compat/states"
)

// checkNodeHealth starts the ping sweep when it is due (node_ping.go) and sets DOWN every
// node silent for SlurmdTimeout seconds (the sweep pings every node not heard from within
// SlurmdTimeout/3, and every message from a node counts as contact):
// state DOWN* (not responding) with reason "Not responding", and every job on it ends
// NODE_FAIL (reason NodeDown) in the same batch, or is requeued when its --requeue/JobRequeue
// allow it (job_requeue.go), as in Slurm. SlurmdTimeout=0 disables the check.
// A node back from "Not responding" returns to service when it registers again, as
// ReturnToService says (node_registration.go).
func (c *Controller) checkNodeHealth() {
	c.maybePing()
	c.maybeHealthCheck() // node_health_check.go
	timeout := int64(c.config().SlurmdTimeout)
	if timeout == 0 {
		return
	}
	// While a sweep runs, its outcome decides: a sweep of 20,000 nodes, or one waiting on
	// their registrations after a restart, may outlast SlurmdTimeout, and the nodes it has not
	// reached yet (or that it skipped, having heard from them just before) are not silent.
	// The check runs again once the sweep is over, with every answer recorded.
	c.fan.mu.Lock()
	sweeping := c.fan.sweeping
	c.fan.mu.Unlock()
	if sweeping {
		return
	}
	now := c.now().Unix()
	c.mu.Lock()
	var chs multi
	var downed []string
	endedJobs := map[uint32]bool{}
	var loss nodeLoss // node_fail.go
	for _, name := range c.t.nodeOrder {
		n := c.t.nodes[name]
		st := states.NodeState(n.rec.State)
		if st.Base() == states.NodeDown || st.Base() == states.NodeFuture || now-n.lastContact < timeout {
			continue
		}
		rec := n.rec
		rec.State = uint32((st &^ states.NodeStateBase) | states.NodeDown)
		rec.Reason, rec.ReasonTime, rec.ReasonUID = reasonNotResponding, now, c.slurmUID
		chs = append(chs, updateNode{rec: rec})
		downed = append(downed, name)
		for _, j := range c.t.jobsOnNode(name) {
			if !j.state().IsCompleting() {
				loss.add(j, name)
				continue
			}
			if !endedJobs[j.JobID] {
				chs = append(chs, endJob{jobID: j.JobID, state: j.state().Base(), keepReason: true, end: j.EndTime})
			}
			endedJobs[j.JobID] = true
		}
	}
	lossChs, _ := c.lossChanges(&loss, now) // the nodes are gone: nothing to terminate there
	chs = append(chs, lossChs...)
	for _, id := range loss.order {
		endedJobs[id] = true
	}
	if len(chs) == 0 {
		c.mu.Unlock()
		return
	}
	p, err := c.apply(chs)
	if err == nil {
		for _, name := range downed {
			c.t.nodes[name].noRespond = true
		}
	}
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot record unresponsive nodes", "nodes", downed, "err", err)
		return
	}
	c.log.Warn("nodes not responding, set DOWN", "nodes", downed, "jobs_failed", len(endedJobs))
	c.wake()
}

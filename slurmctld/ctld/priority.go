package ctld

import (
	"math"
	"strings"
)

// Priority plugins (PriorityType), as Slurm 22.05 has them:
//
//   - priority/basic (the default): a job's priority is fixed at submit, counting down from
//     0xffff0000 so that jobs run in submit order (maxPriorityBase, tables.lowPrio).
//   - priority/multifactor (priority_multifactor.go): the sum of weighted factors, set at
//     submit and recomputed for every pending job every PriorityCalcPeriod.
//
// Recomputed priorities are kept in memory only: they follow from durable inputs (the
// eligible time, the request, slurm.conf's weights), and the first scheduling pass after a
// restart recomputes them, so persisting every pending job every period would buy nothing a
// user can see. (Slurm does write them with its periodic job state save.)

// priorityState is priority/multifactor's memory: when the pending jobs' priorities were last
// computed, the factors behind each (what sprio shows) and which priorities an administrator
// set (scontrol update Priority=), which recomputation leaves alone as Slurm's direct_set_prio
// does. Guarded by the controller's c.mu.
type priorityState struct {
	lastCalc int64
	factors  map[uint32]jobFactors
	computed map[uint32]uint32 // the priority multifactor last gave each job
	held     map[uint32]bool   // jobs seen held (priority 0): a release is recomputed, not direct
	direct   map[uint32]bool   // priorities an administrator set

	// priority/basic's counter as Slurm keeps it (lowest_prio): the lowest priority handed
	// out *before* nice, and what tables.lowPrio was left at by the last submit (basicPriority).
	basicRel, basicLeft uint32
	basicSet            bool
}

// prio is c's priority state.
func (c *Controller) prio() *priorityState { return &c.prios }

// multifactor says whether PriorityType is priority/multifactor (Slurm compares without
// case).
func (c *Controller) multifactor() bool {
	return strings.EqualFold(c.config().PriorityType, "priority/multifactor")
}

// submitPriority is a new job's priority (not held: the caller keeps 0 for -H), set by the
// submit handler under c.mu: priority/basic's next value down, or multifactor's sum of
// factors at now.
func (c *Controller) submitPriority(j *jobRecord, now int64) uint32 {
	if !c.multifactor() {
		return c.basicPriority(j)
	}
	f := c.jobFactorsAt(j, now)
	p := c.prio()
	p.factors[j.JobID] = f
	prio := f.priority()
	p.computed[j.JobID] = prio
	return prio
}

// recalcPriorities recomputes the priority of every pending, not held job when
// PriorityCalcPeriod has passed since the last time (Slurm's decay thread; the first pass
// after a start computes at once). Between those times it only notices holds, releases (a
// released job is recomputed at once, as Slurm's release calls priority_g_set) and
// priorities an administrator set. Called by the scheduling loop before each pass; the new
// priorities are in memory only (see above) and reach a scheduler plugin with the next delta.
func (c *Controller) recalcPriorities() {
	if !c.multifactor() {
		return
	}
	now := c.now().Unix()
	c.mu.Lock()
	p := c.prio()
	due := p.lastCalc == 0 || now-p.lastCalc >= int64(max(c.config().Priority.CalcPeriod, 1))
	if due {
		p.lastCalc = now
	}
	var save *fairShareSnapshot
	if c.fairShareOn() {
		c.accrueUsage(now)
		if due {
			c.calcFairShare()
			save = c.usageToSave()
		}
	}
	c.recalcPending(now, due)
	c.mu.Unlock()
	c.saveFairShare(save) // outside c.mu: a file write
}

// recalcPending is recalcPriorities' pass over the jobs, with c.mu held.
func (c *Controller) recalcPending(now int64, due bool) {
	p := c.prio()
	for _, m := range []map[uint32]bool{p.held, p.direct} {
		for id := range m {
			if j := c.t.jobs[id]; j == nil || !j.state().IsPending() {
				p.forget(id)
			}
		}
	}
	for id := range p.computed {
		if j := c.t.jobs[id]; j == nil || !j.state().IsPending() {
			p.forget(id)
		}
	}
	for id, j := range c.t.jobs {
		if !j.state().IsPending() {
			continue
		}
		if j.Priority == 0 { // held: stays 0, as Slurm skips held jobs
			p.held[id] = true
			delete(p.factors, id)
			continue
		}
		last, known := p.computed[id]
		released := p.held[id]
		switch {
		case p.direct[id] || j.PrioritySet:
			continue
		case known && last != j.Priority && !released:
			// An administrator set it (scontrol update Priority=): it sticks.
			p.direct[id] = true
			delete(p.factors, id)
			continue
		case !due && known && !released:
			continue
		}
		delete(p.held, id)
		f := c.jobFactorsAt(j, now)
		prio := f.priority()
		p.factors[id] = f
		p.computed[id] = prio
		if j.Priority != prio {
			n := j.clone()
			n.Priority = prio
			c.t.jobs[id] = n // memory only (see above)
		}
	}
}

// startPriority logs, as Slurm's priority/multifactor does when it loads, the weights it
// ignores without accounting, and reads the saved fair-share usage. Called once recovery is
// done.
func (c *Controller) startPriority() {
	if !c.multifactor() {
		return
	}
	pc := c.config().Priority
	if !c.config().AccountingEnabled() {
		if pc.WeightAge != 0 {
			c.log.Error("PriorityWeightAge can only be used with SlurmDBD, ignoring")
		}
		if pc.WeightFairShare != 0 {
			c.log.Error("PriorityWeightFairshare can only be used with SlurmDBD, ignoring")
		}
		return
	}
	c.loadFairShare()
}

// forget drops what p knows of a job that is no longer pending.
func (p *priorityState) forget(id uint32) {
	delete(p.factors, id)
	delete(p.computed, id)
	delete(p.held, id)
	delete(p.direct, id)
}

// basicPriority is priority/basic's priority for a new job, as Slurm's priority_p_set and
// set_job_prio: one below the lowest priority given so far, minus the job's nice (unless
// that would take it to 1 or below); the counter itself moves by one whatever the nice, so
// a nice job does not push later jobs down.
//
// tables.lowPrio (lowered by every installed job) cannot tell a nice job's shift from a
// release or a recovered job, so the counter before nice is kept here: when lowPrio is where
// the last submit left it, that counter is the truth; when something else lowered it since
// (a release hands out lowPrio-1), the lower of the two is.
func (c *Controller) basicPriority(j *jobRecord) uint32 {
	p := c.prio()
	low := c.t.lowPrio
	if p.basicSet {
		if low == p.basicLeft {
			low = p.basicRel
		} else {
			low = min(low, p.basicRel)
		}
	}
	prio := uint32(1)
	if low >= 2 {
		prio = low - 1
	}
	rel := prio
	if off := int64(int32(j.descInt(descNice))); off <= 0 || int64(prio) > off+1 {
		prio = uint32(min(max(int64(prio)-off, 1), math.MaxUint32))
	}
	p.basicRel, p.basicLeft, p.basicSet = rel, min(c.t.lowPrio, prio), true
	return prio
}

package ctld

import (
	"slices"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// purgeBatch bounds how many finished jobs one purge change removes.
const purgeBatch = 1000

// limitsLoop sends --signal warnings and enforces time limits and MinJobAge once a second.
func (c *Controller) limitsLoop() {
	defer c.wg.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-tick.C:
		}
		c.sendWarnSignals() // job_warn_signal.go: --signal without B:
		c.enforceTimeLimits()
		c.reterminateCompleting() // job_inactive.go
		c.purgeOldJobs()
		c.tickResvs() // resv_end.go
		c.checkNodeHealth()
	}
}

// runSeconds is how long a running job has run by now, its suspensions not counted.
func (j *jobRecord) runSeconds(now int64) int64 {
	return j.PreSusTime + now - max(j.StartTime, j.SuspendTime)
}

// enforceTimeLimits ends every running job past its time limit plus OverTimeLimit, every job
// past its reservation's end plus ResvOverRun (resv_overrun.go), and every interactive
// allocation past InactiveLimit (job_inactive.go): TIMEOUT (reason TimeLimit or
// InactiveLimit) with COMPLETING, and a terminate to each of its nodes. The node kills the
// steps (SIGTERM, KillWait, SIGKILL) and the batch host reports the end, which releases the
// nodes.
func (c *Controller) enforceTimeLimits() {
	now := c.now().Unix()
	over := int64(c.config().OverTimeLimit) * 60
	type victim struct {
		id      uint32
		nodes   []string
		details string
	}
	var victims []victim
	var chs multi
	overrun, noOverrunLimit := resvOverRun(c.config()) // resv_overrun.go
	c.mu.Lock()
	for _, j := range c.t.jobs {
		if !j.state().IsRunning() {
			continue
		}
		finite := j.TimeLimit != wire.Infinite && j.TimeLimit != wire.NoVal
		if finite {
			c.mailTimeLimits(j, now) // job_mail.go: --mail-type=TIME_LIMIT_*, the limit's own at its end
		}
		limited := finite && j.runSeconds(now) >= int64(j.TimeLimit)*60+over
		if !limited && (noOverrunLimit || !c.t.resvEnded(j, now, overrun)) {
			continue
		}
		chs = append(chs, endJob{jobID: j.JobID, state: states.JobTimeout, reason: states.FailTimeout, end: now, completing: true})
		v := victim{id: j.JobID, nodes: append([]string(nil), j.Nodes...)}
		if !limited {
			v.details = resvEndedText(j.descStr(descReservation)) // resv_overrun.go
		}
		victims = append(victims, v)
	}
	if limit := int64(c.config().InactiveLimit); limit > 0 {
		for _, j := range c.inactiveJobs(now, limit) { // job_inactive.go
			if !slices.ContainsFunc(victims, func(v victim) bool { return v.id == j.JobID }) {
				chs = append(chs, endJob{jobID: j.JobID, state: states.JobTimeout, reason: states.FailInactiveLimit, end: now, completing: true})
				victims = append(victims, victim{id: j.JobID, nodes: append([]string(nil), j.Nodes...)})
			}
		}
	}
	if len(chs) == 0 {
		c.mu.Unlock()
		return
	}
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot record time limits", "err", err)
		return
	}
	for _, v := range victims {
		c.log.Info("job reached its time limit or InactiveLimit", "job", v.id)
		c.sendNodes(agentTask{kind: taskTerminate, jobID: v.id, timedOut: true, details: v.details}, v.nodes) // one broadcast
	}
}

// purgeOldJobs removes finished jobs MinJobAge seconds after they ended (MinJobAge=0 keeps
// them forever, as in Slurm). Each is appended to the accounting table first, in the same
// batch that deletes it from the live table.
func (c *Controller) purgeOldJobs() {
	age := int64(c.config().MinJobAge)
	if age == 0 {
		return
	}
	now := c.now().Unix()
	c.mu.Lock()
	var ids []uint32
	for id, j := range c.t.jobs {
		if j.state().IsFinished() && !j.state().IsCompleting() && j.EndTime+age <= now {
			ids = append(ids, id)
			if len(ids) == purgeBatch {
				break
			}
		}
	}
	if len(ids) == 0 {
		c.mu.Unlock()
		return
	}
	gone := make([]*jobRecord, len(ids))
	for i, id := range ids {
		gone[i] = c.t.jobs[id]
	}
	p, err := c.apply(purgeJobs{ids: ids})
	if err == nil {
		for _, j := range gone {
			c.forgetJobUsage(j, now) // its last seconds, before fair-share loses sight of it
		}
	}
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot purge old jobs", "err", err)
	}
}

// memUnsatisfiableMsg is the explanation Slurm's select_nodes gives (_set_err_msg) when no
// node of the partition has the memory a job asks for.
const memUnsatisfiableMsg = "Memory specification can not be satisfied"

// tmpUnsatisfiableMsg is its explanation for a --tmp no node of the partition has (TmpDisk).
const tmpUnsatisfiableMsg = "Temporary disk specification can not be satisfied"

// memUnsatisfiable is the refusal of a job no node's memory can hold, as Slurm 22.05 sends
// it: ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE with the explanation as err_msg, so sbatch
// prints "sbatch: error: Memory specification can not be satisfied" and then "Batch job
// submission failed: Requested node configuration is not available" (exit 1).
func memUnsatisfiable() *wire.Error {
	e := slurmErr(errnoNodeConfigUnavail)
	e.UserMsg = memUnsatisfiableMsg
	return e
}

// memUnholdable says whether j needs more memory on a node than any node of partition p has.
func (t *tables) memUnholdable(j *jobRecord, p *partEntry) bool {
	need := j.memPerNode(ceilDiv(j.NumTasks, j.MinNodes) * j.CPUsPerTask)
	if need == 0 {
		return false
	}
	var most uint64
	for _, n := range p.nodes {
		most = max(most, t.nodes[n].conf.RealMemory)
	}
	return need > most
}

// tmpUnholdable says whether a --tmp of tmpMB (wire.NoVal64: none) is more than any node of
// partition p has (TmpDisk). The scheduler does not place by TmpDisk, so the commands refuse
// a --tmp only some nodes have.
func (t *tables) tmpUnholdable(tmpMB uint64, p *partEntry) bool {
	if tmpMB == wire.NoVal64 || tmpMB == 0 {
		return false
	}
	var most uint64
	for _, n := range p.nodes {
		most = max(most, uint64(t.nodes[n].conf.TmpDisk))
	}
	return tmpMB > most
}

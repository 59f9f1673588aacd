package ctld

import (
	"cmp"
	"fmt"
	"slices"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Preemption by partition, as Slurm 22.05's preempt/partition_prio with its gang scheduler
// (PreemptType=preempt/partition_prio, PreemptMode=CANCEL|REQUEUE|SUSPEND[,GANG]):
//
//   - a pending job that cannot start may take the nodes of running jobs of partitions with
//     a lower PriorityTier that share nodes with its own, unless their partition says
//     PreemptMode=OFF; the fewest, lowest-tier and smallest are chosen first;
//   - each is preempted as its partition's PreemptMode (else the cluster's) says: CANCEL ends
//     it PREEMPTED; REQUEUE requeues a batch job that allows it (else it is cancelled);
//     SUSPEND stops it and lends its nodes to the preemptor, and it is resumed once they are
//     free again;
//   - slurmstepd says "CANCELLED AT ... DUE TO PREEMPTION" in the output of a job cancelled
//     or requeued so.
//
// The scheduler plugin knows nothing of it: the controller acts after applying a plan, for
// the first job of the queue that preemption lets start, and wakes the next cycle, which
// starts the job once its preemptees' nodes are free (at once for SUSPEND, which the
// controller starts itself so that the suspended job is not resumed in between).
// Outside GANG, a partition's GraceTime delays the act: the first attempt records
// PreemptTime, brings the job's end to the grace's end and sends its steps SIGCONT and
// SIGTERM; the attempt after that preempts it (Slurm's preempt.c). A job runs its
// PreemptExemptTime before it can be preempted.

// preemptDepth bounds the pending jobs one pass tries preemption for (each try copies the
// partition's nodes and looks at every job), as Slurm's main scheduler looks at
// default_queue_depth (100) jobs.
const preemptDepth = 100

// preemptAct is what a preemption sends nodes once it is durable.
type preemptAct struct {
	jobID     uint32
	action    conf.PreemptAction
	nodes     []string
	terminate bool  // the run ends (CANCEL, REQUEUE)
	grace     int64 // the job's GraceTime starts: it is signalled, and preempted after it
}

// preemptOutcome is one pass's result: the changes' durability, what to send, and the
// preemptor when the controller started it itself.
type preemptOutcome struct {
	acts    []preemptAct
	pending []started // a preemptor started at once (SUSPEND), to launch
	durable *store.Pending
}

// preemptTimes are a job's PreemptEligibleTime and PreemptTime as scontrol shows them:
// started jobs whose partition's mode is not OFF, with preemption on, are preemptable once
// they have run PreemptExemptTime.
func (c *Controller) preemptTimes(j *jobRecord) (eligible, at int64) {
	cfg := c.config()
	s := j.state()
	if s.IsPending() || j.StartTime == 0 || !cfg.PreemptOn() {
		return 0, 0
	}
	var pc *conf.Partition
	if p := c.t.parts[j.Partition]; p != nil && cfg.PreemptType == "preempt/partition_prio" {
		pc = p.conf // other types read the cluster's mode (QOS modes need accounting)
	}
	if cfg.PartitionPreemptAction(pc) == conf.PreemptOff {
		return 0, 0
	}
	return j.StartTime + cfg.PreemptExemptSecs, j.PreemptTime
}

// preemptable says whether running job r may be preempted by a job of a partition of tier
// tier with these nodes (Slurm's preempt_p_preemptable and job_preempt_check), now that it
// has run its PreemptExemptTime (exempt seconds).
func (c *Controller) preemptable(r *jobRecord, tier uint16, nodes []string, now, exempt int64) bool {
	if !r.state().IsRunning() || r.state().IsCompleting() || !r.countsOnNodes() {
		return false
	}
	if now < r.StartTime+exempt {
		return false
	}
	p := c.t.parts[r.Partition]
	if p == nil || p.conf.PriorityTier >= tier || conf.PartitionPreemptOff(p.conf) ||
		c.config().PartitionPreemptAction(p.conf) == conf.PreemptOff {
		return false
	}
	return overlaps(r.Nodes, nodes)
}

// preemptPass looks, in queue order, for the first eligible pending job of cur that cannot
// start but would once running jobs of lower tiers were preempted, and preempts them. Called
// with c.mu held, after the cycle's plan was applied.
func (c *Controller) preemptPass(cur sentState, now int64) *preemptOutcome {
	cfg := c.config()
	if !cfg.PreemptByPartition() {
		return nil
	}
	// The lowest tier of a running preemptable job: pending jobs at or below it cannot preempt.
	lowest, found := uint16(0), false
	var holding []*jobRecord // the jobs holding nodes, looked at for each pending job
	for _, r := range c.t.jobs {
		if r.holdsNodes() {
			holding = append(holding, r)
		}
		if r.state().IsRunning() && r.countsOnNodes() {
			if p := c.t.parts[r.Partition]; p != nil && !conf.PartitionPreemptOff(p.conf) {
				if !found || p.conf.PriorityTier < lowest {
					lowest, found = p.conf.PriorityTier, true
				}
			}
		}
	}
	if !found {
		return nil
	}
	type cand struct {
		j     *jobRecord
		parts []string
		tier  uint16
	}
	var queue []cand
	for _, s := range cur.jobs {
		if !s.pending || s.reason != states.WaitNoReason {
			continue
		}
		j := c.t.jobs[s.rec.JobID]
		if j == nil || !j.state().IsPending() || j.state().IsCompleting() {
			continue // started by the plan, or changed
		}
		parts := s.parts
		if parts == nil {
			parts = []string{j.Partition}
		}
		var tier uint16
		for _, name := range parts {
			if p := c.t.parts[name]; p != nil {
				tier = max(tier, p.conf.PriorityTier)
			}
		}
		if tier > lowest {
			queue = append(queue, cand{j, parts, tier})
		}
	}
	slices.SortFunc(queue, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.tier, a.tier), cmp.Compare(b.j.Priority, a.j.Priority),
			cmp.Compare(a.j.SubmitTime, b.j.SubmitTime), cmp.Compare(a.j.JobID, b.j.JobID))
	})
	if len(queue) > preemptDepth {
		queue = queue[:preemptDepth]
	}
	for _, q := range queue {
		for _, name := range q.parts {
			p := c.t.parts[name]
			if p == nil {
				continue
			}
			victims, waits := c.preemptees(q.j, p, holding, now)
			if waits {
				return nil // it starts once the jobs already on their way out are gone
			}
			if len(victims) > 0 {
				return c.preempt(q.j, p, victims, now)
			}
		}
	}
	return nil
}

// preemptees chooses among holding (the jobs holding nodes) the running jobs whose
// preemption lets j start in p, fewest first in
// Slurm's order (lower tier, then fewer nodes). waits says j will fit once the jobs already
// completing (or suspended by preemption) have left, so that no one is to be preempted.
func (c *Controller) preemptees(j *jobRecord, p *partEntry, holding []*jobRecord, now int64) (victims []*jobRecord, waits bool) {
	if !c.t.fitsEver(j, p) {
		return nil, false
	}
	future := c.t.sketch(p.nodes)
	var cands []*jobRecord
	exempt := c.config().PreemptExemptSecs
	for _, r := range holding {
		switch {
		case r.holdsNodes() && r.state().IsCompleting() && overlaps(r.Nodes, p.nodes):
			releaseOn(future, r)
		case c.preemptable(r, p.conf.PriorityTier, p.nodes, now, exempt):
			cands = append(cands, r)
		}
	}
	if _, ok := future.selectNodes(j, p, c.trackMem); ok {
		return nil, true
	}
	tierOf := func(r *jobRecord) uint16 { return c.t.parts[r.Partition].conf.PriorityTier }
	chosen := func(r *jobRecord) int { // jobs already in their grace time come first
		if r.PreemptTime != 0 {
			return 0
		}
		return 1
	}
	slices.SortFunc(cands, func(a, b *jobRecord) int {
		return cmp.Or(cmp.Compare(chosen(a), chosen(b)), cmp.Compare(tierOf(a), tierOf(b)), cmp.Compare(len(a.Nodes), len(b.Nodes)),
			cmp.Compare(a.Priority, b.Priority), cmp.Compare(b.StartTime, a.StartTime), cmp.Compare(a.JobID, b.JobID))
	})
	for i, r := range cands {
		releaseOn(future, r)
		a, ok := future.selectNodes(j, p, c.trackMem)
		if !ok {
			continue
		}
		for _, v := range cands[:i+1] {
			if overlaps(v.Nodes, a.nodes) {
				victims = append(victims, v)
			}
		}
		return victims, false
	}
	return nil, false
}

// releaseOn releases r's allocation on the nodes future holds (a partition's copies).
func releaseOn(future *tables, r *jobRecord) {
	part := &tables{nodes: map[string]*nodeEntry{}, parts: future.parts, wholeCores: future.wholeCores, sharesAtAll: future.sharesAtAll,
		shareRow: future.shareRow}
	for _, name := range r.Nodes {
		if n := future.nodes[name]; n != nil {
			part.nodes[name] = n
		}
	}
	part.release(r)
}

// preempt applies the preemption of victims for j (partition p). Called with c.mu held.
func (c *Controller) preempt(j *jobRecord, p *partEntry, victims []*jobRecord, now int64) *preemptOutcome {
	cfg := c.config()
	at := now
	if cfg.PreemptGang() {
		at = 0 // Slurm's gang scheduler preempts without recording a PreemptTime
	}
	var chs multi
	out := &preemptOutcome{}
	suspended := false
	for _, v := range victims {
		vp := c.t.parts[v.Partition].conf
		action := cfg.PartitionPreemptAction(vp)
		act := preemptAct{jobID: v.JobID, action: action, nodes: slices.Clone(v.Nodes)}
		// GraceTime (outside GANG, as Slurm's preempt.c): the first attempt records the
		// preemption, moves the end to the grace's end and sends the steps SIGCONT and
		// SIGTERM; the job is preempted at the first attempt after that.
		switch {
		case v.PreemptTime != 0 && now < v.EndTime:
			continue // in its grace time
		case v.PreemptTime == 0 && at != 0 && vp.GraceTime > 0:
			chs = append(chs, graceStart{jobID: v.JobID, now: now, grace: int64(vp.GraceTime)})
			act.grace = int64(vp.GraceTime)
			out.acts = append(out.acts, act)
			continue
		}
		var ch change
		switch action {
		case conf.PreemptSuspend:
			ch = suspendJob{jobID: v.JobID, suspend: true, now: now, preempted: true}
			suspended = true
		case conf.PreemptRequeue:
			if rq, _, errno := c.requeueChange(v, false, true, now); errno == 0 && !v.isInteractive() {
				ch, act.terminate = rq, true
				break
			}
			c.log.Info("preempted job cannot be requeued; cancelling it", "job", v.JobID)
			act.action = conf.PreemptCancel
			fallthrough
		default:
			ch = endJob{jobID: v.JobID, state: states.JobPreempted, end: now, completing: true}
			act.terminate = true
		}
		chs = append(chs, preemptStamp{inner: ch, jobID: v.JobID, at: at})
		out.acts = append(out.acts, act)
	}
	if len(chs) == 0 {
		return nil // every victim is in its grace time
	}
	pend, err := c.apply(chs)
	if err != nil {
		c.log.Error("preemption not applied", "job", j.JobID, "err", err)
		return nil
	}
	out.durable = pend
	for _, a := range out.acts {
		if a.grace > 0 {
			c.log.Info("preemption grace time started", "job", a.jobID, "seconds", a.grace, "for", j.JobID)
			continue
		}
		c.log.Info("preempted job to reclaim resources", "job", a.jobID, "mode", a.action.String(), "for", j.JobID)
	}
	if suspended {
		// The suspended jobs' nodes are free now: the preemptor takes them in this pass, so
		// that the resume check of the next cycle does not give them back first.
		if a, ok := c.t.selectNodes(j, p, c.trackMem); ok {
			s := scheduler.Start{JobID: j.JobID, Partition: p.conf.Name, Nodes: a.nodes, CPUs: a.cpus}
			rec, alloc, err := c.verifyStart(s, now, c.inUse(), map[uint32]bool{})
			if err == nil {
				ch, id := c.startChange(rec, alloc, now, false)
				if sp, err := c.apply(ch); err == nil {
					out.pending = append(out.pending, started{jobID: id, p: sp})
				}
			} else {
				c.log.Warn("preemptor not started", "job", j.JobID, "why", err.Error())
			}
		}
	}
	return out
}

// graceStart records a preemption whose GraceTime starts: PreemptTime is now and the job's
// end no later than the grace's end (Slurm's _job_check_grace).
type graceStart struct {
	jobID uint32
	now   int64
	grace int64
}

func (ch graceStart) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil {
		return nil, fmt.Errorf("job %d does not exist", ch.jobID)
	}
	n := j.clone()
	n.PreemptTime = ch.now
	if n.EndTime == 0 || n.EndTime > ch.now+ch.grace {
		n.EndTime = ch.now + ch.grace
	}
	return &effects{jobs: []*jobRecord{n}}, nil
}

// preemptStamp is a preemption's change with the preemption time recorded on the job's run.
type preemptStamp struct {
	inner change
	jobID uint32
	at    int64 // 0 = not recorded (GANG)
}

func (ch preemptStamp) plan(t *tables) (*effects, error) {
	e, err := ch.inner.plan(t)
	if err != nil || ch.at == 0 {
		return e, err
	}
	for _, n := range e.jobs {
		if n.JobID == ch.jobID && !n.state().IsPending() {
			n.PreemptTime = ch.at // a fresh copy the inner change made
		}
	}
	return e, nil
}

// resumeSuspended resumes the jobs preemption suspended that fit again and continues their
// processes once that is durable.
func (c *Controller) resumeSuspended(now int64) {
	c.mu.Lock()
	resumed, pends := c.resumePreempted(now)
	c.mu.Unlock()
	if len(resumed) == 0 {
		return
	}
	for _, p := range pends {
		if err := p.Wait(c.ctx); err != nil {
			c.log.Error("resume not durable; nothing sent", "err", err)
			return
		}
	}
	for _, a := range resumed {
		c.log.Info("resumed job suspended by preemption", "job", a.jobID)
		for _, n := range a.nodes {
			c.send(agentTask{kind: taskSignal, jobID: a.jobID, node: n, signal: int32(syscall.SIGCONT), flags: wire.KillFullJob})
		}
	}
}

// carryOut sends what a preemption asks of the nodes once it is durable: SIGSTOP to the
// suspended jobs, the terminate of the cancelled and requeued runs.
func (c *Controller) carryOut(o *preemptOutcome) {
	if o == nil {
		return
	}
	if err := o.durable.Wait(c.ctx); err != nil {
		c.log.Error("preemption not durable; nothing sent", "err", err)
		return
	}
	for _, a := range o.acts {
		if a.grace > 0 {
			for _, sig := range []syscall.Signal{syscall.SIGCONT, syscall.SIGTERM} {
				c.sendNodes(agentTask{kind: taskSignal, jobID: a.jobID, signal: int32(sig)}, a.nodes) // its steps
			}
			time.AfterFunc(time.Duration(a.grace+1)*time.Second, c.wake) // preempted then
			continue
		}
		if a.terminate {
			c.sendNodes(agentTask{kind: taskTerminate, jobID: a.jobID, preempted: true}, a.nodes)
			continue
		}
		for _, n := range a.nodes {
			c.send(agentTask{kind: taskSignal, jobID: a.jobID, node: n, signal: int32(syscall.SIGSTOP), flags: wire.KillFullJob})
		}
	}
	c.launchStarted(o.pending)
	c.wake() // the preemptor starts once its nodes are free
}

// resumePreempted resumes the jobs preemption suspended whose nodes are free again (Slurm's
// gang scheduler), before the plugin plans the cycle. Called with c.mu held; it returns the
// resumed jobs' nodes to send SIGCONT to, and the changes' durability.
func (c *Controller) resumePreempted(now int64) (resumed []preemptAct, pends []*store.Pending) {
	var ids []uint32
	for id, j := range c.t.jobs {
		if j.PreemptSuspended && j.state().IsSuspended() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids) // the earliest suspended first, as they were started
	for _, id := range ids {
		j := c.t.jobs[id]
		if !c.t.fitsAgain(j, c.trackMem) {
			continue
		}
		// Applied one by one, so that the next one is judged with this one counted.
		pend, err := c.apply(suspendJob{jobID: id, suspend: false, now: now})
		if err != nil {
			c.log.Error("cannot resume preempted job", "job", id, "err", err)
			continue
		}
		resumed = append(resumed, preemptAct{jobID: id, nodes: slices.Clone(j.Nodes)})
		pends = append(pends, pend)
	}
	return resumed, pends
}

// fitsAgain says whether a job suspended by preemption fits on its own nodes again.
func (t *tables) fitsAgain(j *jobRecord, trackMem bool) bool {
	for i, name := range j.Nodes {
		n := t.nodes[name]
		if n == nil || n.exclusive > 0 || j.Exclusive && n.jobs > 0 || !t.servesUser(n, j, nil) {
			return false
		}
		if n.busyCPUs()+t.heldOn(j, n, j.CPUsPerNode[i]) > n.cpus() {
			return false
		}
		if trackMem && j.MemAlloc > 0 && n.allocMem+j.MemAlloc > n.conf.RealMemory {
			return false
		}
		if i < len(j.GresAlloc) && !n.gresFree(j.GresAlloc[i]) {
			return false
		}
	}
	return true
}

// gresFree says whether the devices of takes are all free on n.
func (n *nodeEntry) gresFree(takes []gresTake) bool {
	for _, tk := range takes {
		for _, e := range n.gres {
			if e.name != tk.Name || e.typ != tk.Type {
				continue
			}
			for _, d := range tk.Index {
				if d >= e.first && int(d-e.first) < len(e.used) && e.used[d-e.first] {
					return false
				}
			}
		}
	}
	return true
}

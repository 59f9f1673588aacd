package ctld

import (
	"context"
	"fmt"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// A change is one typed state change. plan checks it against the current tables and returns
// what it writes, without modifying anything; Controller.apply then writes the effects to the
// store and installs them in memory. Every value a change needs (ids, times, exit codes) is
// in its fields, stamped by the handler: plan never reads the clock, so applying the same
// changes in the same order always gives the same state.
type change interface {
	plan(t *tables) (*effects, error)
}

// effects are what a change writes.
type effects struct {
	jobs      []*jobRecord // new or replaced job records
	purge     []uint32     // finished jobs leaving memory and the live table (accounted first)
	nodes     []nodeRecord // replaced node records
	parts     []partRecord // replaced partition overrides (partition_update.go)
	nextJobID uint32       // 0 = unchanged
	// scripts are new batch jobs' scripts and environments, by script id, stored beside
	// their records in the same batch (job_record_script.go).
	scripts map[uint32]*scriptRecord
	// resvs are new or replaced reservations, resvsGone those deleted, resvSuffix the name
	// counter's new value (0 = unchanged) (resv_record.go).
	resvs      []*resvRecord
	resvsGone  []string
	resvSuffix uint32
}

// apply is the one path by which state changes: it plans ch, enqueues the batch that makes it
// durable and installs it in memory. The caller holds c.mu for writing, so disk order is
// memory order; it waits on the returned Pending after unlocking, and replies "accepted" only
// when the wait returns nil.
func (c *Controller) apply(ch change) (*store.Pending, error) {
	e, err := ch.plan(c.t)
	if err != nil {
		return nil, err
	}
	b := new(store.Batch)
	for _, j := range e.jobs {
		v, err := j.encode()
		if err != nil {
			return nil, err
		}
		b.Put(kindJob, jobKey(j.JobID), v)
	}
	if err := putScripts(b, e.scripts); err != nil {
		return nil, err
	}
	for _, id := range e.purge {
		j := c.t.jobs[id]
		if j == nil {
			continue
		}
		v, err := c.acctWithScript(j).encode()
		if err != nil {
			return nil, err
		}
		b.AppendAccountingUID(kindJob, jobKey(id), j.EndTime, j.UserID, v) // sacct -u selects on it (acct_query.go)
		b.Delete(kindJob, jobKey(id))
	}
	c.t.purgeScripts(b, e.purge)
	for i := range e.nodes {
		v, err := wire.Marshal(&e.nodes[i])
		if err != nil {
			return nil, fmt.Errorf("encode node %s: %w", e.nodes[i].Name, err)
		}
		b.Put(kindNode, e.nodes[i].Name, v)
	}
	for i := range e.parts {
		if e.parts[i].Deleted && e.parts[i].Def == nil && !configured(c.config(), e.parts[i].Name) {
			b.Delete(kindPart, e.parts[i].Name) // a partition scontrol create made leaves no trace
			continue
		}
		v, err := wire.Marshal(&e.parts[i])
		if err != nil {
			return nil, fmt.Errorf("encode partition %s: %w", e.parts[i].Name, err)
		}
		b.Put(kindPart, e.parts[i].Name, v)
	}
	if e.nextJobID != 0 {
		b.SetCounter(counterNextJob, int64(e.nextJobID))
	}
	for _, r := range e.resvs {
		v, err := wire.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encode reservation %s: %w", r.Name, err)
		}
		b.Put(kindResv, r.Name, v)
	}
	for _, name := range e.resvsGone {
		b.Delete(kindResv, name)
	}
	if e.resvSuffix != 0 {
		b.SetCounter(counterResvSuffix, int64(e.resvSuffix))
	}
	p, err := c.store.Enqueue(c.ctx, b)
	if err != nil {
		return nil, err
	}
	for _, j := range e.jobs {
		old := c.t.jobs[j.JobID]
		c.t.installJob(j)
		c.mailTransition(old, j) // job_mail.go: MailProg for --mail-type events
	}
	for _, id := range e.purge {
		c.t.removeJob(id)
	}
	for _, r := range e.nodes {
		if n := c.t.nodes[r.Name]; n != nil {
			n.rec = r
		}
	}
	for _, r := range e.parts {
		c.t.installPart(r)
	}
	if e.nextJobID > c.t.nextJobID {
		c.t.nextJobID = e.nextJobID
	}
	for _, name := range e.resvsGone {
		delete(c.t.resvs, name)
	}
	for _, r := range e.resvs {
		c.t.installResv(r)
	}
	c.t.resvSuffix = max(c.t.resvSuffix, e.resvSuffix)
	return p, nil
}

// applyWait applies ch under the write lock and waits for durability outside it.
func (c *Controller) applyWait(ctx context.Context, ch change) error {
	c.mu.Lock()
	p, err := c.apply(ch)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	return p.Wait(ctx)
}

// submitJob adds a new pending job; its id is the next job id. A batch job's script and
// environment (detachScript) are stored in the same batch, under the job's id.
type submitJob struct {
	job    *jobRecord
	script *scriptRecord // nil for an interactive allocation
}

func (ch submitJob) plan(t *tables) (*effects, error) {
	if _, dup := t.jobs[ch.job.JobID]; dup {
		return nil, fmt.Errorf("job %d already exists", ch.job.JobID)
	}
	e := &effects{jobs: []*jobRecord{ch.job}, nextJobID: ch.job.JobID + 1}
	if ch.script != nil {
		j := ch.job.clone()
		j.ScriptID = j.JobID // an array's tasks keep it: they share the array's script
		e.jobs[0] = j
		e.scripts = map[uint32]*scriptRecord{j.ScriptID: ch.script}
	}
	return e, nil
}

// startJob moves a pending job to RUNNING on an allocation the scheduler chose.
type startJob struct {
	jobID       uint32
	nodes       []string
	cpusPerNode []uint32
	memAlloc    uint64
	start       int64
	gres        [][]gresTake // devices held on nodes[i] (gres.go)
	timeLimit   uint32       // the job's new time limit (a --deadline cuts it), 0 = unchanged
	partition   string       // where a job of several partitions runs, "" = its Partition
	backfill    bool         // the backfill pass starts it
	magnetic    string       // the magnetic reservation it is drawn into (resv_magnetic.go)
}

func (ch startJob) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil || !j.state().IsPending() {
		return nil, fmt.Errorf("job %d is not pending", ch.jobID)
	}
	for _, name := range ch.nodes {
		if t.nodes[name] == nil {
			return nil, fmt.Errorf("job %d: unknown node %s", ch.jobID, name)
		}
	}
	n := j.clone()
	runOn(n, ch)                     // job_array.go
	n.BatchNode = t.pickBatchNode(n) // batch_host.go
	return &effects{jobs: []*jobRecord{n}}, nil
}

// endJob gives a job its final state. With completing set, the job keeps its nodes (state
// flag COMPLETING) until they confirm the end; a later endJob without it releases them.
type endJob struct {
	jobID      uint32
	state      states.JobState // base state: COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL...
	reason     states.Reason
	keepReason bool // leave the job's reason as it is (a cancelled pending job keeps its wait reason)
	exitCode   uint32
	setExit    bool
	end        int64
	completing bool
}

func (ch endJob) plan(t *tables) (*effects, error) {
	j := t.jobs[ch.jobID]
	if j == nil {
		return nil, fmt.Errorf("job %d does not exist", ch.jobID)
	}
	n := j.clone()
	s := ch.state
	if ch.completing && j.holdsNodes() {
		s |= states.JobCompleting
	}
	n.State = uint32(s)
	if !ch.keepReason {
		n.Reason = uint32(ch.reason)
	}
	if ch.setExit {
		n.ExitCode = ch.exitCode
	}
	n.EndTime = ch.end
	if s.Base() == states.JobPending {
		// A requeued job whose old incarnation ended (job_requeue.go): pending again, still
		// SPECIAL_EXIT when RequeueExitHold requeued it.
		n.State = uint32(states.JobPending) | j.State&uint32(states.JobSpecialExit)
		clearAllocation(n)
		return &effects{jobs: []*jobRecord{n}}, nil
	}
	if !j.state().IsRunning() && !j.state().IsCompleting() && !j.state().IsSuspended() {
		// A job that never ran has no start; Slurm shows its end as its start.
		n.StartTime = ch.end
	}
	return &effects{jobs: []*jobRecord{n}}, nil
}

// purgeJobs removes finished jobs older than MinJobAge from memory and the live table,
// appending each to the accounting table first.
type purgeJobs struct {
	ids []uint32
}

func (ch purgeJobs) plan(t *tables) (*effects, error) {
	var ids []uint32
	for _, id := range ch.ids {
		if j := t.jobs[id]; j != nil && j.state().IsFinished() && !j.state().IsCompleting() {
			ids = append(ids, id)
		}
	}
	return &effects{purge: ids}, nil
}

// updateNode replaces a node's durable record (registration, DOWN, DRAIN, address).
type updateNode struct {
	rec nodeRecord
}

func (ch updateNode) plan(t *tables) (*effects, error) {
	if t.nodes[ch.rec.Name] == nil {
		return nil, fmt.Errorf("unknown node %s", ch.rec.Name)
	}
	return &effects{nodes: []nodeRecord{ch.rec}}, nil
}

// multi applies several changes as one atomic batch (a node going DOWN with its jobs).
type multi []change

func (m multi) plan(t *tables) (*effects, error) {
	all := &effects{}
	for _, ch := range m {
		e, err := ch.plan(t)
		if err != nil {
			return nil, err
		}
		all.jobs = append(all.jobs, e.jobs...)
		all.purge = append(all.purge, e.purge...)
		all.nodes = append(all.nodes, e.nodes...)
		all.parts = append(all.parts, e.parts...)
		for id, sc := range e.scripts {
			if all.scripts == nil {
				all.scripts = map[uint32]*scriptRecord{}
			}
			all.scripts[id] = sc
		}
		all.nextJobID = max(all.nextJobID, e.nextJobID)
		all.resvs = append(all.resvs, e.resvs...)
		all.resvsGone = append(all.resvsGone, e.resvsGone...)
		all.resvSuffix = max(all.resvSuffix, e.resvSuffix)
	}
	return all, nil
}

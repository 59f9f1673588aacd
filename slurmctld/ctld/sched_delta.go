package ctld

import (
	"reflect"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// sentJob is what the plugin was told about a job: the record it was built from (records are
// immutable once installed, so the pointer says whether the job changed) and the verdicts
// that depend on other jobs and on time.
type sentJob struct {
	rec    *jobRecord
	reason states.Reason // WaitNoReason = eligible
	job    scheduler.Job
}

// sentState is the cluster as shown to the plugin: the jobs it schedules (pending and
// holding nodes), the nodes and the partitions, in configuration order.
type sentState struct {
	jobs  map[uint32]sentJob
	order []uint32 // job ids, ascending
	nodes []scheduler.Node
	parts []scheduler.Partition
}

// snapshot builds the plugin's view of the tables. elig holds the controller's verdict for
// every pending job; reasons are the records the cycle is about to install with new
// reasons, which the view shows in place of the ones they replace. Called with c.mu held
// (read); only the scheduling loop calls it.
func (c *Controller) snapshot(elig map[uint32]states.Reason, reasons []reasonChange, now int64) sentState {
	prev := c.plug.sent.jobs
	var repl map[uint32]*jobRecord
	if len(reasons) > 0 {
		repl = make(map[uint32]*jobRecord, len(reasons))
		for _, r := range reasons {
			repl[r.rec.JobID] = r.rec
		}
	}
	s := sentState{jobs: make(map[uint32]sentJob, len(c.t.jobs))}
	for id, j := range c.t.jobs {
		if n, ok := repl[id]; ok {
			j = n
		}
		reason, pending := elig[id]
		if !pending && !j.holdsNodes() {
			continue // ended, completing without nodes, or suspended without an allocation
		}
		if p, ok := prev[id]; ok && p.rec == j && p.reason == reason {
			s.jobs[id] = p // unchanged: reuse the conversion
		} else {
			s.jobs[id] = sentJob{rec: j, reason: reason, job: schedJob(j, pending, reason)}
		}
		s.order = append(s.order, id)
	}
	slices.Sort(s.order)
	for _, name := range c.t.nodeOrder {
		n := c.t.nodes[name]
		s.nodes = append(s.nodes, scheduler.Node{
			Name:       name,
			CPUs:       n.cpus(),
			RealMemory: n.conf.RealMemory,
			Features:   slices.Clone(n.conf.Features),
			Weight:     n.conf.Weight,
			Usable:     n.usable(),
		})
	}
	for _, name := range c.t.partOrder {
		p := c.t.parts[name]
		s.parts = append(s.parts, scheduler.Partition{
			Name:          name,
			Nodes:         slices.Clone(p.nodes),
			Up:            p.conf.State == "" || strings.EqualFold(p.conf.State, "UP"),
			MaxTime:       p.conf.MaxTime,
			MaxNodes:      p.conf.MaxNodes,
			MinNodes:      p.conf.MinNodes,
			PriorityTier:  uint32(p.conf.PriorityTier),
			OverSubscribe: p.conf.OverSubscribe != "" && !strings.EqualFold(p.conf.OverSubscribe, "NO") && !strings.EqualFold(p.conf.OverSubscribe, "EXCLUSIVE"),
		})
	}
	return s
}

// schedJob converts a job record for the plugin.
func schedJob(j *jobRecord, pending bool, reason states.Reason) scheduler.Job {
	sj := scheduler.Job{
		ID:           j.JobID,
		UserID:       j.UserID,
		Name:         j.Desc.Name,
		Partition:    j.Partition,
		State:        scheduler.JobRunning,
		Priority:     j.Priority,
		SubmitTime:   j.SubmitTime,
		EligibleTime: j.EligibleTime,
		StartTime:    j.StartTime,
		TimeLimit:    j.TimeLimit,
		MinNodes:     j.MinNodes,
		MaxNodes:     j.MaxNodes,
		NumTasks:     j.NumTasks,
		CPUsPerTask:  j.CPUsPerTask,
		TasksPerNode: j.TasksPerNod,
		Exclusive:    j.Exclusive,
		MemPerNode:   j.MemPerNode,
		MemPerCPU:    j.MemPerCPU,
		Features:     j.Desc.Constraint,
		ArrayJobID:   j.ArrayJobID,
	}
	if j.TimeLimit == wire.Infinite {
		sj.TimeLimit = scheduler.Infinite
	}
	if j.Desc.ReqNodes != "" {
		sj.ReqNodes, _ = hostlist.Expand(j.Desc.ReqNodes)
	}
	if j.Desc.ExcNodes != "" {
		sj.ExcNodes, _ = hostlist.Expand(j.Desc.ExcNodes)
	}
	if pending {
		sj.State = scheduler.JobPending
		sj.Eligible = reason == states.WaitNoReason
		sj.Reason = uint32(reason)
		return sj
	}
	sj.Nodes = slices.Clone(j.Nodes)
	sj.CPUs = slices.Clone(j.CPUsPerNode)
	sj.Mem = j.MemAlloc
	return sj
}

// state is the full State for a Sync.
func (s sentState) state(cfg scheduler.Config, seq uint64, now int64) scheduler.State {
	st := scheduler.State{Seq: seq, Now: now, Config: cfg, Nodes: s.nodes, Partitions: s.parts}
	for _, id := range s.order {
		st.Jobs = append(st.Jobs, s.jobs[id].job)
	}
	return st
}

// delta is what changed from prev (what the plugin last received) to cur.
func (prev sentState) delta(cur sentState, seq uint64, now int64) scheduler.Delta {
	d := scheduler.Delta{Seq: seq, Now: now}
	for _, id := range cur.order {
		c := cur.jobs[id]
		if p, ok := prev.jobs[id]; ok && p.rec == c.rec && p.reason == c.reason {
			continue
		}
		d.Jobs = append(d.Jobs, c.job)
	}
	for _, id := range prev.order {
		if _, ok := cur.jobs[id]; !ok {
			d.JobsGone = append(d.JobsGone, id)
		}
	}
	for i, n := range cur.nodes {
		if i >= len(prev.nodes) || !reflect.DeepEqual(prev.nodes[i], n) {
			d.Nodes = append(d.Nodes, n)
		}
	}
	if !reflect.DeepEqual(prev.parts, cur.parts) {
		d.Partitions = cur.parts
	}
	return d
}

package ctld

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// sentJob is what the plugin was told about a job: the record it was built from (records are
// immutable once installed, so the pointer says whether the job changed) and the verdicts
// that depend on other jobs and on time. The scheduler.Job itself is not kept: it follows
// from these (schedJob), so it is built only for the jobs a delta carries and for a full
// Sync, and a queue of 100,000 pending jobs costs 16 bytes each here, not a copy of each.
type sentJob struct {
	rec     *jobRecord
	reason  states.Reason // WaitNoReason = eligible
	pending bool          // judged pending (else it holds nodes)
	parts   []string      // a job of several partitions: those it may start in (eligibility)
	excl    bool          // keeps its nodes to its user (select_user.go)
	// magnetic are the magnetic reservations a pending job naming none may start in
	// (resv_magnetic.go).
	magnetic []string
	shareRow int // the row a running job shares CPUs in (select_share.go)
}

// job is the plugin's view of s.
func (s sentJob) job() scheduler.Job {
	sj := schedJob(s.rec, s.pending, s.reason)
	sj.ExclusiveUser = s.excl
	sj.Magnetic = s.magnetic
	sj.ShareRow = s.shareRow
	if len(s.parts) > 0 {
		sj.Partition = s.parts[0]
		if len(s.parts) > 1 {
			sj.Partitions = s.parts
		}
	}
	return sj
}

// same says whether the plugin's view of p and s is the same job (no update to send).
func (p sentJob) same(s sentJob) bool {
	return p.rec == s.rec && p.reason == s.reason && p.pending == s.pending && p.excl == s.excl && slices.Equal(p.parts, s.parts) &&
		slices.Equal(p.magnetic, s.magnetic) && p.shareRow == s.shareRow
}

// sentState is the cluster as shown to the plugin: the jobs it schedules (pending and
// holding nodes) in increasing job id order, the nodes and the partitions, in configuration
// order.
type sentState struct {
	jobs  []sentJob // by rec.JobID, ascending
	nodes []scheduler.Node
	parts []scheduler.Partition
	resvs []scheduler.AdvanceReservation // resv_record.go
}

// snapshot builds the plugin's view of the tables. elig holds the controller's verdict for
// every pending job, cands the partitions a job of several may start in; reasons are the records the cycle is about to install with new
// reasons, which the view shows in place of the ones they replace. Called with c.mu held
// (read); only the scheduling loop calls it.
func (c *Controller) snapshot(elig map[uint32]states.Reason, cands map[uint32][]string, reasons []reasonChange, now int64) sentState {
	var repl map[uint32]*jobRecord
	if len(reasons) > 0 {
		repl = make(map[uint32]*jobRecord, len(reasons))
		for _, r := range reasons {
			repl[r.rec.JobID] = r.rec
		}
	}
	s := sentState{jobs: make([]sentJob, 0, len(elig))}
	anyExcl := c.t.anyExclusiveUser() // select_user.go
	magnets := c.t.magneticResvs(now) // resv_magnetic.go
	for id, j := range c.t.liveJobs() {
		if n, ok := repl[id]; ok {
			j = n
		}
		reason, pending := elig[id]
		if !pending && !j.countsOnNodes() {
			continue // ended, completing without nodes, suspended without an allocation or by preemption
		}
		sj := sentJob{rec: j, reason: reason, pending: pending, parts: cands[id], excl: c.t.userExclusiveIn(j, cands[id], anyExcl), shareRow: c.t.shareRow[id]}
		if pending && len(magnets) > 0 {
			sj.magnetic = magneticFor(magnets, j)
		}
		s.jobs = append(s.jobs, sj)
	}
	slices.SortFunc(s.jobs, func(a, b sentJob) int { return cmp.Compare(a.rec.JobID, b.rec.JobID) })
	for _, name := range c.t.nodeOrder {
		n := c.t.nodes[name]
		s.nodes = append(s.nodes, scheduler.Node{
			Name:       name,
			CPUs:       n.cpus(),
			RealMemory: n.conf.RealMemory,
			Features:   slices.Clone(n.activeFeatures()),
			Weight:     n.weight(), // node_features.go: as operators may have changed them
			Usable:     n.usable(),
			Gres:       gresOfNode(n),
		})
		s.nodes[len(s.nodes)-1].ThreadsPerCore = n.tpc() // whole cores (select_cores.go)
	}
	for _, name := range c.t.partOrder {
		p := c.t.parts[name]
		s.parts = append(s.parts, scheduler.Partition{
			Name:           name,
			Nodes:          slices.Clone(p.nodes),
			Up:             p.conf.State == "" || strings.EqualFold(p.conf.State, "UP") || strings.EqualFold(p.conf.State, "DRAIN"), // DRAIN still schedules
			MaxTime:        p.conf.MaxTime,
			MaxNodes:       p.conf.MaxNodes,
			MinNodes:       p.conf.MinNodes,
			PriorityTier:   uint32(p.conf.PriorityTier),
			OverSubscribe:  p.conf.OverSubscribe != "" && !strings.EqualFold(p.conf.OverSubscribe, "NO") && !strings.EqualFold(p.conf.OverSubscribe, "EXCLUSIVE"),
			MaxCPUsPerNode: p.conf.MaxCPUsPerNode,
		})
		if c.t.sharesAtAll {
			rows, force := shareOf(p.conf.OverSubscribe) // select_share.go
			s.parts[len(s.parts)-1].ShareRows, s.parts[len(s.parts)-1].ShareForce = uint32(max(rows, 0)), force
		}
	}
	s.resvs = c.t.schedResvs()
	return s
}

// schedJob converts a job record for the plugin.
func schedJob(j *jobRecord, pending bool, reason states.Reason) scheduler.Job {
	sj := scheduler.Job{
		ID:           j.JobID,
		UserID:       j.UserID,
		Name:         j.descStr(descName),
		Partition:    j.Partition,
		State:        scheduler.JobRunning,
		Priority:     j.Priority,
		SubmitTime:   j.SubmitTime,
		EligibleTime: j.EligibleTime,
		StartTime:    j.StartTime,
		TimeLimit:    j.TimeLimit,
		MinNodes:     j.MinNodes,
		MaxNodes:     j.MaxNodes,
		UseMinNodes:  j.descFlag(descUseMinNodes),
		Contiguous:   j.descFlag(descContiguous),
		NumTasks:     j.NumTasks,
		ReqTasks:     j.requestedTasks(),
		CPUsPerTask:  j.CPUsPerTask,
		TasksPerNode: j.TasksPerNod,
		MinCPUs:      uint32(j.descUint(descMinCPUs)),
		Exclusive:    j.Exclusive,
		MemPerNode:   j.MemPerNode,
		MemPerCPU:    j.MemPerCPU,
		Features:     j.descStr(descConstraint),
		ArrayJobID:   j.ArrayJobID,
		Gres:         j.gresReq(),
		Reservation:  j.descStr(descReservation),
	}
	if j.isArrayRecord() {
		sj.ArrayTasks, sj.ArrayThrottle = uint32(len(j.ArrayPending)), j.ArrayThrottle
	}
	sj.NTasksPerCore, sj.ThreadsPerCore = j.ntasksPerCore(), j.threadsPerCore()
	if j.TimeLimit == wire.Infinite {
		sj.TimeLimit = scheduler.Infinite
	}
	if l := j.descStr(descReqNodes); l != "" {
		sj.ReqNodes, _ = hostlist.Expand(l)
	}
	if l := j.descStr(descExcNodes); l != "" {
		sj.ExcNodes, _ = hostlist.Expand(l)
	}
	sj.Oversubscribe = jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedOK
	if pending {
		sj.State = scheduler.JobPending
		sj.Eligible = reason == states.WaitNoReason
		sj.Reason = uint32(reason)
		return sj
	}
	sj.Nodes = slices.Clone(j.Nodes)
	sj.CPUs = slices.Clone(j.CPUsPerNode)
	sj.Mem = j.MemAlloc
	sj.GresAlloc = j.gresAllocCounts()
	return sj
}

// state is the full State for a Sync.
func (s sentState) state(cfg scheduler.Config, seq uint64, now int64) scheduler.State {
	st := scheduler.State{Seq: seq, Now: now, Config: cfg, Nodes: s.nodes, Partitions: s.parts, Reservations: s.resvs}
	st.Jobs = make([]scheduler.Job, 0, len(s.jobs))
	for _, j := range s.jobs {
		st.Jobs = append(st.Jobs, j.job())
	}
	return st
}

// delta is what changed from prev (what the plugin last received) to cur. Both job lists
// are in id order, so one merge pass finds the new, changed and gone jobs.
func (prev sentState) delta(cur sentState, seq uint64, now int64) scheduler.Delta {
	d := scheduler.Delta{Seq: seq, Now: now}
	i := 0
	for _, c := range cur.jobs {
		id := c.rec.JobID
		for i < len(prev.jobs) && prev.jobs[i].rec.JobID < id {
			d.JobsGone = append(d.JobsGone, prev.jobs[i].rec.JobID)
			i++
		}
		if i < len(prev.jobs) && prev.jobs[i].rec.JobID == id {
			p := prev.jobs[i]
			i++
			if p.same(c) {
				continue
			}
		}
		d.Jobs = append(d.Jobs, c.job())
	}
	for ; i < len(prev.jobs); i++ {
		d.JobsGone = append(d.JobsGone, prev.jobs[i].rec.JobID)
	}
	for i, n := range cur.nodes {
		if i >= len(prev.nodes) || !reflect.DeepEqual(prev.nodes[i], n) {
			d.Nodes = append(d.Nodes, n)
		}
	}
	if !reflect.DeepEqual(prev.parts, cur.parts) {
		d.Partitions = cur.parts
	}
	if !reflect.DeepEqual(prev.resvs, cur.resvs) {
		d.ReservationsSet, d.Reservations = true, cur.resvs
	}
	return d
}

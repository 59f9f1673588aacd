// Package faulty is a scheduler plugin that misbehaves on purpose, to prove the controller
// cannot be corrupted by its plugin (issue 6). Without a fault it is a plain FIFO over its
// mirror: eligible pending jobs in priority order, each placed on the first nodes with free
// CPUs. SchedulerParameters "faulty=MODE" selects the fault:
//
//	doublebook  every start is placed on the first node's CPUs, ignoring running jobs
//	held        also starts jobs the controller says are not eligible (held, dependent)
//	running     also starts jobs that already run, again, on their own nodes
//	unknown     starts every job on a node that does not exist
//	partlimit   starts every job on all nodes of the cluster, beyond its partition
//	crash       the process exits inside every third Schedule call
//	hang        every third Schedule call never answers
//
// Only tests use it (its executable is built from testdata/sched_faulty).
package faulty

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Scheduler is the faulty plugin.
type Scheduler struct {
	mu    sync.Mutex
	st    scheduler.State
	jobs  map[uint32]scheduler.Job
	calls int
}

// New returns a faulty scheduler; its mode comes with the first Sync.
func New() *Scheduler { return &Scheduler{} }

var _ scheduler.Scheduler = (*Scheduler)(nil)

// mode is the fault named in SchedulerParameters, "" for none.
func (s *Scheduler) mode() string {
	for _, kv := range strings.Split(s.st.Config.SchedulerParameters, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(kv), "faulty="); ok {
			return v
		}
	}
	return ""
}

// Sync replaces the mirror.
func (s *Scheduler) Sync(_ context.Context, st scheduler.State) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = st
	s.jobs = map[uint32]scheduler.Job{}
	for _, j := range st.Jobs {
		s.jobs[j.ID] = j
	}
	return nil
}

// Update applies a delta, asking for a resync on a gap.
func (s *Scheduler) Update(_ context.Context, d scheduler.Delta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs == nil || d.Seq != s.st.Seq+1 {
		return scheduler.ErrResync
	}
	s.st.Seq, s.st.Now = d.Seq, d.Now
	for _, j := range d.Jobs {
		s.jobs[j.ID] = j
	}
	for _, id := range d.JobsGone {
		delete(s.jobs, id)
	}
	for _, n := range d.Nodes {
		if i := slices.IndexFunc(s.st.Nodes, func(m scheduler.Node) bool { return m.Name == n.Name }); i >= 0 {
			s.st.Nodes[i] = n
		}
	}
	if d.Partitions != nil {
		s.st.Partitions = d.Partitions
	}
	return nil
}

// Schedule returns a FIFO plan, spoiled as the mode says.
func (s *Scheduler) Schedule(ctx context.Context, now int64) (scheduler.Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	mode := s.mode()
	if s.calls%3 == 0 {
		switch mode {
		case "crash":
			os.Exit(3)
		case "hang":
			select {} // never answers, whatever the deadline says
		}
	}
	free := map[string]uint32{}
	for _, n := range s.st.Nodes {
		if n.Usable {
			free[n.Name] = n.CPUs
		}
	}
	var pend []scheduler.Job
	for _, j := range s.jobs {
		switch {
		case j.State == scheduler.JobRunning:
			for i, n := range j.Nodes {
				if i < len(j.CPUs) {
					free[n] -= min(free[n], j.CPUs[i])
				}
			}
			if mode == "running" {
				pend = append(pend, j)
			}
		case j.Eligible || mode == "held":
			pend = append(pend, j)
		}
	}
	slices.SortFunc(pend, func(a, b scheduler.Job) int {
		if a.Priority != b.Priority {
			return int(b.Priority) - int(a.Priority)
		}
		return int(a.ID) - int(b.ID)
	})
	plan := scheduler.Plan{Seq: s.st.Seq}
	for _, j := range pend {
		need := max(j.NumTasks, 1) * max(j.CPUsPerTask, 1)
		var st scheduler.Start
		switch mode {
		case "doublebook":
			if len(s.st.Nodes) > 0 {
				st = scheduler.Start{JobID: j.ID, Nodes: []string{s.st.Nodes[0].Name}, CPUs: []uint32{need}}
			}
		case "running":
			if j.State == scheduler.JobRunning {
				st = scheduler.Start{JobID: j.ID, Nodes: j.Nodes, CPUs: j.CPUs}
			}
		case "unknown":
			st = scheduler.Start{JobID: j.ID, Nodes: []string{"nosuchnode"}, CPUs: []uint32{need}}
		case "partlimit":
			for _, n := range s.st.Nodes {
				st.Nodes = append(st.Nodes, n.Name)
				st.CPUs = append(st.CPUs, n.CPUs)
			}
			st.JobID = j.ID
		}
		if st.JobID == 0 && j.State == scheduler.JobPending {
			st = fit(j, need, free, s.st.Nodes)
		}
		if st.JobID != 0 {
			plan.Starts = append(plan.Starts, st)
			continue
		}
		plan.Reasons = append(plan.Reasons, scheduler.PendingReason{JobID: j.ID, Reason: uint32(states.WaitResources)})
	}
	return plan, ctx.Err()
}

// fit places j's CPUs on the first nodes with room, one node if it fits, else none.
func fit(j scheduler.Job, need uint32, free map[string]uint32, nodes []scheduler.Node) scheduler.Start {
	if j.MinNodes > 1 {
		return scheduler.Start{}
	}
	for _, n := range nodes {
		if free[n.Name] >= need && (!j.Exclusive || free[n.Name] == n.CPUs) {
			cpus := need
			if j.Exclusive {
				cpus = n.CPUs
			}
			free[n.Name] -= cpus
			return scheduler.Start{JobID: j.ID, Nodes: []string{n.Name}, CPUs: []uint32{cpus}}
		}
	}
	return scheduler.Start{}
}

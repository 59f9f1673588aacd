package scheduler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Harness runs a plugin without a cluster, as the controller would: it keeps the
// controller's view of the state, sends the plugin a Sync and then a Delta for every change,
// calls Schedule, applies each start that passes a minimal verification (the job is pending
// and eligible, its nodes exist, are usable, are in its partition and have the CPUs and
// memory it asks for), and ends jobs after their runtime or at their time limit in virtual
// time. The simulator drives the same harness.
type Harness struct {
	Sched Scheduler
	// Runtime is how long a job runs once started, in seconds, by job id; a job without an
	// entry runs until its time limit.
	Runtime map[uint32]int64
	// Started records every applied start with its time; Rejected every start that failed
	// verification, with why.
	Started  []HarnessStart
	Rejected []string

	view Mirror
	now  int64
	seq  uint64
}

// HarnessStart is an applied start.
type HarnessStart struct {
	Start
	Time int64
}

// NewHarness starts a harness at s.Now and syncs the plugin with s.
func NewHarness(sched Scheduler, s State) (*Harness, error) {
	h := &Harness{Sched: sched, Runtime: map[uint32]int64{}, now: s.Now, seq: s.Seq}
	h.view.Sync(s)
	if err := sched.Sync(context.Background(), s); err != nil {
		return nil, err
	}
	return h, nil
}

// Now is the harness's virtual time.
func (h *Harness) Now() int64 { return h.now }

// View is the controller's view of the state.
func (h *Harness) View() *Mirror { return &h.view }

// send applies a delta to the view and to the plugin, resyncing the plugin on ErrResync.
func (h *Harness) send(d Delta) error {
	h.seq++
	d.Seq, d.Now = h.seq, h.now
	if err := h.view.Update(d); err != nil {
		return err
	}
	err := h.Sched.Update(context.Background(), d)
	if errors.Is(err, ErrResync) {
		return h.Sched.Sync(context.Background(), h.state())
	}
	return err
}

func (h *Harness) state() State {
	s := State{Seq: h.seq, Now: h.now, Config: h.view.Config(), Nodes: slices.Clone(h.view.Nodes()), Partitions: slices.Clone(h.view.Partitions())}
	for _, j := range h.view.Jobs() {
		s.Jobs = append(s.Jobs, *j)
	}
	return s
}

// Submit adds (or replaces) pending jobs.
func (h *Harness) Submit(jobs ...Job) error {
	for i := range jobs {
		jobs[i].State = JobPending
	}
	return h.send(Delta{Jobs: jobs})
}

// Cycle calls Schedule once and applies the plan; it returns the plan.
func (h *Harness) Cycle() (Plan, error) {
	plan, err := h.Sched.Schedule(context.Background(), h.now)
	if err != nil {
		return plan, err
	}
	var changed []Job
	for _, st := range plan.Starts {
		if err := h.verify(st); err != nil {
			h.Rejected = append(h.Rejected, fmt.Sprintf("t=%d job %d: %v", h.now, st.JobID, err))
			continue
		}
		j := *h.view.Job(st.JobID)
		j.State, j.StartTime = JobRunning, h.now
		j.Partition, j.Partitions = cmp.Or(st.Partition, j.Partition), nil
		j.Nodes, j.CPUs, j.Mem = slices.Clone(st.Nodes), slices.Clone(st.CPUs), st.Mem
		j.GresAlloc = slices.Clone(st.Gres)
		// Apply to the view at once so the next start of this plan is verified against it.
		*h.view.jobs[j.ID] = j
		changed = append(changed, j)
		h.Started = append(h.Started, HarnessStart{st, h.now})
	}
	for _, r := range plan.Reasons {
		if j := h.view.Job(r.JobID); j != nil && j.State == JobPending {
			j.Reason = r.Reason
		}
	}
	if len(changed) > 0 {
		h.seq++
		d := Delta{Seq: h.seq, Now: h.now, Jobs: changed}
		h.view.seq = h.seq
		if err := h.Sched.Update(context.Background(), d); err != nil {
			return plan, err
		}
	}
	return plan, nil
}

// verify is the controller's minimal check of a start against the view.
func (h *Harness) verify(st Start) error {
	j := h.view.Job(st.JobID)
	switch {
	case j == nil:
		return fmt.Errorf("unknown job")
	case j.State != JobPending || !j.Eligible:
		return fmt.Errorf("not an eligible pending job")
	case len(st.Nodes) == 0 || len(st.CPUs) != len(st.Nodes):
		return fmt.Errorf("malformed allocation")
	}
	pname := cmp.Or(st.Partition, j.Partition)
	if !slices.Contains(j.Parts(), pname) {
		return fmt.Errorf("partition %s is not one the job may start in (%v)", pname, j.Parts())
	}
	part := h.view.Partition(pname)
	cpus, mem, jobs, excl := map[string]uint32{}, map[string]uint64{}, map[string]int{}, map[string]bool{}
	for _, r := range h.view.Running() {
		for i, n := range r.Nodes {
			cpus[n] += r.CPUs[i]
			mem[n] += r.Mem
			jobs[n]++
			excl[n] = excl[n] || r.Exclusive
		}
	}
	cfg := h.view.Config()
	countCPUs := !strings.EqualFold(strings.TrimSpace(cfg.SelectTypeParameters), "CR_Memory")
	countMem := strings.Contains(strings.ToUpper(cfg.SelectTypeParameters), "MEMORY")
	for i, name := range st.Nodes {
		k := slices.IndexFunc(h.view.Nodes(), func(n Node) bool { return n.Name == name })
		if k < 0 {
			return fmt.Errorf("node %s unknown", name)
		}
		n := h.view.Nodes()[k]
		switch {
		case !n.Usable:
			return fmt.Errorf("node %s not usable", name)
		case part == nil || !slices.Contains(part.Nodes, name):
			return fmt.Errorf("node %s not in partition %s", name, pname)
		case countCPUs && cpus[name]+st.CPUs[i] > n.CPUs:
			return fmt.Errorf("node %s: %d CPUs allocated of %d", name, cpus[name]+st.CPUs[i], n.CPUs)
		case countMem && mem[name]+st.Mem > n.RealMemory:
			return fmt.Errorf("node %s: %d MiB allocated of %d", name, mem[name]+st.Mem, n.RealMemory)
		case excl[name] || (j.Exclusive && jobs[name] > 0):
			return fmt.Errorf("node %s shared with an exclusive job", name)
		}
		if err := h.verifyGres(j, st, i, n); err != nil {
			return err
		}
	}
	return nil
}

// verifyGres checks that the start's GRES on its i-th node, n, serve the job's --gres and,
// with what running jobs hold there, fit the node's GRES.
func (h *Harness) verifyGres(j *Job, st Start, i int, n Node) error {
	var took []Gres
	if i < len(st.Gres) {
		took = st.Gres[i]
	}
	for _, r := range j.Gres {
		var got uint64
		for _, g := range took {
			if g.Name == r.Name && (r.Type == "" || g.Type == r.Type) {
				got += g.Count
			}
		}
		if got < r.Count {
			return fmt.Errorf("node %s: job needs %s:%s:%d, start gives %d", n.Name, r.Name, r.Type, r.Count, got)
		}
	}
	for _, e := range n.Gres {
		used := uint64(0)
		for _, r := range h.view.Running() {
			for k, rn := range r.Nodes {
				if rn == n.Name && k < len(r.GresAlloc) {
					for _, g := range r.GresAlloc[k] {
						if g.Name == e.Name && g.Type == e.Type {
							used += g.Count
						}
					}
				}
			}
		}
		for _, g := range took {
			if g.Name == e.Name && g.Type == e.Type {
				used += g.Count
			}
		}
		if used > e.Count {
			return fmt.Errorf("node %s: %d of %s:%s allocated of %d", n.Name, used, e.Name, e.Type, e.Count)
		}
	}
	return nil
}

// endOf is when a running job ends: after its runtime, or at its time limit.
func (h *Harness) endOf(j *Job) int64 {
	if rt, ok := h.Runtime[j.ID]; ok {
		if j.TimeLimit != Infinite && rt > int64(j.TimeLimit)*60 {
			rt = int64(j.TimeLimit) * 60
		}
		return j.StartTime + rt
	}
	if j.TimeLimit == Infinite {
		return 1<<62 - 1
	}
	return j.StartTime + int64(j.TimeLimit)*60
}

// NextEnd is the earliest end of a running job, or false when none runs.
func (h *Harness) NextEnd() (int64, bool) {
	var best int64
	found := false
	for _, j := range h.view.Running() {
		if e := h.endOf(j); !found || e < best {
			best, found = e, true
		}
	}
	return best, found
}

// Advance moves virtual time to t, ending (in end-time order) every job whose end is at or
// before t; it returns the ids of the jobs that ended.
func (h *Harness) Advance(t int64) ([]uint32, error) {
	var ended []*Job
	for _, j := range h.view.Running() {
		if h.endOf(j) <= t {
			ended = append(ended, j)
		}
	}
	slices.SortFunc(ended, func(a, b *Job) int { return cmp.Or(cmp.Compare(h.endOf(a), h.endOf(b)), cmp.Compare(a.ID, b.ID)) })
	var ids []uint32
	for _, j := range ended {
		ids = append(ids, j.ID)
	}
	h.now = max(h.now, t)
	if len(ids) == 0 {
		return nil, h.send(Delta{})
	}
	return ids, h.send(Delta{JobsGone: ids})
}

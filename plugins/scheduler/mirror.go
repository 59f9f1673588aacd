package scheduler

import (
	"cmp"
	"fmt"
	"slices"
)

// Mirror is the copy of the cluster state a plugin keeps, fed by Sync and Update, with the
// sorted views a scheduler needs. It is not safe for concurrent use: the controller calls a
// plugin from one goroutine.
type Mirror struct {
	seq    uint64
	now    int64
	synced bool
	config Config
	nodes  []Node
	parts  []Partition
	jobs   map[uint32]*Job
	resvs  []AdvanceReservation
}

// Sync replaces the mirror with a full state.
func (m *Mirror) Sync(s State) {
	m.seq, m.now, m.synced, m.config = s.Seq, s.Now, true, s.Config
	m.nodes = slices.Clone(s.Nodes)
	m.parts = slices.Clone(s.Partitions)
	m.resvs = slices.Clone(s.Reservations)
	m.jobs = make(map[uint32]*Job, len(s.Jobs))
	for i := range s.Jobs {
		j := s.Jobs[i]
		m.jobs[j.ID] = &j
	}
}

// Update applies a delta. It returns ErrResync (wrapped, with the cause) when the delta does
// not follow the mirror's sequence number or names a job the mirror does not have; the
// mirror is then unchanged and needs a Sync.
func (m *Mirror) Update(d Delta) error {
	if !m.synced {
		return fmt.Errorf("%w: no state yet", ErrResync)
	}
	if d.Seq != m.seq+1 {
		return fmt.Errorf("%w: delta %d after state %d", ErrResync, d.Seq, m.seq)
	}
	for _, id := range d.JobsGone {
		if m.jobs[id] == nil {
			return fmt.Errorf("%w: job %d ended but is not known", ErrResync, id)
		}
	}
	m.seq, m.now = d.Seq, d.Now
	for _, id := range d.JobsGone {
		delete(m.jobs, id)
	}
	for i := range d.Jobs {
		j := d.Jobs[i]
		m.jobs[j.ID] = &j
	}
	for _, n := range d.Nodes {
		if i := slices.IndexFunc(m.nodes, func(x Node) bool { return x.Name == n.Name }); i >= 0 {
			m.nodes[i] = n
		} else {
			m.nodes = append(m.nodes, n)
		}
	}
	if d.Partitions != nil {
		m.parts = slices.Clone(d.Partitions)
	}
	if d.ReservationsSet {
		m.resvs = slices.Clone(d.Reservations)
	}
	return nil
}

// Synced says whether the mirror has had a Sync.
func (m *Mirror) Synced() bool { return m.synced }

// Seq is the sequence number of the last state or delta applied.
func (m *Mirror) Seq() uint64 { return m.seq }

// Now is the controller's time at the last state or delta.
func (m *Mirror) Now() int64 { return m.now }

// Config is the scheduler configuration from the last Sync.
func (m *Mirror) Config() Config { return m.config }

// Nodes is every node, in configuration order. The slice is the mirror's: do not change it.
func (m *Mirror) Nodes() []Node { return m.nodes }

// Reservations is every advance reservation not yet ended. The slice is the mirror's: do not
// change it.
func (m *Mirror) Reservations() []AdvanceReservation { return m.resvs }

// Partitions is every partition. The slice is the mirror's: do not change it.
func (m *Mirror) Partitions() []Partition { return m.parts }

// Partition is the named partition, or nil.
func (m *Mirror) Partition(name string) *Partition {
	for i := range m.parts {
		if m.parts[i].Name == name {
			return &m.parts[i]
		}
	}
	return nil
}

// Job is the job with this id, or nil. The pointer is the mirror's: do not change it.
func (m *Mirror) Job(id uint32) *Job { return m.jobs[id] }

// Jobs is every job, by id.
func (m *Mirror) Jobs() []*Job {
	js := make([]*Job, 0, len(m.jobs))
	for _, j := range m.jobs {
		js = append(js, j)
	}
	slices.SortFunc(js, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return js
}

// Pending is the pending jobs in the order Slurm's schedulers consider them: priority
// (highest first), then submit time, then id.
func (m *Mirror) Pending() []*Job {
	var js []*Job
	for _, j := range m.jobs {
		if j.State == JobPending {
			js = append(js, j)
		}
	}
	slices.SortFunc(js, ComparePriority)
	return js
}

// Running is the running jobs (holding an allocation), by id.
func (m *Mirror) Running() []*Job {
	var js []*Job
	for _, j := range m.jobs {
		if j.State == JobRunning {
			js = append(js, j)
		}
	}
	slices.SortFunc(js, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return js
}

// ComparePriority orders jobs as the schedulers consider them: higher priority first, then
// earlier submit time, then lower id.
func ComparePriority(a, b *Job) int {
	if a.Priority != b.Priority {
		return cmp.Compare(b.Priority, a.Priority)
	}
	if a.SubmitTime != b.SubmitTime {
		return cmp.Compare(a.SubmitTime, b.SubmitTime)
	}
	return cmp.Compare(a.ID, b.ID)
}

package builtin

import (
	"encoding/binary"

	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Resvs is the advance reservations as one pass applies them (scheduler.ReservedNodes): for
// a job starting at some time, the nodes it may not use, as a mask over the pass's pool
// (selection.Pool.Bar). Jobs meet few distinct sets of reservations (their own and those
// their run overlaps), so each set's mask is made once and shared: a pass over many jobs
// pays a scan of the reservations per job, not a map of nodes and a --exclude list.
type Resvs struct {
	list   []scheduler.AdvanceReservation
	nodes  []scheduler.Node
	pool   *selection.Pool
	byName map[string]int     // position in list
	known  map[string]Verdict // by key: the job's reservation and those its run overlaps
	key    []byte             // scratch for the key (a map lookup by string(key) is free)
}

// Verdict is what the reservations allow a job starting at some time: scheduler.ResvVerdict
// with the barred nodes as a mask.
type Verdict struct {
	// Barred marks, by the pool's node order, the nodes the job may not use; nil when none.
	// It is shared between jobs: do not change it.
	Barred []bool
	// Maint says a reservation that bars nodes holds the job's whole partition as a
	// maintenance one does (scheduler.ResvVerdict.Maint).
	Maint bool
	// NotYet: the job's reservation starts later, at Later. Gone: it does not exist or has
	// ended.
	NotYet bool
	Later  int64
	Gone   bool
	// Prefer marks the nodes of the job's FLEX reservation, taken first (Pool.Prefer).
	Prefer []bool
}

// Runs says whether the job may start at all at that time (on some node not barred).
func (v Verdict) Runs() bool { return !v.NotYet && !v.Gone }

// NewResvs is list applied to jobs placed on pool, a pool of nodes.
func NewResvs(list []scheduler.AdvanceReservation, nodes []scheduler.Node, pool *selection.Pool) *Resvs {
	r := &Resvs{list: list, nodes: nodes, pool: pool}
	for i := range list {
		if r.byName == nil {
			r.byName = make(map[string]int, len(list))
		}
		if _, dup := r.byName[list[i].Name]; !dup {
			r.byName[list[i].Name] = i
		}
	}
	return r
}

// Applies says whether reservations may keep j from any node: false, the usual case, when
// there are none and j names none, and then nothing need be asked (At).
func (r *Resvs) Applies(j *scheduler.Job) bool { return len(r.list) > 0 || j.Reservation != "" }

// At is what the reservations allow j if it starts at start in part, to run RunSecs.
func (r *Resvs) At(j *scheduler.Job, part *scheduler.Partition, start int64) Verdict {
	own := -1
	if j.Reservation != "" {
		i, ok := r.byName[j.Reservation]
		switch {
		case !ok || start >= r.list[i].EndTime && !r.list[i].Flex:
			return Verdict{Gone: true}
		case start < r.list[i].StartTime && !r.list[i].Flex:
			return Verdict{NotYet: true, Later: r.list[i].StartTime}
		}
		own = i
	}
	end := start + RunSecs(j, part)
	// The key: the job's reservation, a bit for each other one its run overlaps, then the
	// partition.
	k := binary.LittleEndian.AppendUint32(r.key[:0], uint32(own+1))
	var bits byte
	for i := range r.list {
		if q := &r.list[i]; i != own && q.StartTime < end && start < q.EndTime {
			bits |= 1 << (i % 8)
		}
		if i%8 == 7 || i == len(r.list)-1 {
			k, bits = append(k, bits), 0
		}
	}
	if part != nil {
		k = append(k, part.Name...) // Maint depends on the partition
	}
	r.key = k
	if v, ok := r.known[string(k)]; ok {
		return v
	}
	rv := scheduler.ReservedNodes(r.list, j, part, r.nodes, start, end)
	v := Verdict{Barred: r.pool.MaskOf(rv.Barred), Maint: rv.Maint, NotYet: rv.NotYet, Later: rv.Later, Gone: rv.Gone,
		Prefer: r.pool.MaskOf(rv.Prefer)}
	if r.known == nil {
		r.known = map[string]Verdict{}
	}
	r.known[string(k)] = v
	return v
}

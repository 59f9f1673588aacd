package scheduler

import "slices"

// AdvanceReservation is an advance reservation (scontrol create reservation) as a scheduler
// must respect it: from StartTime to EndTime its Nodes take only jobs that name it
// (Job.Reservation), and a job that names it starts only on its Nodes within that window.
// Maint marks a maintenance reservation (Flags=MAINT), AllNodes one made of every node
// (Nodes=ALL), PartNodes the partition whose nodes it was made of (Flags=PART_NODES): such a
// reservation, when it holds every node of a job's partition (always, for AllNodes), makes
// the job wait with "ReqNodeNotAvail, Reserved for maintenance" rather than "May be reserved
// for other job" (ResvVerdict.Maint).
type AdvanceReservation struct {
	Name      string   `codec:"name"`
	StartTime int64    `codec:"start_time"`
	EndTime   int64    `codec:"end_time"`
	Nodes     []string `codec:"nodes"`
	Maint     bool     `codec:"maint,omitempty"`
	AllNodes  bool     `codec:"all_nodes,omitempty"`
	PartNodes string   `codec:"part_nodes,omitempty"`
	// Flex (flags=FLEX): a job in the reservation is bound neither to its nodes nor to its
	// window; it prefers its nodes (ResvVerdict.Prefer).
	Flex bool `codec:"flex,omitempty"`
}

// holdsPartition says whether r keeps a job of part from every node of it in the way that
// Slurm reports as maintenance (job_test_resv's ESLURM_RESERVATION_MAINT): it was made of
// all nodes, or of part's, or it is a maintenance reservation holding all of part's nodes.
func (r *AdvanceReservation) holdsPartition(part *Partition) bool {
	switch {
	case r.AllNodes:
		return true
	case part == nil:
		return false
	case r.PartNodes != "":
		return r.PartNodes == part.Name
	case !r.Maint:
		return false
	}
	for _, n := range part.Nodes {
		if !slices.Contains(r.Nodes, n) {
			return false
		}
	}
	return true
}

// overlaps says whether the reservation's window meets [start, end).
func (r *AdvanceReservation) overlaps(start, end int64) bool {
	return r.StartTime < end && start < r.EndTime
}

// ResvVerdict is what the advance reservations allow a job that would run over [start, end)
// (ReservedNodes).
type ResvVerdict struct {
	// Barred are the nodes the job may not use then: those of every other reservation whose
	// window meets the job's run and, for a job in a reservation, every node outside it.
	Barred map[string]bool
	// Maint says a reservation among those that bar nodes holds the whole of the job's
	// partition as a maintenance one does (AdvanceReservation): the job waits with Slurm's
	// "Reserved for maintenance".
	Maint bool
	// NotYet: the job's reservation starts after start; it may start at Later at the
	// earliest. Gone: the job's reservation does not exist or has ended before start.
	NotYet bool
	Later  int64
	Gone   bool
	// Prefer are the nodes of the job's FLEX reservation, which it takes before others (as
	// a lower Weight= would make it); nil otherwise.
	Prefer map[string]bool
}

// Runs says whether the job may start at all at that time (on some node not barred).
func (v ResvVerdict) Runs() bool { return !v.NotYet && !v.Gone }

// ReservedNodes is what resvs allow j in partition part over [start, end) on a cluster of
// the given nodes, as Slurm's job_test_resv decides it. A job without reservations to
// respect gets a zero verdict with nil Barred, at no cost.
func ReservedNodes(resvs []AdvanceReservation, j *Job, part *Partition, nodes []Node, start, end int64) ResvVerdict {
	var v ResvVerdict
	if j.Reservation == "" && len(resvs) == 0 {
		return v
	}
	bar := func(names []string) {
		if v.Barred == nil {
			v.Barred = map[string]bool{}
		}
		for _, n := range names {
			v.Barred[n] = true
		}
	}
	if j.Reservation != "" {
		i := slices.IndexFunc(resvs, func(r AdvanceReservation) bool { return r.Name == j.Reservation })
		if i < 0 || start >= resvs[i].EndTime && !resvs[i].Flex {
			v.Gone = true
			return v
		}
		own := &resvs[i]
		in := make(map[string]bool, len(own.Nodes))
		for _, n := range own.Nodes {
			in[n] = true
		}
		switch {
		case own.Flex:
			// Slurm's job_test_resv: "Job not bound to reservation nodes or time".
			v.Prefer = in
		case start < own.StartTime:
			v.NotYet, v.Later = true, own.StartTime
			return v
		default:
			for _, n := range nodes {
				if !in[n.Name] {
					bar([]string{n.Name})
				}
			}
		}
	}
	for i := range resvs {
		r := &resvs[i]
		if r.Name == j.Reservation || !r.overlaps(start, end) {
			continue
		}
		bar(r.Nodes)
		v.Maint = v.Maint || r.holdsPartition(part)
	}
	return v
}

// WithoutBarred is j with v's barred nodes added to its --exclude, for a node selection that
// respects the reservations; j itself when v bars none.
func WithoutBarred(j *Job, v ResvVerdict) *Job {
	if len(v.Barred) == 0 {
		return j
	}
	c := *j
	c.ExcNodes = slices.Clone(j.ExcNodes)
	for n := range v.Barred {
		if !slices.Contains(c.ExcNodes, n) {
			c.ExcNodes = append(c.ExcNodes, n)
		}
	}
	slices.Sort(c.ExcNodes[len(j.ExcNodes):]) // deterministic order for the selection
	return &c
}

// ResvBoundaries are the times after now at which a reservation starts or ends, sorted:
// where a job kept off reserved nodes, or waiting for its reservation, may first start.
func ResvBoundaries(resvs []AdvanceReservation, now int64) []int64 {
	var ts []int64
	for _, r := range resvs {
		for _, t := range []int64{r.StartTime, r.EndTime} {
			if t > now {
				ts = append(ts, t)
			}
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

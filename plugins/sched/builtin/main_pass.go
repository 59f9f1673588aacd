package builtin

import (
	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Result is what one main pass decided.
type Result struct {
	Starts  []scheduler.Start
	Reasons []scheduler.PendingReason
	// Tested is how many jobs had a node selection tried (sdiag's depth).
	Tested int
	// DepthReached says the pass stopped at its queue depth with jobs left untested.
	DepthReached bool
}

// Main runs Slurm's main scheduling pass over pending (already in priority order) with
// pool holding what running jobs use; it books its starts in pool. depth > 0 stops after
// that many jobs were tested (default_queue_depth); jobs past it keep their reasons. A job
// that may start in several partitions (Job.Parts) is tried in each in turn, at its place in
// the queue, and starts in the first that has room: Slurm queues one entry per partition,
// which orders them the same way when the partitions share a PriorityTier. A job that
// starts nowhere shows the reason of the last partition tried, as each of Slurm's entries
// overwrites it.
//
// As in Slurm's schedule(), a job that cannot start for want of resources blocks its
// partition (later jobs there wait with Priority) and withholds the partition's nodes from
// every later job of any partition; a job left with fewer available nodes (not down,
// drained or withheld) than it needs waits with
// Resources, "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher
// priority partitions", and blocks its own partition in turn. A job held to its --nodelist
// withholds only those nodes. A job whose --nodelist names a node no job may have now (down,
// drained, not responding, or withheld so) waits with ReqNodeNotAvail,
// "ReqNodeNotAvail, UnavailableNodes:<those nodes>", and blocks nothing but its nodes; for
// a down or drained node that reason wins over a blocked partition's Priority.
//
// The advance reservations resvs are respected as of now (Resvs): a job never gets a node
// a reservation other than its own holds while it would run (RunSecs from now), and a job
// in a reservation gets only its nodes, once it has started (before, or once it is gone,
// the job waits with reason Reservation). A job that cannot start, and could not even were
// every job gone, but could on the nodes reservations keep from it waits with
// ReqNodeNotAvail ("Reserved for maintenance" when a MAINT reservation is among them, "May
// be reserved for other job" otherwise) and blocks nothing: Slurm's schedule() "just skip[s]
// over this job and tr[ies] running the next lower priority job". A job in a reservation
// that cannot start for want of resources blocks the later jobs of its reservation, not its
// partition (Slurm's failed_resv), and the partition's blocks do not apply to it.
func Main(pending []*scheduler.Job, parts func(string) *scheduler.Partition, nodes []scheduler.Node,
	resvs []scheduler.AdvanceReservation, now int64, pool *selection.Pool, depth int) Result {
	var r Result
	blocked := map[string]bool{}
	var blockedResv map[string]bool // made when a job in a reservation first fails
	capacity := selection.NewCapacity(nodes)
	fail := func(part *scheduler.Partition) {
		blocked[part.Name] = true
		pool.Withhold(part.Nodes)
	}
	rs := NewResvs(resvs, nodes, pool)
	var empty *selection.Pool // made on first need
	// fitsIdle says whether j could start in part were every job gone, with the barred
	// nodes kept from it.
	fitsIdle := func(j *scheduler.Job, part *scheduler.Partition, barred []bool) bool {
		if empty == nil {
			empty = pool.Empty()
		}
		empty.Bar(barred)
		_, ok := empty.Select(j, part)
		empty.Bar(nil)
		return ok
	}
	var one [1]string
	for _, j := range pending {
		if !j.Eligible || j.State != scheduler.JobPending {
			continue // the controller has set its reason
		}
		reason, desc := states.WaitNoReason, ""
		started := false
		names := j.Partitions
		if len(names) == 0 {
			one[0] = j.Partition // Parts() without allocating, for the usual job of one partition
			names = one[:]
		}
		if len(j.Magnetic) > 0 && j.Reservation == "" {
			st, ok, reached := magnetic(j, names, parts, rs, pool, capacity, now, depth, &r)
			if reached {
				return r
			}
			if ok {
				r.Starts = append(r.Starts, st)
				continue
			}
		}
		for _, name := range names {
			part := parts(name)
			if part == nil {
				continue
			}
			desc = ""
			var v Verdict
			if rs.Applies(j) {
				v = rs.At(j, part, now)
			}
			switch {
			case !capacity.FitsEver(j, part):
				reason = states.WaitPartConfig
				continue
			case notAvail(j, pool, false):
				// Down or drained: Slurm's reason from the job's submission, which a blocked
				// partition's Priority does not replace.
				reason, desc = states.WaitNodeNotAvail, unavailDesc(j, pool)
				continue
			case j.Reservation != "" && blockedResv[j.Reservation], j.Reservation == "" && blocked[name]:
				reason = states.WaitPriority
				continue
			case !v.Runs():
				reason = states.WaitReservation // the controller says so too; it blocks nothing
				continue
			case uint32(pool.Available(part)) < max(j.MinNodes, 1):
				reason, desc = states.WaitResources, states.DescNodesReserved
				fail(part)
				continue
			}
			if notAvail(j, pool, true) {
				reason, desc = states.WaitNodeNotAvail, unavailDesc(j, pool)
				if uint32(len(j.ReqNodes)) >= j.MinNodes {
					pool.Withhold(j.ReqNodes)
				}
				continue
			}
			if depth > 0 && r.Tested >= depth {
				r.DepthReached = true
				return r
			}
			r.Tested++
			pool.Bar(v.Barred)
			pool.Prefer(v.Prefer)
			a, ok := pool.Select(j, part)
			pool.Bar(nil)
			pool.Prefer(nil)
			if !ok {
				reason = states.WaitResources
				if v.Barred != nil && !fitsIdle(j, part, v.Barred) && fitsIdle(j, part, nil) {
					reason, desc = states.WaitNodeNotAvail, states.DescResvOtherJob
					if v.Maint {
						desc = states.DescResvMaint
					}
				}
				switch {
				case uint32(len(j.ReqNodes)) >= j.MinNodes && len(j.ReqNodes) > 0:
					pool.Withhold(j.ReqNodes) // its nodes only, not the partition
				case reason == states.WaitNodeNotAvail:
					// Kept off reserved nodes, not short of resources: the next job may go.
				case j.Reservation != "":
					if blockedResv == nil {
						blockedResv = map[string]bool{}
					}
					blockedResv[j.Reservation] = true
				default:
					fail(part)
				}
				continue
			}
			pool.Take(a, j.Exclusive)
			st := scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem, Gres: a.Gres}
			if name != j.Partition {
				st.Partition = name
			}
			r.Starts = append(r.Starts, st)
			started = true
			break
		}
		if !started && reason != states.WaitNoReason {
			r.Reasons = append(r.Reasons, scheduler.PendingReason{JobID: j.ID, Reason: uint32(reason), Desc: desc})
		}
	}
	return r
}

// notAvail says whether a --nodelist node of j is down, drained or not responding, or with
// withheld set aside in this pass (Slurm's ESLURM_NODE_NOT_AVAIL).
func notAvail(j *scheduler.Job, pool *selection.Pool, withheld bool) bool {
	return len(j.ReqNodes) > 0 && pool.Unavailable(j.ReqNodes, withheld) != nil
}

// unavailDesc is the ReqNodeNotAvail text of j: its --nodelist nodes no job may have now.
func unavailDesc(j *scheduler.Job, pool *selection.Pool) string {
	return states.UnavailableNodesDesc(hostlist.Compress(pool.Unavailable(j.ReqNodes, true)))
}

// magnetic tries j in each magnetic reservation that admits it (scheduler.Job.Magnetic),
// before its plain turn, as Slurm's queue holds an entry for it in each ahead of its own:
// the first that holds it now starts it there. A failure there blocks nothing (Slurm counts
// such an entry against the reservation, which no later job of it names). reached says the
// pass's depth ran out.
func magnetic(j *scheduler.Job, names []string, parts func(string) *scheduler.Partition, rs *Resvs, pool *selection.Pool,
	capacity *selection.Capacity, now int64, depth int, r *Result) (st scheduler.Start, ok, reached bool) {
	in := *j
	in.Magnetic = nil
	for _, m := range j.Magnetic {
		in.Reservation = m
		for _, name := range names {
			part := parts(name)
			if part == nil || !capacity.FitsEver(&in, part) {
				continue
			}
			v := rs.At(&in, part, now)
			if !v.Runs() {
				continue
			}
			if depth > 0 && r.Tested >= depth {
				r.DepthReached = true
				return scheduler.Start{}, false, true
			}
			r.Tested++
			pool.Bar(v.Barred)
			pool.Prefer(v.Prefer)
			a, fits := pool.Select(&in, part)
			pool.Bar(nil)
			pool.Prefer(nil)
			if !fits {
				continue
			}
			pool.Take(a, j.Exclusive)
			st := scheduler.Start{JobID: j.ID, Nodes: a.Nodes, CPUs: a.CPUs, Mem: a.Mem, Gres: a.Gres, Reservation: m}
			if name != j.Partition {
				st.Partition = name
			}
			return st, true, false
		}
	}
	return scheduler.Start{}, false, false
}

// PoolOf is the free resources of m's nodes after its running jobs.
func PoolOf(m *scheduler.Mirror) *selection.Pool {
	cfg := m.Config()
	p := selection.NewPool(selection.ParseMode(cfg.SelectType, cfg.SelectTypeParameters), m.Nodes())
	p.LimitPartitions(m.Partitions()) // MaxCPUsPerNode
	for _, j := range m.Running() {
		p.TakeJob(j)
	}
	return p
}

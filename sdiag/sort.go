package main

import "github.com/orbit-hpc/orbit/internal/wire"

// sortBy is sdiag's RPC order: -i, -t, -T, or by count (the default).
type sortBy int

const (
	byCount   sortBy = iota
	byID             // -i: message id, then uid, ascending
	byTime           // -t: total time, descending
	byAveTime        // -T: average time, descending
)

// sortRPCs orders the RPC lists as Slurm's sdiag does: its exchange sort, which is not
// stable, so equal keys end in the same order as under Slurm given the controller's
// first-seen order.
func sortRPCs(r *wire.StatsReply, by sortBy) {
	t := r.RPCsByType
	for i := range t {
		for j := i + 1; j < len(t); j++ {
			if !typeBefore(&t[j], &t[i], by) {
				continue
			}
			t[i], t[j] = t[j], t[i]
		}
	}
	u := r.RPCsByUser
	for i := range u {
		for j := i + 1; j < len(u); j++ {
			if !userBefore(&u[j], &u[i], by) {
				continue
			}
			u[i], u[j] = u[j], u[i]
		}
	}
}

// typeBefore says whether b must move ahead of a (Slurm swaps only on a strict order).
func typeBefore(b, a *wire.RPCTypeStat, by sortBy) bool {
	switch by {
	case byID:
		return b.ID < a.ID
	case byTime:
		return b.Time > a.Time
	case byAveTime:
		return ave(b.Time, b.Count) > ave(a.Time, a.Count)
	}
	return b.Count > a.Count
}

func userBefore(b, a *wire.RPCUserStat, by sortBy) bool {
	switch by {
	case byID:
		return b.UID < a.UID
	case byTime:
		return b.Time > a.Time
	case byAveTime:
		return ave(b.Time, b.Count) > ave(a.Time, a.Count)
	}
	return b.Count > a.Count
}

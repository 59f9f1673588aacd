package backfill

// table counts the records of Slurm's backfill map (node_space) as the same pass would build
// it, for sdiag's "Last table size" (bf_table_size = node_space_recs). Slurm's map starts as
// one record from the pass's start to bf_window's end, both rounded down to bf_resolution;
// every reservation it adds (a job reserved for later, and a job it holds from the start
// because it has whole nodes: exclusive running jobs and starts) splits a record at its
// rounded start and at its rounded end when those fall inside the window and are not a
// record's end already. Slurm also merges up to one pair of neighbouring records left
// identical, without lowering its count; Orbit does not re-split merged boundaries, so its
// count can be lower than Slurm's when a later reservation reuses a merged boundary.
type table struct {
	begin, end, res int64
	ends            map[int64]bool // record end times
	recs            int
}

func newTable(now, windowEnd, res int64) *table {
	t := &table{begin: now / res * res, end: windowEnd / res * res, res: res, ends: map[int64]bool{}, recs: 1}
	t.ends[t.end] = true
	return t
}

// add records a reservation over [start, end).
func (t *table) add(start, end int64) {
	start = max(start/t.res*t.res, t.begin)
	end = max(end/t.res*t.res, start+t.res) // at least one resolution slot, as Slurm
	if start >= t.end {
		return // beyond the window: nothing to split
	}
	// A reservation starting at the map's beginning splits the first record into an empty one
	// and the rest (Slurm does so once, then finds the empty record's end in place).
	if !t.ends[start] {
		t.ends[start] = true
		t.recs++
	}
	if end < t.end && !t.ends[end] {
		t.ends[end] = true
		t.recs++
	}
}

package ctld

import "iter"

// markLive keeps j's id in the live set while a scheduling cycle has to look at it: not
// finished, or finished and still completing (its nodes hold it).
func (t *tables) markLive(j *jobRecord) {
	if st := j.state(); !st.IsFinished() || st.IsCompleting() {
		t.live[j.JobID] = struct{}{}
	} else {
		delete(t.live, j.JobID)
	}
}

// liveJobs yields every live job with its id, in no order, as ranging over t.jobs would
// yield them without the finished ones. A record replaced in t.jobs without installJob (a
// cycle's memory-only reason) keeps its state, so the set stays right.
func (t *tables) liveJobs() iter.Seq2[uint32, *jobRecord] {
	return func(yield func(uint32, *jobRecord) bool) {
		for id := range t.live {
			if j := t.jobs[id]; j != nil && !yield(id, j) {
				return
			}
		}
	}
}

package ctld

import "github.com/orbit-hpc/orbit/compat/states"

// jobCounts are the job counts sdiag shows, kept up to date as records are installed and
// removed (tables.installJob, removeJob) so that neither a scheduling cycle nor sdiag scans
// the job table for them. Guarded by Controller.mu, like the tables.
type jobCounts struct {
	pending, running uint32 // now
	// Events since the controller started; sdiag shows them since its period began.
	submitted, started, completed, canceled, failed uint32
}

// change counts the replacement of old by cur; nil old is a new job, nil cur a purged one.
// A state change seen here is counted once whatever path made it: a job cancelled while
// pending never started, and a job that ran and was requeued starts again.
func (k *jobCounts) change(old, cur *jobRecord) {
	if old != nil {
		k.gauge(old.state(), ^uint32(0)) // -1
	}
	if cur == nil {
		return
	}
	st := cur.state()
	k.gauge(st, 1)
	if old == nil {
		k.submitted++
	}
	wasPending := old == nil || old.state().IsPending()
	if wasPending && !st.IsPending() && st.Base() != states.JobCancelled {
		k.started++
	}
	if st.IsFinished() && (old == nil || !old.state().IsFinished()) {
		switch st.Base() {
		case states.JobComplete:
			k.completed++
		case states.JobCancelled:
			k.canceled++
		default:
			k.failed++
		}
	}
}

// gauge adds d (1 or -1 as ^0) to the pending or running count st belongs to.
func (k *jobCounts) gauge(st states.JobState, d uint32) {
	switch {
	case st.IsPending():
		k.pending += d
	case st.IsRunning() || st.IsSuspended():
		k.running += d
	}
}

// since is the event counts from base to k (the gauges are k's).
func (k jobCounts) since(base jobCounts) jobCounts {
	k.submitted -= base.submitted
	k.started -= base.started
	k.completed -= base.completed
	k.canceled -= base.canceled
	k.failed -= base.failed
	return k
}

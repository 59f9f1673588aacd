package ctld

import (
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
)

// TestLiveJobs_FollowsStateChanges checks that a scheduling cycle's job set holds the
// pending, running, suspended and completing jobs and drops a job once it has finished
// and completed, or is purged, and takes it back when it is requeued.
func TestLiveJobs_FollowsStateChanges(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	live := func() []uint32 {
		var ids []uint32
		for id, j := range c.t.liveJobs() {
			if j.JobID != id {
				t.Fatalf("live id %d yields job %d", id, j.JobID)
			}
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return ids
	}
	with := func(id uint32, st states.JobState) {
		j := pendingJob(id)
		j.State = uint32(st)
		if !st.IsPending() {
			j.Nodes, j.CPUsPerNode = []string{"n1"}, []uint32{1}
		}
		c.t.installJob(j)
	}
	with(1, states.JobPending)
	with(2, states.JobRunning)
	with(3, states.JobSuspended)
	with(4, states.JobComplete|states.JobCompleting)
	with(5, states.JobComplete)
	with(6, states.JobCancelled)
	if got, want := live(), []uint32{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("live jobs %v, want %v", got, want)
	}
	with(2, states.JobTimeout)  // ended
	with(4, states.JobComplete) // its nodes confirmed the end
	with(6, states.JobPending)  // requeued
	c.t.removeJob(1)            // purged
	if got, want := live(), []uint32{3, 6}; !slices.Equal(got, want) {
		t.Fatalf("after the changes, live jobs %v, want %v", got, want)
	}
}

package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestSetTop replays what the reference did with four pending jobs of one user (priorities
// 1678, 1677, 1626 with --nice=50, 1675): scontrol top of the last two, then of the first.
// The listed jobs take the highest priorities in the order given, the others pay for it
// evenly, and the nice values record each move.
func TestSetTop(t *testing.T) {
	c := verifyController(t)
	type pn struct {
		prio uint32
		nice int32
	}
	start := []pn{{1678, 0}, {1677, 0}, {1626, 50}, {1675, 0}}
	for i, s := range start {
		j := pendingJob(uint32(i + 1))
		j.Priority = s.prio
		j.editDesc(func(d *wire.JobDesc) { d.Nice = s.nice })
		c.t.installJob(j)
	}
	other := pendingJob(9) // another user's job is left alone
	other.UserID = 7
	c.t.installJob(other)
	top := func(list string, want []pn) {
		t.Helper()
		jobs, errno := c.t.topJobs(list)
		if errno != 0 {
			t.Fatalf("topJobs(%q): errno %d", list, errno)
		}
		changed, errno := c.t.setTop(jobs, 0)
		if errno != 0 {
			t.Fatalf("setTop(%q): errno %d", list, errno)
		}
		for _, n := range changed {
			c.t.installJob(n)
		}
		for i, w := range want {
			j := c.t.jobs[uint32(i+1)]
			if got := (pn{j.Priority, int32(j.descInt(descNice))}); got != w {
				t.Errorf("after top %s: job %d has %+v, want %+v", list, i+1, got, w)
			}
		}
		if c.t.jobs[9].Priority != 100 {
			t.Errorf("after top %s: another user's job moved to %d", list, c.t.jobs[9].Priority)
		}
	}
	top("4,3", []pn{{1651, 27}, {1650, 27}, {1677, -1}, {1678, -3}})
	top("1", []pn{{1678, 0}, {1641, 36}, {1668, 8}, {1669, 6}})

	for list, want := range map[string]int32{"2,2,99": errnoInvalidJobID, "x": errnoInvalidJobID, ",": errnoInvalidJobID, "1_x": errnoInvalidJobID} {
		if _, errno := c.t.topJobs(list); errno != want {
			t.Errorf("topJobs(%q): errno %d, want %d", list, errno, want)
		}
	}
	held := c.t.jobs[1].clone()
	held.Priority = 0
	c.t.installJob(held)
	if _, errno := c.t.setTop([]*jobRecord{c.t.jobs[1]}, 0); errno != errnoJobHeld {
		t.Errorf("top of a held job: errno %d, want %d", errno, errnoJobHeld)
	}
	if changed, errno := c.t.setTop([]*jobRecord{c.t.jobs[1], c.t.jobs[2]}, 0); errno != 0 || len(changed) == 0 {
		t.Errorf("top of a held job and a pending one: errno %d, %d changed; want the pending one topped", errno, len(changed))
	}
	if _, errno := c.t.setTop([]*jobRecord{c.t.jobs[2]}, 7); errno != errnoAccessDenied {
		t.Errorf("top of another user's job: errno %d, want %d", errno, errnoAccessDenied)
	}
}

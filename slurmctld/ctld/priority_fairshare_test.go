package ctld

import (
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// TestFairShareFactors checks both algorithms, worked by hand, for users directly under root
// with one share each.
func TestFairShareFactors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		usage    map[uint32]float64
		users    []uint32
		fairTree bool
		damp     uint16
		want     map[uint32]float64
	}{
		// LF = S/U: user 1 (1/3)/(100/150) = 0.5, user 2 (1/3)/(50/150) = 1, user 3 ∞.
		// Ranked 3, 2, 1 of 3.
		{"fair tree", map[uint32]float64{1: 100, 2: 50}, []uint32{1, 2, 3}, true, 1,
			map[uint32]float64{1: 1.0 / 3, 2: 2.0 / 3, 3: 1}},
		// Ties share the higher rank, and the next user is ranked by position: 1 and 2 tie
		// at LF 1 (rank 3), user 3 has LF 0.5 (rank 1).
		{"fair tree ties", map[uint32]float64{1: 25, 2: 25, 3: 50}, []uint32{1, 2, 3}, true, 1,
			map[uint32]float64{1: 1, 2: 1, 3: 1.0 / 3}},
		// No usage anywhere: everybody ties at ∞.
		{"fair tree no usage", nil, []uint32{7, 8}, true, 1, map[uint32]float64{7: 1, 8: 1}},
		// Classic: 2^(−(U/S)/damp) with S = 1/2: user 1 U=0.75 → 2^-1.5, user 2 U=0.25 → 2^-0.5.
		{"classic", map[uint32]float64{1: 75, 2: 25}, []uint32{1, 2}, false, 1,
			map[uint32]float64{1: math.Pow(2, -1.5), 2: math.Pow(2, -0.5)}},
		{"classic dampened", map[uint32]float64{1: 75, 2: 25}, []uint32{1, 2}, false, 3,
			map[uint32]float64{1: math.Pow(2, -0.5), 2: math.Pow(2, -0.5/3)}},
		{"classic no usage", nil, []uint32{1}, false, 1, map[uint32]float64{1: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			users := map[uint32]bool{}
			for _, u := range tc.users {
				users[u] = true
			}
			got := fairShareFactors(tc.usage, users, tc.fairTree, tc.damp)
			if len(got) != len(tc.want) {
				t.Fatalf("factors %v, want %v", got, tc.want)
			}
			for uid, w := range tc.want {
				if math.Abs(got[uid]-w) > 1e-12 {
					t.Errorf("user %d: factor %v, want %v", uid, got[uid], w)
				}
			}
		})
	}
}

// TestDecayedSpan checks usage decay: a CPU-second is worth half after one half-life (to
// Slurm's approximation of ln 2), nothing decays with a half-life of 0, and a run's usage is
// the same however the passes cut it up.
func TestDecayedSpan(t *testing.T) {
	const hl = 3600
	d := usageDecayFactor(hl)
	if got := decayedSpan(0, 1, 1+hl, d); math.Abs(got-0.5) > 0.005 {
		t.Errorf("one second, one half-life ago: %v, want about 0.5", got)
	}
	if got := decayedSpan(100, 400, 10_000, usageDecayFactor(0)); got != 300 {
		t.Errorf("no decay: %v, want 300", got)
	}
	whole := decayedSpan(0, 1000, 5000, d)
	// Counted in passes at 300 and 1000, each valued then and decayed to 5000 since.
	parts := decayedSpan(0, 300, 300, d)*math.Pow(d, 4700) + decayedSpan(300, 1000, 1000, d)*math.Pow(d, 4000)
	if math.Abs(whole-parts) > 1e-9*whole {
		t.Errorf("one span %v, the same in two passes %v", whole, parts)
	}
}

// TestFairShare_UsageOrdersUsers runs a controller on a clock the test moves: user 1000's job
// runs 100 s on 4 CPUs, then each user has a pending job. The heavy user's job gets half the
// fair-share weight (Fair Tree, 2 users: rank 1 of 2), the other user's all of it; the usage
// and the order survive a controller restart, and the run is not counted twice.
func TestFairShare_UsageOrdersUsers(t *testing.T) {
	var clock atomic.Int64
	clock.Store(1_000_000)
	now := func() time.Time { return time.Unix(clock.Load(), 0) }
	dir := t.TempDir()
	const extra = "PriorityWeightFairshare=10000\nPriorityWeightAge=0\nPriorityWeightJobSize=0\nPriorityWeightPartition=0\n"
	c, _ := prioControllerIn(t, dir, now, extra)

	start := clock.Load()
	c.mu.Lock()
	c.t.jobs[1] = &jobRecord{JobID: 1, UserID: 1000, Partition: "debug", State: uint32(states.JobRunning), Priority: 1,
		TimeLimit: 10, MinNodes: 1, NumTasks: 4, CPUsPerTask: 1, SubmitTime: start, EligibleTime: start, StartTime: start,
		Nodes: []string{"n1"}, CPUsPerNode: []uint32{4}, desc: packDesc(&wire.JobDesc{})}
	c.mu.Unlock()
	c.recalcPriorities() // the first pass: no usage yet
	clock.Add(100)
	pending := func(id, uid uint32) *jobRecord {
		return &jobRecord{JobID: id, UserID: uid, Partition: "debug", State: uint32(states.JobPending), Priority: 1,
			TimeLimit: 10, MinNodes: 1, NumTasks: 1, CPUsPerTask: 1, SubmitTime: clock.Load(), EligibleTime: clock.Load(), desc: packDesc(&wire.JobDesc{})}
	}
	c.mu.Lock()
	c.t.jobs[2], c.t.jobs[3] = pending(2, 1000), pending(3, 1001)
	c.mu.Unlock()
	clock.Add(300) // a PriorityCalcPeriod (5 minutes) after the first pass
	c.recalcPriorities()

	check := func(c *Controller, when string, wantUsage float64) {
		t.Helper()
		c.mu.Lock()
		defer c.mu.Unlock()
		if u := c.fairShare.usage[1000]; math.Abs(u-wantUsage) > 1e-9*wantUsage {
			t.Errorf("%s: user 1000's usage %v CPU-seconds, want %v", when, u, wantUsage)
		}
		if p := c.t.jobs[2].Priority; p != 5000 {
			t.Errorf("%s: the heavy user's job: priority %d, want 5000 (fair-share 0.5)", when, p)
		}
		if p := c.t.jobs[3].Priority; p != 10000 {
			t.Errorf("%s: the other user's job: priority %d, want 10000 (fair-share 1)", when, p)
		}
		if f := c.prio().factors[3].fairShare; f != 10000 {
			t.Errorf("%s: sprio's FAIRSHARE for job 3: %v, want 10000", when, f)
		}
	}
	// 400 s on 4 CPUs, each second decayed a little (half-life 7 days).
	decay := usageDecayFactor(7 * 86400)
	used := 4 * decayedSpan(start, start+400, start+400, decay)
	if used < 1590 || used > 1600 {
		t.Fatalf("400 s on 4 CPUs: %v CPU-seconds, want just under 1600", used)
	}
	check(c, "before the restart", used)
	// The job ends now; the controller stops and starts again 5 minutes later.
	c.mu.Lock()
	ended := c.t.jobs[1].clone()
	ended.State, ended.EndTime = uint32(states.JobComplete), clock.Load()
	c.mu.Unlock()
	c.Close()

	clock.Add(300)
	c2, _ := prioControllerIn(t, dir, now, extra)
	c2.mu.Lock()
	c2.t.jobs[1], c2.t.jobs[2], c2.t.jobs[3] = ended, c.t.jobs[2], c.t.jobs[3]
	c2.t.jobs[2].Priority, c2.t.jobs[3].Priority = 1, 1
	c2.loadFairShare() // again, now that the test's jobs (not in the store) are in memory
	c2.mu.Unlock()
	// A pass of c2's own loop may have run before the jobs were in; the next period's is
	// due whatever happened.
	clock.Add(300)
	c2.recalcPriorities()
	// Only decayed since: the ended run is not counted again.
	check(c2, "after the restart", used*math.Pow(decay, 600))
}

// TestFairShare_SnapshotRejectsGarbage checks that a damaged usage file is refused whole.
func TestFairShare_SnapshotRejectsGarbage(t *testing.T) {
	for _, b := range []string{
		``, `{`, `[]`, `{"time":1,"usage":{"x":1}}`, `{"time":1,"usage":{"1":-1}}`,
		`{"time":-5,"usage":{}}`, `{"time":1,"usage":{"4294967296":1}}`, `{"time":1,"bogus":2}`,
		`{"time":1,"usage":{}} {}`,
	} {
		if _, _, err := parseFairShareSnapshot([]byte(b)); err == nil {
			t.Errorf("%q: accepted", b)
		}
	}
	s, u, err := parseFairShareSnapshot([]byte(`{"time":7,"last_reset":3,"usage":{"1000":12.5}}`))
	if err != nil || s.Time != 7 || s.LastReset != 3 || u[1000] != 12.5 {
		t.Errorf("a good file: %+v %v %v", s, u, err)
	}
}

// FuzzFairShareSnapshot: the usage file parser never panics, and what it accepts is usable.
func FuzzFairShareSnapshot(f *testing.F) {
	f.Add([]byte(`{"time":7,"last_reset":3,"usage":{"1000":12.5}}`))
	f.Add([]byte(`{"time":1,"usage":{"1":1e308}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, u, err := parseFairShareSnapshot(b)
		if err != nil {
			return
		}
		if s.Time < 0 || s.LastReset < 0 {
			t.Fatalf("negative time accepted: %+v", s)
		}
		for uid, v := range u {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("usage %v for %d accepted", v, uid)
			}
		}
	})
}

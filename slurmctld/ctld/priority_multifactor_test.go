package ctld

import (
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// prioController is a controller (not serving) on 3 nodes of 4 CPUs — n1, n2 in partition
// debug (PriorityJobFactor 1), n3 in partition other (PriorityJobFactor 4) — with
// priority/multifactor and the given extra slurm.conf lines. Accounting is the embedded one
// (without accounting Slurm ignores PriorityWeightAge) unless extra names another.
func prioController(t *testing.T, extra string) *Controller {
	t.Helper()
	c, _ := prioControllerIn(t, t.TempDir(), nil, extra)
	return c
}

// prioControllerIn is prioController with its state in dir and its clock now (nil: the real
// one); it also returns the slurm.conf path.
func prioControllerIn(t *testing.T, dir string, now func() time.Time, extra string) (*Controller, string) {
	t.Helper()
	if !strings.Contains(extra, "AccountingStorageType") {
		extra += "AccountingStorageType=accounting_storage/orbit\n"
	}
	path, err := WriteTestConfig(dir, 6817, TestConfig{Nodes: 2, CPUs: 4,
		Extra: "NodeName=n3 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000\n" +
			"PartitionName=other Nodes=n3 State=UP PriorityJobFactor=4\n" +
			"PriorityType=priority/multifactor\nPriorityWeightAge=1000\nPriorityWeightJobSize=2000\n" +
			"PriorityWeightPartition=4000\nPriorityMaxAge=1-0\n" + extra})
	if err != nil {
		t.Fatal(err)
	}
	cfg, key := loadTest(t, path)
	c, err := New(Options{Config: cfg, Key: key, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Scheduler: idleScheduler{}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, path
}

// TestMultifactor_Priority checks priorities against Slurm 22.05's formula, worked by hand.
// The cluster has 3 nodes and 12 CPUs; the job asks 6 CPUs on at least 1 node and became
// eligible 12 hours before now (PriorityMaxAge is 1 day).
func TestMultifactor_Priority(t *testing.T) {
	const now = 1_000_000
	for _, tc := range []struct {
		name  string
		extra string
		setup func(j *jobRecord)
		want  uint32
	}{
		// age 43200/86400 = 0.5 → 500; job size (1/3 + 6/12)/2 = 0.41667 → 833.33;
		// partition 1/4 (max factor 4) → 1000; total 2333.33, truncated.
		{"favor large", "", nil, 2333},
		// nice 100 is subtracted.
		{"nice", "", func(j *jobRecord) { j.editDesc(func(d *wire.JobDesc) { d.Nice = 100 }) }, 2233},
		// negative nice (an operator's) adds.
		{"negative nice", "", func(j *jobRecord) { j.editDesc(func(d *wire.JobDesc) { d.Nice = -50 }) }, 2383},
		// age is capped at 1 (eligible two days ago): 1000 + 833.33 + 1000.
		{"age capped", "", func(j *jobRecord) { j.EligibleTime = now - 2*86400 }, 2833},
		// not eligible yet: no age.
		{"future begin", "", func(j *jobRecord) { j.EligibleTime = now + 60 }, 1833},
		// partition other: 4/4 → 4000; 500 + 833.33 + 4000.
		{"partition factor", "", func(j *jobRecord) { j.Partition = "other" }, 5333},
		// NO_NORMAL_PART: the raw factor 1 × 4000.
		{"no normal part", "PriorityFlags=NO_NORMAL_PART\n", nil, 4000 + 500 + 833},
		// favor small: ((3-1)/3 + (12-6)/12)/2 = 0.58333 → 1166.67; 500 + 1166.67 + 1000.
		{"favor small", "PriorityFavorSmall=YES\n", nil, 2666},
		// relative to time: max(6 CPUs, 1 node × 12/3) / 10 min / 12 = 0.05 → 100.
		{"small relative to time", "PriorityFlags=SMALL_RELATIVE_TO_TIME\n", nil, 500 + 100 + 1000},
		// ... with favor small: 1 − 0.05 = 0.95 → 1900.
		{"small relative favor small", "PriorityFlags=SMALL_RELATIVE_TO_TIME\nPriorityFavorSmall=YES\n", nil, 500 + 1900 + 1000},
		// ACCRUE_ALWAYS counts age from submit (one day before): 1000 + 833.33 + 1000.
		{"accrue always", "PriorityFlags=ACCRUE_ALWAYS\n", func(j *jobRecord) { j.SubmitTime = now - 86400 }, 2833},
		// everything subtracted: never below 1 (0 means held).
		{"floor", "", func(j *jobRecord) { j.editDesc(func(d *wire.JobDesc) { d.Nice = 100000 }) }, 1},
		// without accounting Slurm ignores PriorityWeightAge: 833.33 + 1000.
		{"no accounting, no age", "AccountingStorageType=accounting_storage/none\n", nil, 1833},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := prioController(t, tc.extra)
			j := &jobRecord{JobID: 1, Partition: "debug", State: uint32(states.JobPending), Priority: 1,
				TimeLimit: 10, MinNodes: 1, NumTasks: 6, CPUsPerTask: 1, SubmitTime: now - 43200, EligibleTime: now - 43200, desc: packDesc(&wire.JobDesc{})}
			if tc.setup != nil {
				tc.setup(j)
			}
			c.mu.Lock()
			got := c.jobFactorsAt(j, now).priority()
			c.mu.Unlock()
			if got != tc.want {
				t.Errorf("priority %d, want %d (factors %+v)", got, tc.want, c.jobFactorsAt(j, now))
			}
		})
	}
}

// TestMultifactor_Recalc checks what recomputation touches: pending jobs only, held jobs
// stay 0, an administrator's priority sticks, a released job is recomputed at once.
func TestMultifactor_Recalc(t *testing.T) {
	c := prioController(t, "PriorityCalcPeriod=1\n")
	now := c.now().Unix()
	mk := func(id uint32, prio uint32, st states.JobState) *jobRecord {
		return &jobRecord{JobID: id, Partition: "debug", State: uint32(st), Priority: prio, TimeLimit: 10,
			MinNodes: 1, NumTasks: 6, CPUsPerTask: 1, SubmitTime: now, EligibleTime: now, desc: packDesc(&wire.JobDesc{})}
	}
	c.mu.Lock()
	for _, j := range []*jobRecord{mk(1, 7, states.JobPending), mk(2, 0, states.JobPending), mk(3, 7, states.JobRunning), mk(4, 7, states.JobPending)} {
		c.t.jobs[j.JobID] = j
	}
	c.mu.Unlock()
	c.recalcPriorities()
	c.mu.Lock()
	// age 0; job size 833.33; partition 1000 → 1833.
	if p := c.t.jobs[1].Priority; p != 1833 {
		t.Errorf("pending job: priority %d, want 1833", p)
	}
	if p := c.t.jobs[2].Priority; p != 0 {
		t.Errorf("held job: priority %d, want 0", p)
	}
	if p := c.t.jobs[3].Priority; p != 7 {
		t.Errorf("running job: priority %d, want 7 (untouched)", p)
	}
	// An administrator sets job 4's priority; job 2 is released with some other value.
	n := c.t.jobs[4].clone()
	n.Priority = 42
	c.t.jobs[4] = n
	n = c.t.jobs[2].clone()
	n.Priority = 99
	c.t.jobs[2] = n
	c.mu.Unlock()
	c.recalcPriorities()
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.t.jobs[4].Priority; p != 42 {
		t.Errorf("admin-set priority: %d, want 42 (it sticks)", p)
	}
	if p := c.t.jobs[2].Priority; p != 1833 {
		t.Errorf("released job: priority %d, want 1833 (recomputed)", p)
	}
}

// TestMultifactor_AdminPriorityAfterRestart checks that an administrator's priority survives
// a controller restart: the recovered record says it was set directly (PrioritySet, saved
// with the job), so the first recomputation of the new controller, which knows nothing of the
// old one's memory, leaves it alone, while the job beside it is recomputed.
func TestMultifactor_AdminPriorityAfterRestart(t *testing.T) {
	c := prioController(t, "PriorityCalcPeriod=1\n")
	now := c.now().Unix()
	mk := func(id uint32, set bool) *jobRecord {
		return &jobRecord{JobID: id, Partition: "debug", State: uint32(states.JobPending), Priority: 42, PrioritySet: set,
			TimeLimit: 10, MinNodes: 1, NumTasks: 6, CPUsPerTask: 1, SubmitTime: now, EligibleTime: now, desc: packDesc(&wire.JobDesc{})}
	}
	c.mu.Lock()
	c.t.jobs[1], c.t.jobs[2] = mk(1, true), mk(2, false)
	c.mu.Unlock()
	c.recalcPriorities()
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.t.jobs[1].Priority; p != 42 {
		t.Errorf("admin-set priority after a restart: %d, want 42 (it sticks)", p)
	}
	if p := c.t.jobs[2].Priority; p != 1833 {
		t.Errorf("computed priority after a restart: %d, want 1833 (recomputed)", p)
	}
}

// TestBasic_NiceShiftsOnlyTheJob checks priority/basic with --nice against what the
// reference printed for five jobs submitted in a row with nice 0, 100, 0, -5, 0: X, X−1−100,
// X−2, X−3+5, X−4 (squeue %Q on Slurm 22.05: the counter moves by one per job whatever the
// nice).
func TestBasic_NiceShiftsOnlyTheJob(t *testing.T) {
	c := verifyController(t) // priority/basic
	const x = maxPriorityBase - 1
	want := []uint32{x, x - 1 - 100, x - 2, x - 3 + 5, x - 4}
	for i, nice := range []int32{0, 100, 0, -5, 0} {
		j := pendingJob(uint32(i + 1))
		j.editDesc(func(d *wire.JobDesc) { d.Nice = nice })
		j.Priority = c.submitPriority(j, 0)
		c.t.installJob(j)
		if j.Priority != want[i] {
			t.Errorf("job %d (nice %d): priority %d, want %d", i+1, nice, j.Priority, want[i])
		}
	}
	// A release is the next value down less the job's nice, as the reference's scontrol
	// release of a held --nice=1000 job (job_update.go); the next submit continues from the
	// counter, not from the nice job.
	held := pendingJob(8)
	held.editDesc(func(d *wire.JobDesc) { d.Nice = 1000 })
	held.Priority = 0
	prio := c.t.lowPrio
	if errno := c.holdRelease(held, wire.JobActionRelease, true, &prio); errno != 0 || held.Priority != x-5-1000 {
		t.Errorf("release of a nice job: errno %d, priority %d, want %d", errno, held.Priority, x-5-1000)
	}
	c.t.installJob(held)
	if p := c.submitPriority(pendingJob(9), 0); p != x-6 {
		t.Errorf("after the release: priority %d, want %d", p, x-6)
	}
}

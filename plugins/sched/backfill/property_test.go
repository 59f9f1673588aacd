package backfill

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// workload is a seeded random cluster and job mix: all jobs fit the cluster; runtimes are at
// most their limits; some jobs arrive later than the first cycle.
func workload(seed int64, params string) (scheduler.State, []scheduler.Job, map[uint32]int64, map[uint32]int64) {
	r := rand.New(rand.NewSource(seed))
	s := cluster(2+r.Intn(4), uint32(2+2*r.Intn(3)))
	s.Config.SchedulerParameters = params
	if r.Intn(2) == 0 {
		s.Config.SelectTypeParameters = "CR_CPU_Memory"
	}
	var jobs []scheduler.Job
	runtime, arrive := map[uint32]int64{}, map[uint32]int64{}
	for id := uint32(1); id <= 40; id++ {
		cpus := s.Nodes[0].CPUs
		j := job(id, uint32(1+r.Intn(1000)), uint32(1+r.Intn(len(s.Nodes))), uint32(1+r.Intn(int(cpus))), uint32(5+r.Intn(120)))
		j.MemPerCPU = uint64(r.Intn(3)*100) / uint64(j.TasksPerNode) // fits a node: sbatch rejects jobs that never would
		j.UserID = uint32(1000 + r.Intn(3))
		j.Exclusive = r.Intn(8) == 0
		if r.Intn(3) == 0 {
			arrive[id] = int64(r.Intn(4 * 3600))
		}
		runtime[id] = int64(60 + r.Intn(int(j.TimeLimit)*60-59))
		jobs = append(jobs, j)
	}
	return s, jobs, runtime, arrive
}

// TestBackfill_Property_ReservationNeverDelayed: once the highest-priority pending job has
// an expected start, it starts no later than that while it stays the highest (EASY's
// guarantee, with runtimes within limits). Also no node is ever allocated beyond its
// resources and every start the plugin proposes passes the controller's verification.
func TestBackfill_Property_ReservationNeverDelayed(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		for _, params := range []string{"bf_interval=1", "bf_interval=1,bf_resolution=300,bf_max_job_test=5"} {
			t.Run(fmt.Sprintf("seed%d/%s", seed, params), func(t *testing.T) {
				runProperty(t, seed, params)
			})
		}
	}
}

func runProperty(t *testing.T, seed int64, params string) {
	s, jobs, runtime, arrive := workload(seed, params)
	b, err := New(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	h, err := scheduler.NewHarness(b, s)
	if err != nil {
		t.Fatal(err)
	}
	h.Runtime = runtime
	submitted := map[uint32]bool{}
	promised := map[uint32]int64{} // top job -> the expected start it was given
	mode := selection.ParseMode(s.Config.SelectType, s.Config.SelectTypeParameters)
	for step := 0; step < 10000; step++ {
		var due []scheduler.Job
		for _, j := range jobs {
			if !submitted[j.ID] && arrive[j.ID] <= h.Now()-t0 {
				j.SubmitTime, j.EligibleTime = h.Now(), h.Now()
				due = append(due, j)
				submitted[j.ID] = true
			}
		}
		for id := range promised {
			for i := range due {
				if j := h.View().Job(id); j == nil || j.State != scheduler.JobPending || scheduler.ComparePriority(&due[i], j) < 0 {
					delete(promised, id) // a higher-priority arrival may take its place (EASY allows it)
					break
				}
			}
		}
		if len(due) > 0 {
			if err := h.Submit(due...); err != nil {
				t.Fatal(err)
			}
		}
		plan, err := h.Cycle()
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Rejected) > 0 {
			t.Fatalf("controller rejected starts: %v", h.Rejected)
		}
		pool := selection.NewPool(mode, h.View().Nodes())
		for _, j := range h.View().Running() {
			pool.TakeJob(j)
			if p, ok := promised[j.ID]; ok && j.StartTime > p {
				t.Fatalf("job %d was promised t0+%d as top job but started at t0+%d", j.ID, p-t0, j.StartTime-t0)
			}
			delete(promised, j.ID)
		}
		if n := pool.Overbooked(); n != "" {
			t.Fatalf("node %s allocated beyond its resources at t0+%d", n, h.Now()-t0)
		}
		pend := h.View().Pending()
		var top *scheduler.Job
		for _, j := range pend {
			if j.Eligible {
				top = j
				break
			}
		}
		for id := range promised {
			if top == nil || id != top.ID {
				if j := h.View().Job(id); j != nil && j.State == scheduler.JobPending {
					delete(promised, id) // displaced by a new higher-priority job
				}
			}
		}
		if top != nil {
			for _, r := range plan.Reservations {
				if r.JobID == top.ID {
					if p, ok := promised[top.ID]; !ok || r.StartTime < p {
						promised[top.ID] = r.StartTime
					}
				}
			}
		}
		if len(pend) == 0 && len(submitted) == len(jobs) {
			return
		}
		next, ok := h.NextEnd()
		for _, a := range arrive {
			if at := t0 + a; at > h.Now() && (!ok || at < next) {
				next, ok = at, true
			}
		}
		if !ok {
			t.Fatalf("t0+%d: %d jobs pending and nothing running or arriving", h.Now()-t0, len(pend))
		}
		if _, err := h.Advance(next); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("workload did not finish")
}

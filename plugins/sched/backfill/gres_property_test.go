package backfill

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// TestBackfill_Property_GresNeverOverbooked: a random mix of --gres jobs scheduled by
// backfill through the harness (which verifies every start as the controller does) never
// allocates a node's GRES beyond what it has, and every job ends up running.
func TestBackfill_Property_GresNeverOverbooked(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			s := cluster(2+r.Intn(3), 8)
			for i := range s.Nodes {
				s.Nodes[i].Gres = []scheduler.Gres{{Name: "gpu", Count: uint64(1 + r.Intn(4))}}
			}
			most := uint64(0)
			for _, n := range s.Nodes {
				most = max(most, n.Gres[0].Count)
			}
			var jobs []scheduler.Job
			runtime := map[uint32]int64{}
			for id := uint32(1); id <= 30; id++ {
				j := job(id, uint32(1+r.Intn(100)), 1, uint32(1+r.Intn(4)), uint32(5+r.Intn(60)))
				j.Gres = []scheduler.Gres{{Name: "gpu", Count: uint64(1 + r.Intn(int(most)))}} // fits some node
				runtime[id] = int64(60 + r.Intn(int(j.TimeLimit)*60-59))
				jobs = append(jobs, j)
			}
			b, err := New(s.Config)
			if err != nil {
				t.Fatal(err)
			}
			h, err := scheduler.NewHarness(b, s)
			if err != nil {
				t.Fatal(err)
			}
			h.Runtime = runtime
			if err := h.Submit(jobs...); err != nil {
				t.Fatal(err)
			}
			mode := selection.ParseMode(s.Config.SelectType, s.Config.SelectTypeParameters)
			for step := 0; step < 1000; step++ {
				if _, err := h.Cycle(); err != nil {
					t.Fatal(err)
				}
				if len(h.Rejected) > 0 {
					t.Fatalf("controller rejected starts: %v", h.Rejected)
				}
				pool := selection.NewPool(mode, h.View().Nodes())
				for _, j := range h.View().Running() {
					pool.TakeJob(j)
				}
				if n := pool.Overbooked(); n != "" {
					t.Fatalf("node %s allocated beyond its GRES at t0+%d: %v", n, h.Now()-t0, pool.GresUsed(n))
				}
				if len(h.View().Pending()) == 0 && len(h.View().Running()) == 0 {
					return
				}
				next, ok := h.NextEnd()
				if !ok {
					t.Fatalf("t0+%d: %d jobs pending and nothing running", h.Now()-t0, len(h.View().Pending()))
				}
				if _, err := h.Advance(next); err != nil {
					t.Fatal(err)
				}
			}
			t.Fatal("workload did not finish")
		})
	}
}

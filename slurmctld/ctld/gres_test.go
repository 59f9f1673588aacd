package ctld

import (
	"context"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

func gpus(n int) []gresEntry {
	return []gresEntry{{name: "gpu", count: uint64(n), used: make([]bool, n), files: true}}
}

// TestApplyPlan_Gres: the controller assigns devices itself, refuses a start that would
// over-book a node's GRES whatever the plan says, and frees the devices when the job ends.
func TestApplyPlan_Gres(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	c.t.nodes["n1"].gres = gpus(2)
	a, b := pendingJob(5), pendingJob(6)
	a.NumTasks, b.NumTasks = 1, 1
	a.Gres = []jobspec.GresReq{{Name: "gpu", Count: 2}}
	b.Gres = []jobspec.GresReq{{Name: "gpu", Count: 1}}
	c.t.jobs[5], c.t.jobs[6] = a, b
	// Job 6 on n1 fits its CPUs but not its GPU once job 5 holds both; on n2 (no GPU) never.
	starts, _ := c.applyPlan(scheduler.Plan{Starts: []scheduler.Start{
		{JobID: 5, Nodes: []string{"n1"}, CPUs: []uint32{1}},
		{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{1}},
		{JobID: 6, Nodes: []string{"n2"}, CPUs: []uint32{1}},
	}}, sentState{}, 100)
	j5, st6 := c.t.jobs[5], c.t.jobs[6].state()
	used := gresUsedString(c.t.nodes["n1"].gres)
	gpusOf5 := c.batchGPUs(j5)
	c.mu.Unlock()
	for _, s := range starts {
		s.p.Wait(context.Background())
	}
	if len(starts) != 1 || !j5.state().IsRunning() || !st6.IsPending() {
		t.Fatalf("starts=%d job5=%s job6=%s; want only job 5 started", len(starts), j5.state(), st6)
	}
	if used != "gpu:2" || gpusOf5 != "0,1" {
		t.Fatalf("n1 GresUsed=%s, job 5 devices %q; want gpu:2 and 0,1", used, gpusOf5)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, _, err := c.verifyStart(scheduler.Start{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{1}}, 100, map[uint32]uint32{}, map[uint32]bool{})
	if err == nil || !strings.Contains(err.Error(), "GRES over-allocated") {
		t.Fatalf("verifyStart on a node without free GPUs = %v", err)
	}
	c.t.removeJob(5)
	if got := gresUsedString(c.t.nodes["n1"].gres); got != "gpu:0" {
		t.Fatalf("after job 5 left, n1 GresUsed=%s", got)
	}
	if _, a, err := c.verifyStart(scheduler.Start{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{1}}, 100, map[uint32]uint32{}, map[uint32]bool{}); err != nil || len(a.gres) != 1 || a.gres[0][0].Index[0] != 0 {
		t.Fatalf("verifyStart after the GPUs were freed = %+v, %v", a, err)
	}
}

// TestParseJobGres: submit-time checks, with Slurm's errors.
func TestParseJobGres(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.nodes["n1"].gres = gpus(2)
	cfg := *c.config()
	cfg.GresTypes = "gpu"
	p := c.t.parts["debug"]
	for _, tc := range []struct {
		spec  string
		nodes uint32
		errno int32 // 0 = accepted
	}{
		{"gpu:2", 1, 0}, {"gpu", 1, 0}, {"gpu:0", 1, 0},
		{"gpu:3", 1, errnoNodeConfigUnavail}, {"gpu:1", 2, errnoNodeConfigUnavail},
		{"mps:1", 1, errnoInvalidGres}, {"gpu::1", 1, errnoInvalidGres},
	} {
		j := pendingJob(9)
		j.MinNodes = tc.nodes
		err := c.t.parseJobGres(&cfg, tc.spec, j, p)
		switch {
		case tc.errno == 0 && err != nil:
			t.Errorf("--gres=%s: %v", tc.spec, err)
		case tc.errno != 0 && (err == nil || !strings.Contains(err.Error(), errnoTexts[tc.errno])):
			t.Errorf("--gres=%s on %d nodes: %v, want %q", tc.spec, tc.nodes, err, errnoTexts[tc.errno])
		}
	}
}

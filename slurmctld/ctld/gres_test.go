package ctld

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
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
	_, _, err := c.verifyStart(scheduler.Start{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{1}}, 100, c.inUse(), map[uint32]bool{})
	if err == nil || !strings.Contains(err.Error(), "GRES over-allocated") {
		t.Fatalf("verifyStart on a node without free GPUs = %v", err)
	}
	c.t.removeJob(5)
	if got := gresUsedString(c.t.nodes["n1"].gres); got != "gpu:0" {
		t.Fatalf("after job 5 left, n1 GresUsed=%s", got)
	}
	if _, a, err := c.verifyStart(scheduler.Start{JobID: 6, Nodes: []string{"n1"}, CPUs: []uint32{1}}, 100, c.inUse(), map[uint32]bool{}); err != nil || len(a.gres) != 1 || a.gres[0][0].Index[0] != 0 {
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

// TestNodeGresUsed: GresUsed as gres_get_node_used prints it (checked against Slurm
// 22.05's _node_gres_used; the shared reference has no GresTypes): one element per GresTypes
// name in that order, "name:0" for a node without it, typed counts per type, and device
// indices only for typed GRES with device files (Slurm's topology records).
func TestNodeGresUsed(t *testing.T) {
	held := func(e gresEntry, idx ...int) gresEntry {
		e.used = make([]bool, e.count)
		for _, i := range idx {
			e.used[i] = true
		}
		return e
	}
	for _, tc := range []struct {
		types   string
		entries []gresEntry
		want    string
	}{
		{"", []gresEntry{held(gresEntry{name: "gpu", count: 2})}, ""},
		{"gpu", nil, "gpu:0"},
		{"gpu", []gresEntry{held(gresEntry{name: "gpu", count: 2, files: true}, 1)}, "gpu:1"},
		{"gpu,mps", []gresEntry{held(gresEntry{name: "gpu", count: 4}, 0, 1)}, "gpu:2,mps:0"},
		{"mps, gpu", []gresEntry{held(gresEntry{name: "gpu", count: 4}, 0, 1)}, "mps:0,gpu:2"},
		{"gpu", []gresEntry{held(gresEntry{name: "gpu", typ: "a100", count: 2}, 0), held(gresEntry{name: "gpu", typ: "v100", count: 2, first: 2})},
			"gpu:a100:1,gpu:v100:0"},
		{"gpu", []gresEntry{held(gresEntry{name: "gpu", typ: "a100", count: 4, files: true}, 0, 1, 3), held(gresEntry{name: "gpu", typ: "v100", count: 2, first: 4, files: true})},
			"gpu:a100:3(IDX:0-1,3),gpu:v100:0(IDX:N/A)"},
	} {
		if got := nodeGresUsed(tc.types, tc.entries); got != tc.want {
			t.Errorf("GresTypes=%q: GresUsed=%q, want %q", tc.types, got, tc.want)
		}
	}
}

func TestIndexRanges(t *testing.T) {
	for _, tc := range []struct {
		in   []uint32
		want string
	}{
		{nil, ""}, {[]uint32{0}, "0"}, {[]uint32{0, 1}, "0-1"}, {[]uint32{3, 0, 1}, "0-1,3"},
		{[]uint32{1, 2, 3, 5, 7, 8}, "1-3,5,7-8"}, {[]uint32{2, 2}, "2"},
	} {
		if got := indexRanges(tc.in); got != tc.want {
			t.Errorf("indexRanges(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// gresJob is a running job holding takes[i] on node i of nodes, with --gres req.
func gresJob(c *Controller, id uint32, req string, nodes []string, takes ...[]gresTake) *jobRecord {
	j := pendingJob(id)
	j.Gres, _ = jobspec.ParseGres(req)
	j.Nodes, j.GresAlloc = nodes, takes
	j.CPUsPerNode = make([]uint32, len(nodes))
	for i := range nodes {
		j.CPUsPerNode[i] = 1
	}
	c.t.jobs[id] = j
	return j
}

// TestJobGresDetail: scontrol -d's JOB_GRES= and per-node GRES= (gres_ctld_job_build_details):
// per request, with the device indices; a GRES without device files has no bitmap in Slurm
// and appears in neither.
func TestJobGresDetail(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t.nodes["n1"].gres = gpus(4)
	c.t.nodes["n2"].gres = gpus(4)
	j := gresJob(c, 7, "gpu:2", []string{"n1", "n2"},
		[]gresTake{{Name: "gpu", Index: []uint32{0, 1}}}, []gresTake{{Name: "gpu", Index: []uint32{1, 3}}})
	total, detail := c.jobGresDetail(j)
	if total != "gpu:4" || strings.Join(detail, "|") != "gpu:2(IDX:0-1)|gpu:2(IDX:1,3)" {
		t.Errorf("JOB_GRES=%q GRES=%q; want gpu:4 and gpu:2(IDX:0-1)|gpu:2(IDX:1,3)", total, detail)
	}
	// Typed and untyped requests of one name: the typed one takes its type's devices first.
	c.t.nodes["n1"].gres = []gresEntry{
		{name: "gpu", typ: "a100", count: 2, used: make([]bool, 2), files: true},
		{name: "gpu", typ: "v100", count: 2, first: 2, used: make([]bool, 2), files: true},
	}
	j = gresJob(c, 8, "gpu:2,gpu:a100:1", []string{"n1"},
		[]gresTake{{Name: "gpu", Type: "a100", Index: []uint32{0, 1}}, {Name: "gpu", Type: "v100", Index: []uint32{2}}})
	total, detail = c.jobGresDetail(j)
	if total != "gpu:2,gpu:a100:1" || strings.Join(detail, "|") != "gpu:2(IDX:1-2),gpu:a100:1(IDX:0)" {
		t.Errorf("typed+untyped: JOB_GRES=%q GRES=%q", total, detail)
	}
	// No device files: nothing to show.
	c.t.nodes["n2"].gres = []gresEntry{{name: "gpu", count: 4, used: make([]bool, 4)}}
	j = gresJob(c, 9, "gpu:1", []string{"n2"}, []gresTake{{Name: "gpu", Index: []uint32{0}}})
	if total, _ := c.jobGresDetail(j); total != "" {
		t.Errorf("GRES without File=: JOB_GRES=%q, want none", total)
	}
	var info wire.JobInfo
	c.jobInfoExtra(j, j.Desc(), &info)
	if info.GresTotal != "" || info.GresDetail != "" {
		t.Errorf("GRES without File=: JobInfo GresTotal=%q GresDetail=%q", info.GresTotal, info.GresDetail)
	}
}

// TestStepGres: a step's --gres against the job's (step_create): none given takes the job's
// GRES on each node (22.05 copies tres_per_node), "none" takes none, and what the job cannot
// serve is ESLURM_INVALID_GRES.
func TestStepGres(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg := *c.config()
	cfg.GresTypes = "gpu,mps"
	c.cfg.Store(&cfg)
	c.t.nodes["n1"].gres = gpus(4)
	c.t.nodes["n2"].gres = gpus(4)
	j := gresJob(c, 7, "gpu:2", []string{"n1", "n2"},
		[]gresTake{{Name: "gpu", Index: []uint32{0, 1}}}, []gresTake{{Name: "gpu", Index: []uint32{2, 3}}})
	for _, tc := range []struct {
		spec  string
		nodes []string
		gpus  string // per node, "|"-joined; "-" = an error
	}{
		{"", []string{"n1", "n2"}, "0,1|2,3"},
		{"", []string{"n2"}, "2,3"},
		{"gpu:1", []string{"n1", "n2"}, "0|2"},
		{"gpu", []string{"n1"}, "0"},
		{"gpu:2", []string{"n1"}, "0,1"},
		{"none", []string{"n1"}, ""},
		{"NONE", []string{"n1"}, ""},
		{"gpu:3", []string{"n1"}, "-"},
		{"mps:1", []string{"n1"}, "-"},
		{"foo:1", []string{"n1"}, "-"},
		{"gpu:a100:1", []string{"n1"}, "-"},
		{"gpu::1", []string{"n1"}, "-"},
	} {
		got, why, err := c.stepGres(j, tc.nodes, tc.spec)
		switch {
		case tc.gpus == "-" && (err == nil || !strings.Contains(err.Error(), "Invalid generic resource (gres) specification")):
			t.Errorf("step --gres=%q: %v, want ESLURM_INVALID_GRES", tc.spec, err)
		case tc.gpus == "-" && why == "":
			t.Errorf("step --gres=%q: refused without saying why", tc.spec)
		case tc.gpus != "-" && (err != nil || strings.Join(got, "|") != tc.gpus):
			t.Errorf("step --gres=%q on %v: GPUs %q, %v; want %q", tc.spec, tc.nodes, got, err, tc.gpus)
		}
	}
	// A job without GRES: a step asking for some is refused, one without gets none.
	k := gresJob(c, 8, "", []string{"n1"})
	if _, _, err := c.stepGres(k, []string{"n1"}, "gpu:1"); err == nil {
		t.Errorf("step --gres=gpu:1 in a job without GRES was accepted")
	}
	if got, _, err := c.stepGres(k, []string{"n1"}, ""); err != nil || got != nil {
		t.Errorf("step in a job without GRES: %q, %v", got, err)
	}
}

// TestReconfGres: a reconfigure gives nodes their new GRES and keeps the devices running
// jobs hold; GresTypes keeps its running value (Slurm: "GresPlugins changed ... ignored").
func TestReconfGres(t *testing.T) {
	c := verifyController(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	old := *c.config()
	old.GresTypes = "gpu"
	c.t.nodes["n1"].gres = gpus(2)
	j := gresJob(c, 7, "gpu:1", []string{"n1"}, []gresTake{{Name: "gpu", Index: []uint32{1}}})
	j.State = uint32(states.JobRunning)
	c.t.nodes["n1"].holdGres(j.GresAlloc[0], true)
	next := old
	next.Raw = maps.Clone(old.Raw)
	next.GresTypes = "gpu,mps"
	n1 := *c.t.nodes["n1"].conf
	n1.Gres = "gpu:4"
	c.t.nodes["n1"].conf = &n1
	var logged []string
	c.t.reconfGres(&old, &next, func(msg string, _ ...any) { logged = append(logged, msg) })
	if next.GresTypes != "gpu" || len(logged) != 1 || !strings.Contains(logged[0], "GresPlugins changed from gpu to gpu,mps ignored") {
		t.Errorf("GresTypes after reconfigure %q, log %q", next.GresTypes, logged)
	}
	if got := nodeGresUsed(next.GresTypes, c.t.nodes["n1"].gres); got != "gpu:1" || c.t.nodes["n1"].gres[0].count != 4 || !c.t.nodes["n1"].gres[0].used[1] {
		t.Errorf("n1 after reconfigure: %+v (GresUsed %s); want 4 GPUs, device 1 held", c.t.nodes["n1"].gres, got)
	}
}

// TestNodeGresShown: a registered node's Gres= as Slurm's _build_node_gres_str rebuilds it
// (checked against source only).
func TestNodeGresShown(t *testing.T) {
	for _, tc := range []struct {
		types   string
		entries []gresEntry
		want    string
	}{
		{"gpu", nil, ""},
		{"gpu", []gresEntry{{name: "gpu", count: 2}}, "gpu:2"},
		{"gpu,mps", []gresEntry{{name: "mps", count: 2048}, {name: "gpu", count: 2}}, "gpu:2,mps:2K"},
		{"gpu", []gresEntry{{name: "gpu", typ: "a100", count: 2}, {name: "gpu", typ: "v100", count: 1}}, "gpu:a100:2,gpu:v100:1"},
		{"gpu", []gresEntry{{name: "nic", count: 1}}, ""},
		{"mps", []gresEntry{{name: "mps", count: 3 << 20}}, "mps:3M"},
	} {
		if got := nodeGresShown(tc.types, tc.entries); got != tc.want {
			t.Errorf("GresTypes=%s %+v: Gres=%q, want %q", tc.types, tc.entries, got, tc.want)
		}
	}
}

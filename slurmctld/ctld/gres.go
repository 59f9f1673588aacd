package ctld

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Generic resources (select/cons_tres's GRES counting, Slurm's gres_ctld.c): each node's
// configured GRES with the devices in use, the --gres of every job (parsed once at submit,
// kept on the record), and the devices a running job holds on each of its nodes (assigned
// here when a start is verified, stored with the job, so a restarted controller holds the
// same devices). Counting what fits is selection's (GresFits, TakeGres), shared with the
// scheduler plugins so that both agree.

// errnoInvalidGres is ESLURM_INVALID_GRES.
const errnoInvalidGres = 2072

func init() { errnoTexts[errnoInvalidGres] = jobspec.ErrInvalidGres.Error() }

// gresEntry is one GRES of a node (one name and type), with its devices: indices first ..
// first+count-1 among the node's devices of that name (CUDA_VISIBLE_DEVICES' numbering).
type gresEntry struct {
	name, typ string
	count     uint64
	first     uint32
	used      []bool // by device, from first
	files     bool   // gres.conf names device files: jobs get device variables
}

// gresTake is what a running job holds of one GRES entry on one node: the device indices.
type gresTake struct {
	Name  string   `codec:"name"`
	Type  string   `codec:"type"`
	Index []uint32 `codec:"index"`
}

// newNodeGres is the GRES entries of a node as slurm.conf and gres.conf configure them.
func newNodeGres(cfg *conf.Config, n *conf.Node) []gresEntry {
	var out []gresEntry
	next := map[string]uint32{}
	for _, g := range cfg.NodeGres(n) {
		c := g.Count
		if c > 1<<16 {
			c = 1 << 16 // counted units (mps shares, licenses-like counts) are not devices
		}
		out = append(out, gresEntry{name: g.Name, typ: g.Type, count: g.Count, first: next[g.Name], used: make([]bool, c), files: g.Files})
		next[g.Name] += uint32(c)
	}
	return out
}

// cloneGres is a copy of n's GRES whose devices can be released without touching n's.
func (n *nodeEntry) cloneGres() []gresEntry {
	out := slices.Clone(n.gres)
	for i := range out {
		out[i].used = slices.Clone(out[i].used)
	}
	return out
}

// schedGres is n's GRES as the scheduler sees them, and what is in use of each.
func (n *nodeEntry) schedGres() ([]scheduler.Gres, []uint64) {
	if len(n.gres) == 0 {
		return nil, nil
	}
	g := make([]scheduler.Gres, len(n.gres))
	used := make([]uint64, len(n.gres))
	for i, e := range n.gres {
		g[i] = scheduler.Gres{Name: e.name, Type: e.typ, Count: e.count}
		for _, u := range e.used {
			if u {
				used[i]++
			}
		}
	}
	return g, used
}

// holdGres marks (on) or clears the devices a job holds on n.
func (n *nodeEntry) holdGres(takes []gresTake, on bool) {
	for _, tk := range takes {
		for i := range n.gres {
			e := &n.gres[i]
			if e.name != tk.Name || e.typ != tk.Type {
				continue
			}
			for _, d := range tk.Index {
				if d >= e.first && int(d-e.first) < len(e.used) {
					e.used[d-e.first] = on
				}
			}
		}
	}
}

// gresReq is the job's --gres as selection counts it.
func (j *jobRecord) gresReq() []scheduler.Gres {
	if len(j.Gres) == 0 {
		return nil
	}
	out := make([]scheduler.Gres, len(j.Gres))
	for i, r := range j.Gres {
		out[i] = scheduler.Gres{Name: r.Name, Type: r.Type, Count: r.Count}
	}
	return out
}

// assignGres picks the devices j takes on node n: the counts TakeGres chooses, each from the
// lowest free devices of its entry. False when the node's free GRES do not serve j.
func (n *nodeEntry) assignGres(j *jobRecord) ([]gresTake, bool) {
	req := j.gresReq()
	if len(req) == 0 {
		return nil, true
	}
	g, used := n.schedGres()
	counts, ok := selection.TakeGres(g, used, req)
	if !ok {
		return nil, false
	}
	var out []gresTake
	for _, c := range counts {
		for i := range n.gres {
			e := &n.gres[i]
			if e.name != c.Name || e.typ != c.Type {
				continue
			}
			tk := gresTake{Name: c.Name, Type: c.Type}
			for d, u := range e.used {
				if uint64(len(tk.Index)) == c.Count {
					break
				}
				if !u {
					tk.Index = append(tk.Index, e.first+uint32(d))
				}
			}
			out = append(out, tk)
			break
		}
	}
	return out, true
}

// gresEver says whether node n could ever serve j's --gres (nothing in use).
func (n *nodeEntry) gresEver(j *jobRecord) bool {
	req := j.gresReq()
	if len(req) == 0 {
		return true
	}
	g, _ := n.schedGres()
	return selection.GresEver(g, req)
}

// parseJobGres reads a submitted --gres and checks it as Slurm's job_create does: it parses
// and names only GresTypes' GRES (ESLURM_INVALID_GRES), and at least the job's node count
// of the partition's nodes could hold it (ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE, what
// select's test-only run answers).
func (t *tables) parseJobGres(cfg *conf.Config, spec string, j *jobRecord, p *partEntry) error {
	if spec == "" {
		return nil
	}
	reqs, err := jobspec.ParseGres(spec)
	if err == nil {
		err = jobspec.CheckGresNames(reqs, cfg.GresTypes)
	}
	if err != nil {
		if errors.Is(err, jobspec.ErrInvalidGres) {
			return slurmErr(errnoInvalidGres)
		}
		return err
	}
	j.Gres = reqs
	var fit uint32
	for _, name := range p.nodes {
		if t.nodes[name].gresEver(j) {
			fit++
		}
	}
	if len(reqs) > 0 && fit < j.MinNodes {
		return slurmErr(errnoNodeConfigUnavail)
	}
	return nil
}

// trackedGres is the GRES TRES AccountingStorageTRES lists ("gres/gpu", "gres/gpu:a100"):
// only those appear in TRES strings, as in Slurm (none by default).
func trackedGres(cfg *conf.Config) map[string]bool {
	v, _ := cfg.Get("AccountingStorageTRES")
	var m map[string]bool
	for _, t := range strings.Split(v, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if strings.HasPrefix(t, "gres/") {
			if m == nil {
				m = map[string]bool{}
			}
			m[t] = true
		}
	}
	return m
}

// gresTRES is GRES counts as TRES elements ("gres/gpu=4", and "gres/gpu:a100=2" when that
// type is tracked), for the tracked names only, in the order of first appearance.
func gresTRES(tracked map[string]bool, counts []scheduler.Gres) []string {
	if len(tracked) == 0 {
		return nil
	}
	var keys []string
	sum := map[string]uint64{}
	add := func(k string, n uint64) {
		if !tracked[strings.ToLower(k)] {
			return
		}
		if _, ok := sum[k]; !ok {
			keys = append(keys, k)
		}
		sum[k] += n
	}
	for _, g := range counts {
		add("gres/"+g.Name, g.Count)
		if g.Type != "" {
			add("gres/"+g.Name+":"+g.Type, g.Count)
		}
	}
	var out []string
	for _, k := range keys {
		if sum[k] > 0 {
			out = append(out, k+"="+strconv.FormatUint(sum[k], 10))
		}
	}
	return out
}

func usedCount(e *gresEntry) uint64 {
	var n uint64
	for _, u := range e.used {
		if u {
			n++
		}
	}
	return n
}

// gresUsedString is what is in use of a node's GRES as Slurm's GresUsed prints it for a
// node without device topology ("gpu:2", typed "gpu:a100:1,gpu:v100:0").
func gresUsedString(entries []gresEntry) string {
	var parts []string
	for i := range entries {
		e := &entries[i]
		s := e.name
		if e.typ != "" {
			s += ":" + e.typ
		}
		parts = append(parts, s+":"+strconv.FormatUint(usedCount(e), 10))
	}
	return strings.Join(parts, ",")
}

// nodeGresTRES is ",gres/gpu=4"-style elements to append to a node's CfgTRES (alloc false)
// or AllocTRES (alloc true); "" when none is tracked.
func (c *Controller) nodeGresTRES(n *nodeEntry, alloc bool) string {
	if len(n.gres) == 0 {
		return ""
	}
	g, used := n.schedGres()
	if alloc {
		for i := range g {
			g[i].Count = used[i]
		}
	}
	return strings.Join(gresTRES(trackedGres(c.config()), g), ",")
}

// jobGresTRES is the job's GRES as TRES elements: what it holds on all its nodes while it
// has them, else its per-node request times its node count.
func (c *Controller) jobGresTRES(j *jobRecord, held bool) string {
	if len(j.Gres) == 0 {
		return ""
	}
	var counts []scheduler.Gres
	if held {
		for _, per := range j.gresAllocCounts() {
			counts = append(counts, per...)
		}
	} else {
		for _, r := range j.gresReq() {
			r.Count *= uint64(max(j.MinNodes, 1))
			counts = append(counts, r)
		}
	}
	return strings.Join(gresTRES(trackedGres(c.config()), counts), ",")
}

// joinTRES appends TRES elements to a TRES string.
func joinTRES(s, extra string) string {
	switch {
	case extra == "":
		return s
	case s == "":
		return extra
	}
	return s + "," + extra
}

// gresDevices is the device indices a job holds of GRES name on its node i, ascending.
func (j *jobRecord) gresDevices(i int, name string) []uint32 {
	if i >= len(j.GresAlloc) {
		return nil
	}
	var idx []uint32
	for _, tk := range j.GresAlloc[i] {
		if tk.Name == name {
			idx = append(idx, tk.Index...)
		}
	}
	slices.Sort(idx)
	return idx
}

// gresOfNode is n's GRES as the scheduler plugin is told them (configuration only: what is
// in use follows from the running jobs' GresAlloc).
func gresOfNode(n *nodeEntry) []scheduler.Gres {
	g, _ := n.schedGres()
	return g
}

// gresAllocCounts is what the job holds on each of its nodes as the plugin counts it.
func (j *jobRecord) gresAllocCounts() [][]scheduler.Gres {
	if len(j.GresAlloc) == 0 {
		return nil
	}
	out := make([][]scheduler.Gres, len(j.GresAlloc))
	for i, takes := range j.GresAlloc {
		for _, tk := range takes {
			out[i] = append(out[i], scheduler.Gres{Name: tk.Name, Type: tk.Type, Count: uint64(len(tk.Index))})
		}
	}
	return out
}

// batchGPUs is the GPU devices j holds on its batch host with device files ("0,1"), as the
// batch step's CUDA_VISIBLE_DEVICES and SLURM_JOB_GPUS list them; "" for none.
func (c *Controller) batchGPUs(j *jobRecord) string {
	if len(j.GresAlloc) == 0 || len(j.Nodes) == 0 {
		return ""
	}
	n := c.t.nodes[j.Nodes[0]]
	if n == nil {
		return ""
	}
	var idx []string
	for _, tk := range j.GresAlloc[0] {
		if tk.Name != "gpu" {
			continue
		}
		for _, e := range n.gres {
			if e.name == tk.Name && e.typ == tk.Type && e.files {
				for _, d := range tk.Index {
					idx = append(idx, strconv.FormatUint(uint64(d), 10))
				}
				break
			}
		}
	}
	return strings.Join(idx, ",")
}

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
// scheduler plugins so that both agree. Here too: what the commands show of GRES (a node's
// Gres=, GresUsed=, TRES; a job's JOB_GRES= and per-node GRES=), the check of a step's
// --gres against the job's (stepGres) and what a reconfigure changes (reconfGres).

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

// nodeGresUsed is the node's GresUsed as Slurm's gres_get_node_used builds it: one element
// per GresTypes name, in that order ("gpu:0" for a node without it). An untyped GRES is
// "name:N"; typed ones are listed by type ("gpu:a100:1,gpu:v100:0"), and when gres.conf names
// their device files (Slurm's topology records) with the devices in use
// ("gpu:a100:1(IDX:0)", "(IDX:N/A)" when none). "" when GresTypes is empty: the node then has
// no GRES state, and Slurm prints no GresUsed line.
func nodeGresUsed(gresTypes string, entries []gresEntry) string {
	var parts []string
	for _, name := range strings.Split(gresTypes, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		var mine []*gresEntry
		typed := false
		for i := range entries {
			if entries[i].name == name {
				mine = append(mine, &entries[i])
				typed = typed || entries[i].typ != ""
			}
		}
		if !typed {
			var n uint64
			for _, e := range mine {
				n += usedCount(e)
			}
			parts = append(parts, name+":"+strconv.FormatUint(n, 10))
			continue
		}
		for _, e := range mine {
			typ := e.typ
			if typ == "" {
				typ = "(null)" // Slurm prints the missing type name of a record with %s
			}
			s := name + ":" + typ + ":" + strconv.FormatUint(usedCount(e), 10)
			if e.files {
				idx := "N/A"
				if used := e.usedIndex(); len(used) > 0 {
					idx = indexRanges(used)
				}
				s += "(IDX:" + idx + ")"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ",")
}

// usedIndex is the device indices of e in use, ascending.
func (e *gresEntry) usedIndex() []uint32 {
	var out []uint32
	for d, u := range e.used {
		if u {
			out = append(out, e.first+uint32(d))
		}
	}
	return out
}

// indexRanges is device indices as Slurm's bit_fmt prints a bitmap: ascending, runs as
// "a-b", joined by commas ("0-1,3").
func indexRanges(idx []uint32) string {
	idx = slices.Clone(idx)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatUint(uint64(idx[i]), 10))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.FormatUint(uint64(idx[j]), 10))
		}
		i = j + 1
	}
	return b.String()
}

// gresSplit is what a job holds on one node, split among its --gres requests as Slurm
// keeps one allocation per request: typed requests take the devices of their type first,
// then untyped ones the rest of their name (TakeGres's order). Each element is the devices
// of req[i], and whether the devices have files (gres.conf File=: Slurm's bitmaps).
func (c *Controller) gresSplit(node string, req []jobspec.GresReq, takes []gresTake) (idx [][]uint32, files []bool) {
	pool := map[[2]string][]uint32{}
	var order [][2]string
	for _, tk := range takes {
		k := [2]string{tk.Name, tk.Type}
		if _, ok := pool[k]; !ok {
			order = append(order, k)
		}
		pool[k] = append(pool[k], tk.Index...)
	}
	idx = make([][]uint32, len(req))
	files = make([]bool, len(req))
	for pass := 0; pass < 2; pass++ {
		for i, r := range req {
			if (r.Type == "") != (pass == 1) {
				continue
			}
			left := r.Count
			for _, k := range order {
				if left == 0 {
					break
				}
				if k[0] != r.Name || (r.Type != "" && k[1] != r.Type) || len(pool[k]) == 0 {
					continue
				}
				m := min(uint64(len(pool[k])), left)
				idx[i] = append(idx[i], pool[k][:m]...)
				pool[k] = pool[k][m:]
				left -= m
				files[i] = files[i] || c.gresHasFiles(node, k[0], k[1])
			}
		}
	}
	return idx, files
}

// jobGresDetail is scontrol -d's JOB_GRES= and each node's GRES= for a job holding GRES, as
// Slurm's gres_ctld_job_build_details writes them: per request "gpu:2(IDX:0-1)" on each node
// and "gpu:4" in all; a GRES without device files has no device bitmap in Slurm and is left
// out of both.
func (c *Controller) jobGresDetail(j *jobRecord) (total string, detail []string) {
	if len(j.GresAlloc) == 0 || len(j.Gres) == 0 {
		return "", nil
	}
	detail = make([]string, len(j.Nodes))
	sums := make([]uint64, len(j.Gres))
	shown := make([]bool, len(j.Gres))
	for i, node := range j.Nodes {
		if i >= len(j.GresAlloc) {
			break
		}
		idx, files := c.gresSplit(node, j.Gres, j.GresAlloc[i])
		var parts []string
		for r, req := range j.Gres {
			if !files[r] {
				continue
			}
			shown[r] = true
			sums[r] += uint64(len(idx[r]))
			parts = append(parts, gresReqName(req)+":"+strconv.Itoa(len(idx[r]))+"(IDX:"+indexRanges(idx[r])+")")
		}
		detail[i] = strings.Join(parts, ",")
	}
	var tot []string
	for r, req := range j.Gres {
		if shown[r] {
			tot = append(tot, gresReqName(req)+":"+strconv.FormatUint(sums[r], 10))
		}
	}
	return strings.Join(tot, ","), detail
}

// gresReqName is "name" or "name:type".
func gresReqName(r jobspec.GresReq) string {
	if r.Type != "" {
		return r.Name + ":" + r.Type
	}
	return r.Name
}

// stepGres checks a step's --gres (spec) against what job j holds on each of the step's
// nodes and picks the step's GPUs there, as Slurm's step_create does: no --gres copies the
// job's per-node GRES to the step (22.05's _copy_job_tres_to_step), "none" asks for none,
// and a request the job cannot serve — a GRES the job has not, more than the job's per-node
// count, more than it holds on a node — is ESLURM_INVALID_GRES (srun: "Unable to create
// step for job N: Invalid generic resource (gres) specification", exit 1). gpus[i] is the
// GPU devices with device files the step gets on nodes[i] ("0,1", "" none). why says what
// failed, for the log (Slurm's err_msg, which srun does not print).
func (c *Controller) stepGres(j *jobRecord, nodes []string, spec string) (gpus []string, why string, err error) {
	if strings.EqualFold(spec, "none") {
		return nil, "", nil
	}
	req := j.Gres
	if spec != "" {
		parsed, perr := jobspec.ParseGres(spec)
		if perr == nil {
			perr = jobspec.CheckGresNames(parsed, c.config().GresTypes)
		}
		if perr != nil {
			return nil, perr.Error(), slurmErr(errnoInvalidGres)
		}
		if len(parsed) > 0 && len(j.Gres) == 0 {
			return nil, "Step requested GRES but job doesn't have GRES", slurmErr(errnoInvalidGres)
		}
		for _, s := range parsed {
			var job *jobspec.GresReq
			for i := range j.Gres {
				if g := &j.Gres[i]; g.Name == s.Name && (s.Type == "" || g.Type == s.Type) {
					job = g
					break
				}
			}
			if job == nil {
				return nil, "Step requested GRES (" + s.Name + ":" + s.Type + ") not found in the job", slurmErr(errnoInvalidGres)
			}
			if job.Count < s.Count {
				return nil, "Step requested gres_per_node=" + s.Name + ":" + strconv.FormatUint(s.Count, 10) +
					" is more than the job's gres_per_node=" + job.Name + ":" + strconv.FormatUint(job.Count, 10), slurmErr(errnoInvalidGres)
			}
		}
		req = parsed
	}
	if len(req) == 0 {
		return nil, "", nil
	}
	sreq := make([]scheduler.Gres, len(req))
	for i, r := range req {
		sreq[i] = scheduler.Gres{Name: r.Name, Type: r.Type, Count: r.Count}
	}
	gpus = make([]string, len(nodes))
	for i, node := range nodes {
		k := slices.Index(j.Nodes, node)
		if k < 0 || k >= len(j.GresAlloc) {
			return nil, "no GRES held on node " + node, slurmErr(errnoInvalidGres)
		}
		held := j.GresAlloc[k]
		pool := make([]scheduler.Gres, len(held))
		for e, tk := range held {
			pool[e] = scheduler.Gres{Name: tk.Name, Type: tk.Type, Count: uint64(len(tk.Index))}
		}
		counts, ok := selection.TakeGres(pool, nil, sreq)
		if !ok {
			return nil, "job's GRES on node " + node + " cannot serve " + spec, slurmErr(errnoInvalidGres)
		}
		var idx []uint32
		for _, cnt := range counts {
			if cnt.Name != "gpu" || !c.gresHasFiles(node, cnt.Name, cnt.Type) {
				continue
			}
			for _, tk := range held {
				if tk.Name == cnt.Name && tk.Type == cnt.Type {
					idx = append(idx, tk.Index[:min(uint64(len(tk.Index)), cnt.Count)]...)
					break
				}
			}
		}
		slices.Sort(idx)
		var s []string
		for _, d := range idx {
			s = append(s, strconv.FormatUint(uint64(d), 10))
		}
		gpus[i] = strings.Join(s, ",")
	}
	if strings.Join(gpus, "") == "" {
		gpus = nil // no GPU devices: nothing for the step's environment
	}
	return gpus, "", nil
}

// gresHasFiles says gres.conf names device files for node's GRES name of type typ.
func (c *Controller) gresHasFiles(node, name, typ string) bool {
	n := c.t.nodes[node]
	if n == nil {
		return false
	}
	for _, e := range n.gres {
		if e.name == name && e.typ == typ {
			return e.files
		}
	}
	return false
}

// reconfGres applies a reconfigure's GRES, as Slurm 22.05 ends up with once its slurmds
// have re-read gres.conf and registered again: every node gets the GRES the new Gres= and
// gres.conf configure, and the devices running jobs hold stay held (a device that no longer
// exists is simply not held). GresTypes keeps its running value, as gres_reconfig does
// ("GresPlugins changed from %s to %s ignored"; "Restart the slurmctld daemon to change
// GresPlugins"), without failing the request. Called with c.mu held, after reconfNodes.
func (t *tables) reconfGres(old, next *conf.Config, logErr func(string, ...any)) {
	if old.GresTypes != next.GresTypes {
		logErr("GresPlugins changed from " + old.GresTypes + " to " + next.GresTypes + " ignored; restart the slurmctld daemon to change GresPlugins")
		next.GresTypes = old.GresTypes
		if v, ok := old.Raw["GresTypes"]; ok {
			next.Raw["GresTypes"] = v
		} else {
			delete(next.Raw, "GresTypes")
		}
	}
	for _, name := range t.nodeOrder {
		if n := t.nodes[name]; n != nil {
			n.gres = newNodeGres(next, n.conf)
		}
	}
	for _, j := range t.jobs {
		if !j.countsOnNodes() {
			continue
		}
		for i, name := range j.Nodes {
			if n := t.nodes[name]; n != nil && i < len(j.GresAlloc) {
				n.holdGres(j.GresAlloc[i], true)
			}
		}
	}
}

// nodeGresShown is a registered node's Gres= as Slurm rebuilds it once slurmd has
// registered (_build_node_gres_str): GresTypes order, counts from slurm.conf and gres.conf
// ("Gres=gpu" with two device files shows gpu:2), typed GRES by type, counts that are
// multiples of 1024 with Slurm's K/M/G/T/P suffix, GRES the node has none of left out.
// Orbit keeps no Cores= binding, so no "(S:...)" part is added.
func nodeGresShown(gresTypes string, entries []gresEntry) string {
	var parts []string
	for _, name := range strings.Split(gresTypes, ",") {
		name = strings.TrimSpace(name)
		var mine []*gresEntry
		typed := false
		var sum uint64
		for i := range entries {
			if e := &entries[i]; e.name == name && e.count > 0 {
				mine = append(mine, e)
				typed = typed || e.typ != ""
				sum += e.count
			}
		}
		switch {
		case len(mine) == 0:
		case !typed:
			parts = append(parts, name+":"+gresCountSuffix(sum))
		default:
			for _, e := range mine {
				s := name + ":"
				if e.typ != "" {
					s += e.typ + ":"
				}
				parts = append(parts, s+gresCountSuffix(e.count))
			}
		}
	}
	return strings.Join(parts, ",")
}

// gresCountSuffix is a GRES count as Slurm's _get_suffix writes it: the largest power of
// 1024 it is a multiple of becomes K, M, G, T or P.
func gresCountSuffix(n uint64) string {
	if n != 0 {
		for i, suf := range []string{"P", "T", "G", "M", "K"} {
			unit := uint64(1) << (10 * (5 - i))
			if n%unit == 0 {
				return strconv.FormatUint(n/unit, 10) + suf
			}
		}
	}
	return strconv.FormatUint(n, 10)
}

// nodeGresText is what sinfo and scontrol show as the node's Gres=: slurm.conf's text
// until its slurmd has registered, then the string Slurm rebuilds from the counts.
func (c *Controller) nodeGresText(n *nodeEntry) string {
	types := c.config().GresTypes
	if n.rec.SlurmdStart == 0 || strings.TrimSpace(types) == "" {
		return n.conf.Gres
	}
	return nodeGresShown(types, n.gres)
}

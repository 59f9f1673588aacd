package ctld

import (
	"fmt"
	"slices"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// Record kinds and counters in the store.
const (
	kindJob         = "job"
	kindNode        = "node"
	counterNextJob  = "next_job_id"
	maxPriorityBase = 0xffff0000 // priority/basic counts down from here, as Slurm does
)

// jobRecord is one job as the controller keeps it and stores it (wire.Marshal under kind
// "job"). Installed records are immutable: a change builds a new record (copy, then set), so a
// reader holding one under the read lock never sees it move.
type jobRecord struct {
	// Fields are ordered to pack the struct without padding (a record per queued job; the
	// store's encoding orders keys by name, not by declaration).
	JobID   uint32 `codec:"job_id"`
	UserID  uint32 `codec:"user_id"`
	GroupID uint32 `codec:"group_id"`
	// ScriptID names the store row holding a batch job's script and environment
	// (job_record_script.go): the job's own id, or its array's id for every task of an array.
	// 0 for an interactive allocation, and for records saved before scripts left memory
	// (their Desc still carries the script).
	ScriptID uint32 `codec:"script_id"`
	// desc is the request as submitted, packed (job_record_desc.go): Desc unpacks it, and a
	// change goes through setDesc or editDesc. Like the record, it is never modified once
	// installed: clones and array tasks share it. The store keeps it as the "desc" key
	// (storedJob).
	desc      packedDesc
	Partition string `codec:"partition"`
	State     uint32 `codec:"state"`  // states.JobState
	Reason    uint32 `codec:"reason"` // states.Reason; pending reasons are refreshed in memory
	Priority  uint32 `codec:"priority"`
	// Resolved request: defaults applied at submit.
	TimeLimit   uint32 `codec:"time_limit"` // minutes, wire.Infinite = none
	MinNodes    uint32 `codec:"min_nodes"`
	MaxNodes    uint32 `codec:"max_nodes"` // 0 = no maximum
	NumTasks    uint32 `codec:"num_tasks"`
	CPUsPerTask uint32 `codec:"cpus_per_task"`
	TasksPerNod uint32 `codec:"ntasks_per_node"` // 0 = not given
	Exclusive   bool   `codec:"exclusive"`
	// MemWholeNode: the job asked for no memory, none applied by default, and memory is a
	// consumable resource, so it needs a whole node's memory (Slurm's select plugin gives it
	// all of a node with none allocated); MemPerNode then holds the smallest RealMemory of
	// its partition's nodes, which the scheduler counts, while the job shows no request.
	MemWholeNode bool `codec:"mem_whole_node"`
	// Backfilled: the backfill pass started the job's current run (Scheduler=Backfill).
	Backfilled bool `codec:"backfilled"`
	// Magnetic: the job named no reservation and its current run was drawn into a magnetic
	// one (resv_magnetic.go), which a requeue forgets, as Slurm clears JOB_MAGNETIC.
	Magnetic  bool `codec:"magnetic,omitempty"`
	AdminHold bool `codec:"admin_hold"` // held by an operator (JobHeldAdmin) (job_update.go)
	// PrioritySet says an administrator set Priority (scontrol update Priority=): recomputation
	// leaves it alone, across restarts too (Slurm's direct_set_prio, saved with the job).
	PrioritySet bool   `codec:"priority_set"`
	MemPerNode  uint64 `codec:"mem_per_node"` // MiB requested per node, 0 = none
	MemPerCPU   uint64 `codec:"mem_per_cpu"`  // MiB requested per CPU, 0 = none
	// Times, Unix seconds.
	SubmitTime   int64 `codec:"submit_time"`
	EligibleTime int64 `codec:"eligible_time"`
	StartTime    int64 `codec:"start_time"`
	EndTime      int64 `codec:"end_time"`
	// Allocation.
	Nodes       []string `codec:"nodes"`
	CPUsPerNode []uint32 `codec:"cpus_per_node"`
	MemAlloc    uint64   `codec:"mem_alloc"` // MiB per node counted against nodes (memory tracked only)
	ExitCode    uint32   `codec:"exit_code"` // wait(2) status of the batch script
	Restarts    uint32   `codec:"restarts"`
	// WarnSentRun is Restarts+1 of the run that was sent its --signal warning
	// (job_warn_signal.go), 0 = never: Slurm's WARN_SENT, saved with the job and cleared by a
	// requeue, which starts a new run.
	WarnSentRun uint32 `codec:"warn_sent_run"`
	// Arrays (job_array.go): the array's own record carries the indices not yet started;
	// each task that starts is split off with its own job id.
	ArrayThrottle uint32   `codec:"array_throttle"` // %N: most tasks running at once, 0 = no limit
	ArrayJobID    uint32   `codec:"array_job_id"`   // 0 = not part of an array
	ArrayTaskID   uint32   `codec:"array_task_id"`  // the task's index; unused while ArrayPending is set
	ArrayPending  []uint32 `codec:"array_pending"`  // indices not yet started, ascending
	ArrayEnv      []uint32 `codec:"array_env"`      // SLURM_ARRAY_TASK_COUNT, MIN, MAX, STEP
	StateDesc     string   `codec:"state_desc"`     // shown instead of the reason while held (node_drain.go)
	// Suspension (job_suspend.go): when the job was last suspended or resumed, and the
	// seconds it ran before its current suspension.
	SuspendTime int64 `codec:"suspend_time"`
	PreSusTime  int64 `codec:"pre_sus_time"`
	// PreemptSuspended: preemption suspended the job (preempt.go). Its nodes are left to
	// the job that preempted it, and it is resumed once they are free again (Slurm's gang
	// scheduler).
	PreemptSuspended bool `codec:"preempt_suspended,omitempty"`
	// PreemptTime is when preemption acted on the job's current run outside GANG (Slurm's
	// preempt_time), 0 = never.
	PreemptTime int64 `codec:"preempt_time,omitempty"`
	// Gres is the job's --gres per node, parsed at submit (gres.go); GresAlloc, while it
	// holds nodes, the devices it holds on Nodes[i].
	Gres      []jobspec.GresReq `codec:"gres"`
	GresAlloc [][]gresTake      `codec:"gres_alloc"`
	// BatchNode is, for a job with sbatch --batch, the node of its allocation that runs the
	// batch script (pickBatchNode, when it starts); "" is its first node.
	BatchNode string `codec:"batch_node,omitempty"`
	// ResizeTime is when scontrol update NumNodes= last shrank the running job (job_resize.go).
	ResizeTime int64 `codec:"resize_time,omitempty"`
}

func (j *jobRecord) state() states.JobState { return states.JobState(j.State) }

// holdsNodes says whether the job's allocation counts against its nodes: while it runs and
// while it completes (its nodes have not confirmed the end yet).
func (j *jobRecord) holdsNodes() bool {
	s := j.state()
	return len(j.Nodes) > 0 && (s.IsRunning() || s.IsSuspended() || s.IsCompleting())
}

// clone returns a copy that a change may modify before installing it. The copy shares
// the packed description: a change to that goes through setDesc or editDesc.
func (j *jobRecord) clone() *jobRecord {
	c := *j
	return &c
}

// storedJob is a job record as the store keeps it (wire.Marshal under kind "job"): the
// record's fields, and its description whole under "desc".
type storedJob struct {
	jobRecord
	Desc *wire.JobDesc `codec:"desc"`
}

// decodeJob decodes a stored job record. A record without a description (damaged, or
// written by hand) gets an empty one.
func decodeJob(v []byte) (*jobRecord, error) {
	s := new(storedJob)
	if err := wire.Unmarshal(v, s); err != nil {
		return nil, err
	}
	j := &s.jobRecord
	if s.Desc != nil {
		j.desc = packDesc(s.Desc)
	}
	return j, nil
}

func (j *jobRecord) numCPUs() uint32 {
	var n uint32
	for _, c := range j.CPUsPerNode {
		n += c
	}
	return n
}

// batchHost is the first node of the allocation, where the batch script runs.
func (j *jobRecord) batchHost() string {
	if len(j.Nodes) == 0 {
		return ""
	}
	if j.BatchNode != "" {
		return j.BatchNode // sbatch --batch's pick (batch_host.go)
	}
	return j.Nodes[0]
}

// minCPUsPerNode is the CPUs the job needs on each node it runs on (Slurm's pn_min_cpus):
// one task's CPUs as submitted times --ntasks-per-node, at least --mincpus. (A memory limit
// that raises cpus-per-task later raises --mincpus itself where Slurm does: job_memory.go.)
func (j *jobRecord) minCPUsPerNode() uint32 {
	cpt := uint32(j.descUint(descCPUsPerTask))
	if cpt == wire.NoVal || cpt == 0 {
		cpt = 1
	}
	return max(cpt*max(j.TasksPerNod, 1), uint32(j.descUint(descMinCPUs)), 1)
}

func jobKey(id uint32) string { return fmt.Sprintf("%010d", id) }

// nodeRecord is the durable part of a node (kind "node"): what must survive a controller
// restart. Allocation is not stored: it follows from the running jobs.
type nodeRecord struct {
	Name        string `codec:"name"`
	State       uint32 `codec:"state"` // base NodeUnknown, NodeDown or NodeIdle, plus NodeDrain
	Reason      string `codec:"reason"`
	ReasonTime  int64  `codec:"reason_time"`
	ReasonUID   uint32 `codec:"reason_uid"`
	Addr        string `codec:"addr"`
	BootTime    int64  `codec:"boot_time"`
	SlurmdStart int64  `codec:"slurmd_start"`
	Version     string `codec:"version"`
	Arch        string `codec:"arch"` // what slurmd reported at registration (node_registration.go)
	OS          string `codec:"os"`
	// What operators changed (scontrol update NodeName=..., node_features.go): where the
	// *Set flags say so, Features, ActiveFeatures and Weight stand for slurm.conf's until
	// scontrol reconfigure; Comment and Extra stay until changed again.
	// The lists are kept comma-separated, so that records compare with ==.
	Features       string `codec:"features,omitempty"`
	FeaturesSet    bool   `codec:"features_set,omitempty"`
	ActiveFeatures string `codec:"active_features,omitempty"`
	ActiveSet      bool   `codec:"active_set,omitempty"`
	Weight         uint32 `codec:"weight,omitempty"`
	WeightSet      bool   `codec:"weight_set,omitempty"`
	Comment        string `codec:"comment,omitempty"`
	Extra          string `codec:"extra,omitempty"`
}

// nodeEntry is one node in memory: its configuration, its durable record and what the
// controller derives at run time (allocation, contact).
type nodeEntry struct {
	conf  *conf.Node
	rec   nodeRecord
	order int // position in the configuration (tables.nodeOrder)
	// Derived from the jobs holding the node.
	allocCPUs uint32
	allocMem  uint64
	partCPUs  map[string]uint32 // CPUs held by each partition's jobs (MaxCPUsPerNode)
	exclusive int               // jobs holding it with --exclusive, not sharing CPUs
	// share is, for each partition whose jobs share CPUs here, the CPUs each of its rows
	// holds; shareJobs the jobs sharing, shareCPUs the fullest row's CPUs (select_share.go).
	share     map[string][]uint32
	shareJobs int
	shareCPUs uint32
	jobs      int      // jobs holding it
	users     []uint32 // the user of each job holding it (select_user.go)
	ownerJobs int      // of which keeping it to their user, owner
	owner     uint32
	// gres is the node's GRES with the devices in use (gres.go), kept by hold and release.
	gres []gresEntry
	// Run-time health, memory only.
	noRespond   bool
	lastContact int64
	lastBusy    int64
	load        wire.HostLoad // the latest the node reported (registration, ping)
}

func (n *nodeEntry) cpus() uint32 { return uint32(n.conf.CPUs) }

// holdPartCPUs counts delta CPUs held on n by a job of partition part.
func (n *nodeEntry) holdPartCPUs(part string, delta int64) {
	if n.partCPUs == nil {
		n.partCPUs = map[string]uint32{}
	}
	if v := int64(n.partCPUs[part]) + delta; v > 0 {
		n.partCPUs[part] = uint32(v)
	} else {
		delete(n.partCPUs, part)
	}
}

// partRoom is the CPUs jobs of partition p may still take on n (its MaxCPUsPerNode less
// what they hold there), or n's CPUs when p has no such limit.
func (n *nodeEntry) partRoom(p *partEntry) uint32 {
	limit := p.conf.MaxCPUsPerNode
	if limit == 0 || limit == wire.Infinite {
		return n.cpus()
	}
	return limit - min(n.partCPUs[p.conf.Name], limit)
}

// usable says whether the scheduler may place new work on the node.
func (n *nodeEntry) usable() bool {
	s := states.NodeState(n.rec.State)
	return s.Base() == states.NodeIdle && !s.Has(states.NodeDrain) && !n.noRespond
}

// displayState is the node's state as sinfo and scontrol show it.
func (n *nodeEntry) displayState() states.NodeState {
	s := states.NodeState(n.rec.State)
	if s.Base() == states.NodeIdle && n.jobs > 0 {
		base := states.NodeMixed
		if n.busyCPUs() >= n.cpus() {
			base = states.NodeAllocated
		}
		s = (s &^ states.NodeStateBase) | base
	}
	if n.noRespond {
		s |= states.NodeNoRespond
	}
	return s
}

// partEntry is one partition in memory.
type partEntry struct {
	conf  *conf.Partition
	nodes []string // in configuration order
	cpus  uint32
	// maxNodeCPUs is the most CPUs any of its nodes has: Slurm's part max_cpu_cnt, from which
	// it guesses a pending job's node count (pendingNodeCount, job_info.go).
	maxNodeCPUs uint32
	// base is slurm.conf's partition when an update laid override over it (partition_update.go).
	base     *conf.Partition
	override partRecord
}

// tables are the controller's in-memory state, guarded by Controller.mu.
type tables struct {
	jobs map[uint32]*jobRecord
	// live holds the ids of the jobs a scheduling cycle looks at: pending, running,
	// suspended or completing. The finished ones MinJobAge keeps (thousands at a high job
	// rate) are skipped by every cycle (job_live.go).
	live      map[uint32]struct{}
	nodes     map[string]*nodeEntry
	nodeOrder []string
	parts     map[string]*partEntry
	partOrder []string
	defPart   string
	nextJobID uint32
	lowPrio   uint32    // the last priority handed out (priority/basic counts down)
	counts    jobCounts // sdiag's job counts, kept by installJob and removeJob (job_counts.go)
	// scriptRefs counts, per shared script row, the array records using it
	// (job_record_script.go).
	scriptRefs map[uint32]uint32
	// wholeCores: a job's CPUs on a node are the whole cores it takes (CR_Core, CR_Socket;
	// select_cores.go). SelectTypeParameters change only with a restart.
	wholeCores bool
	// sharesAtAll: the select plugin lets jobs share CPUs (select/cons_tres counting CPUs;
	// select_share.go); shareRow is the row each job sharing CPUs holds them in.
	sharesAtAll bool
	shareRow    map[uint32]int
	// resvs are the advance reservations by name (resv_record.go); resvSeq numbers the next
	// one's creation, resvSuffix is the last N of a generated name.
	resvs      map[string]*resvRecord
	resvSeq    uint64
	resvSuffix uint32
}

func newTables(cfg *conf.Config) *tables {
	t := &tables{
		jobs:       map[uint32]*jobRecord{},
		live:       map[uint32]struct{}{},
		nodes:      map[string]*nodeEntry{},
		parts:      map[string]*partEntry{},
		lowPrio:    maxPriorityBase,
		scriptRefs: map[uint32]uint32{},
	}
	mode := selection.ParseMode(cfg.SelectType, cfg.CtldSelectTypeParameters())
	t.wholeCores, t.sharesAtAll = mode.WholeCores, mode.CPUs && !mode.WholeNode
	for _, n := range cfg.Nodes {
		st := states.NodeUnknown
		e := &nodeEntry{conf: n, rec: nodeRecord{Name: n.Name}, gres: newNodeGres(cfg, n)}
		if ns, ok := states.ParseNodeState(n.State); ok && n.State != "" {
			switch ns.Base() {
			case states.NodeDown:
				st = states.NodeDown
				e.rec.Reason = n.Reason
			case states.NodeFuture:
				st = states.NodeFuture
			}
			if ns.Has(states.NodeDrain) {
				st |= states.NodeDrain
				e.rec.Reason = n.Reason
			}
		}
		e.rec.State = uint32(st)
		e.order = len(t.nodeOrder)
		t.nodes[n.Name] = e
		t.nodeOrder = append(t.nodeOrder, n.Name)
	}
	for _, d := range cfg.DownNodes {
		for _, name := range d.Nodes {
			if e := t.nodes[name]; e != nil {
				e.rec.State = uint32(states.NodeDown)
				e.rec.Reason = d.Reason
			}
		}
	}
	for _, p := range cfg.Partitions {
		t.addPart(p, false)
	}
	return t
}

// setPartNodes gives p the nodes of names that exist, in that order, and the CPU figures
// derived from them.
func (t *tables) setPartNodes(p *partEntry, names []string) {
	p.nodes, p.cpus, p.maxNodeCPUs = nil, 0, 0
	for _, name := range names {
		if e := t.nodes[name]; e != nil {
			p.nodes = append(p.nodes, name)
			p.cpus += e.cpus()
			p.maxNodeCPUs = max(p.maxNodeCPUs, e.cpus())
		}
	}
}

// install puts a job record into the tables, moving its node allocation from the old
// record's to the new one's.
func (t *tables) installJob(j *jobRecord) {
	old := t.jobs[j.JobID]
	if old != nil {
		t.release(old)
		t.countScriptRef(old, -1)
	}
	t.counts.change(old, j)
	t.jobs[j.JobID] = j
	t.markLive(j)
	t.hold(j)
	t.countScriptRef(j, +1)
	if j.JobID >= t.nextJobID {
		t.nextJobID = j.JobID + 1
	}
	// A priority an operator set (sbatch --priority, scontrol update Priority=) does not move
	// the basic counter: Slurm's lowest_prio ignores direct_set_prio jobs, so the next
	// submit still gets the next value down from the last computed one.
	if j.Priority > 0 && j.Priority < t.lowPrio && !j.PrioritySet {
		t.lowPrio = j.Priority
	}
}

func (t *tables) removeJob(id uint32) {
	if old := t.jobs[id]; old != nil {
		t.release(old)
		t.countScriptRef(old, -1)
		t.counts.change(old, nil)
		delete(t.jobs, id)
		delete(t.live, id)
	}
}

// countsOnNodes says whether the job's allocation is counted against its nodes: while it
// holds them, unless preemption suspended it (its preemptor uses them).
func (j *jobRecord) countsOnNodes() bool {
	return j.holdsNodes() && !(j.PreemptSuspended && j.state().IsSuspended())
}

func (t *tables) hold(j *jobRecord) {
	if !j.countsOnNodes() {
		return
	}
	shares := t.sharesCPUs(j, j.Partition)
	if shares {
		t.holdShared(j, 1) // select_share.go
	}
	for i, name := range j.Nodes {
		n := t.nodes[name]
		if n == nil {
			continue
		}
		held := t.heldOn(j, n, j.CPUsPerNode[i])
		if !shares {
			n.allocCPUs += held
		}
		n.holdPartCPUs(j.Partition, int64(held))
		n.allocMem += j.MemAlloc
		n.jobs++
		if j.Exclusive && !shares {
			n.exclusive++
		}
		t.holdUser(n, j, 1)
		if i < len(j.GresAlloc) {
			n.holdGres(j.GresAlloc[i], true)
		}
	}
}

func (t *tables) release(j *jobRecord) {
	if !j.countsOnNodes() {
		return
	}
	_, shares := t.shareRow[j.JobID]
	if shares {
		t.holdShared(j, -1)
	}
	for i, name := range j.Nodes {
		n := t.nodes[name]
		if n == nil {
			continue
		}
		held := t.heldOn(j, n, j.CPUsPerNode[i])
		if !shares {
			n.allocCPUs -= min(n.allocCPUs, held)
		}
		n.holdPartCPUs(j.Partition, -int64(held))
		n.allocMem -= min(n.allocMem, j.MemAlloc)
		n.jobs--
		if j.Exclusive && !shares {
			n.exclusive--
		}
		t.holdUser(n, j, -1)
		if i < len(j.GresAlloc) {
			n.holdGres(j.GresAlloc[i], false)
		}
	}
}

// sortedJobIDs returns the job ids in increasing order.
func (t *tables) sortedJobIDs() []uint32 {
	ids := make([]uint32, 0, len(t.jobs))
	for id := range t.jobs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

package ctld

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleSubmitBatchJob serves MsgSubmitBatchJob (sbatch): authenticate → validate → default →
// apply → wait until durable → reply with the job id.
func (c *Controller) handleSubmitBatchJob(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	d := req.Body.(*wire.JobDesc)
	d.AllocNode = c.allocNode(ctx, req, d.SubmitHost) // alloc_node.go
	now := c.now().Unix()
	j, err := c.newJob(d, id, now)
	refusal := err
	if j == nil {
		return nil, err
	}
	if refusal != nil {
		refusedAtSubmit(j, now)
	}
	script := detachScript(j) // stored beside the record, not kept in memory (job_record_script.go)
	c.mu.Lock()
	j.JobID = c.t.nextJobID
	if j.ArrayPending != nil {
		j.ArrayJobID = j.JobID
	}
	if j.Priority != 0 && !c.operatorPriority(j, d, id) {
		j.Priority = c.submitPriority(j, now) // priority.go: basic or multifactor
	}
	p, err := c.apply(submitJob{job: j, script: script})
	c.mu.Unlock()
	if err != nil {
		c.log.Error("submit not applied", "err", err)
		return nil, wire.Errorf(wire.ErrnoSlurmError, "Unable to create job record, try again")
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	if refusal != nil {
		c.log.Info("job refused at submit", "job", j.JobID, "uid", j.UserID, "err", refusal)
		return nil, refusal
	}
	c.log.Info("job submitted", "job", j.JobID, "uid", j.UserID, "partition", j.Partition)
	if j.Priority != 0 {
		// A held job (priority 0) cannot start: it needs no cycle, its reason is set.
		c.wakeBatch()
	}
	return &wire.SubmitBatchJobReply{JobID: j.JobID}, nil
}

// operatorPriority applies sbatch --priority=N to a job that is not held, and says whether it
// did. As in Slurm 22.05 only an operator (root, SlurmUser) sets it, and it sticks like
// scontrol update Priority= (PrioritySet); anyone else's --priority is ignored silently
// (validate_job_create_req). 0 is left alone: a JobDesc built in code carries 0 for "not
// given", so sbatch's -H is what holds a job here (Slurm also holds on --priority=0).
func (c *Controller) operatorPriority(j *jobRecord, d *wire.JobDesc, id *wire.Identity) bool {
	if d.Priority == wire.NoVal || d.Priority == 0 || !c.privileged(id) {
		return false
	}
	j.Priority, j.PrioritySet = d.Priority, true
	return true
}

// durabilityError is the reply when a change could not be confirmed durable. The change may
// still be durable (store.ErrOutcomeUnknown), so the reply never claims it failed for sure.
func durabilityError(err error) error {
	if errors.Is(err, store.ErrOutcomeUnknown) {
		return wire.Errorf(wire.ErrnoSocketTimeout, "Socket timed out on send/recv operation")
	}
	return wire.Errorf(wire.ErrnoSlurmError, "Unable to save job state: %v", err)
}

// newJob validates d and fills in its defaults (partition, node and task counts, time
// limit), the way Slurm's job_create does. It reads only the configuration, under the read
// lock: reconfigure (reconfigure.go) replaces partitions and node definitions. A job with an
// error is returned only for a refusal Slurm records as a failed job (refusedAtSubmit).
func (c *Controller) newJob(d *wire.JobDesc, id *wire.Identity, now int64) (*jobRecord, error) {
	if strings.TrimSpace(d.Script) == "" {
		return nil, slurmErr(errnoScriptMissing)
	}
	owner, err := c.jobOwner(d, id) // job_owner.go: --uid, --gid
	if err != nil {
		return nil, err
	}
	if d.Reboot && !c.privileged(id) {
		e := slurmErr(errnoAccessDenied) // validate_job_create_req, before any other check
		e.UserMsg = "rebooting of nodes is only allowed for admins"
		return nil, e
	}
	// What may reach the accounting database is lower case (Slurm's validate_job_create_req):
	// --account=MY_ACCT is the job's my_acct.
	d.Account, d.WCKey = strings.ToLower(d.Account), strings.ToLower(d.WCKey)
	c.mu.RLock()
	groups := c.t.partGroupNames()
	c.mu.RUnlock()
	if len(groups) > 0 && !c.slurmUser(owner.UID) {
		c.groups.load(owner.UID, groups, time.Unix(now, 0)) // part_access_groups.go, outside the lock
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	t := c.t
	partName := d.Partition
	if partName == "" {
		if t.defPart == "" {
			return nil, slurmErr(errnoDefaultPartNotSet)
		}
		partName = t.defPart
	}
	// Several partitions ("-p a,b"): every one must exist. As in Slurm, the job keeps them
	// in the order they are tried, higher PriorityTier first (as named among equals), and
	// is checked against the first.
	names := strings.Split(partName, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if t.parts[names[i]] == nil {
			e := slurmErr(errnoInvalidPartitionName)
			e.UserMsg = "invalid partition specified: " + names[i]
			return nil, e
		}
	}
	if len(names) > 1 {
		slices.SortStableFunc(names, func(a, b string) int {
			return cmp.Compare(t.parts[b].conf.PriorityTier, t.parts[a].conf.PriorityTier)
		})
		partName = strings.Join(names, ",")
	}
	part := t.parts[names[0]]

	// The record's own description, with the defaults Slurm records in it.
	own := *d
	own.Partition = partName
	if d.Deadline != 0 && d.TimeLimit == wire.NoVal && d.TimeMin == wire.NoVal {
		own.TimeMin = 1 // Slurm's default, so the scheduler can judge the deadline
	}
	j := &jobRecord{
		UserID:     owner.UID,
		GroupID:    owner.GID,
		desc:       packDesc(&own),
		Partition:  part.conf.Name,
		State:      uint32(states.JobPending),
		Reason:     uint32(states.WaitNoReason),
		Priority:   1, // replaced by the handler under the lock
		SubmitTime: now,
	}

	if d.MinNodes == 0 && (d.MaxNodes == 0 || d.MaxNodes == wire.NoVal) && !d.Hold {
		// -N 0: Slurm allows a zero-node job only to stage a burst buffer, which Orbit has
		// not; its submit-time node selection refuses it, which a held job skips. (Its
		// --test-only answers with a start "using 0 processors": job_will_run.go.)
		return nil, slurmErr(errnoInvalidNodeCount)
	}
	j.MinNodes = d.MinNodes
	if j.MinNodes == wire.NoVal || j.MinNodes == 0 {
		j.MinNodes = 1
	}
	j.MaxNodes = d.MaxNodes
	if j.MaxNodes == wire.NoVal || j.MaxNodes == wire.Infinite {
		j.MaxNodes = 0
	}
	if j.MaxNodes != 0 && j.MaxNodes < j.MinNodes {
		return nil, slurmErr(errnoInvalidNodeCount)
	}
	if d.ReqNodes != "" {
		req, err := hostlist.Expand(d.ReqNodes)
		if err != nil {
			return nil, slurmErr(errnoInvalidNodeName)
		}
		for _, n := range req {
			if t.nodes[n] == nil {
				return nil, slurmErr(errnoInvalidNodeName)
			}
			if !inList(part.nodes, n) {
				return nil, slurmErr(errnoNodesNotInPartition)
			}
		}
		if d.Contiguous {
			// --contiguous fills the gaps between the named nodes (Slurm's bit_fill_gaps):
			// those are required too, and more than the maximum is an invalid count. The
			// filled list is stored, so ReqNodeList shows n[1-3] where Slurm keeps the
			// given n[1,3] (its bitmap and its string part ways; Orbit keeps one).
			if req = t.fillGaps(req); j.MaxNodes != 0 && uint32(len(req)) > j.MaxNodes {
				return nil, slurmErr(errnoInvalidNodeCount)
			}
			own.ReqNodes = hostlist.Compress(req)
			j.desc = packDesc(&own)
		}
		if j.MaxNodes != 0 && uint32(len(req)) > j.MaxNodes {
			return nil, slurmErr(errnoNodeConfigUnavail)
		}
		j.MinNodes = max(j.MinNodes, uint32(len(req)))
	}
	if d.ExcNodes != "" {
		exc, err := hostlist.Expand(d.ExcNodes)
		if err != nil {
			return nil, slurmErr(errnoInvalidNodeName)
		}
		for _, n := range exc {
			if t.nodes[n] == nil || reqHas(d.ReqNodes, n) {
				return nil, slurmErr(errnoInvalidNodeName) // unknown, or also requested
			}
		}
	}
	j.CPUsPerTask = d.CPUsPerTask
	if j.CPUsPerTask == wire.NoVal || j.CPUsPerTask == 0 {
		j.CPUsPerTask = 1
	}
	if d.NTasksPerNode != wire.NoVal && d.NTasksPerNode != 0 {
		j.TasksPerNod = d.NTasksPerNode
	}
	j.NumTasks = d.NumTasks
	if j.NumTasks == wire.NoVal || j.NumTasks == 0 {
		j.NumTasks = j.MinNodes
		if j.TasksPerNod > 0 {
			j.NumTasks = j.MinNodes * j.TasksPerNod
		}
	}
	j.NumTasks = max(j.NumTasks, j.MinNodes)
	if d.SpreadJob && j.MaxNodes == 0 && d.NumTasks != wire.NoVal && d.NumTasks != 0 {
		// --spread-job without a node maximum: as many nodes as tasks, at most the
		// cluster's (Slurm's job_mgr sets max_nodes so; the selection then aims at it).
		j.MaxNodes = max(min(uint32(len(t.nodeOrder)), d.NumTasks), j.MinNodes)
	}
	if d.Overcommit {
		// -O: one task's CPUs on each node (Slurm sends min_cpus = the node count and lets the
		// tasks share them), so the job is placed as one task per node; requestedTasks and
		// the job's information still carry the tasks it asked for.
		j.NumTasks, j.TasksPerNod = j.MinNodes, 0
	}
	if err := c.checkSubmitParts(d, id, j, names, now); err != nil { // part_access.go
		return nil, err
	}
	if err := c.checkResvLicenses(d, j.UserID); err != nil { // job_submit_checks.go
		return nil, err
	}
	if err := t.checkBatchFeatures(d.BatchFeatures, d.Constraint); err != nil { // batch_host.go
		return nil, err
	}
	if err := t.checkFeatures(d.Constraint); err != nil {
		return nil, err
	}
	if err := t.checkFeatures(d.Prefer); err != nil {
		return nil, slurmErr(errnoInvalidPrefer) // the same test, for the features preferred
	}
	if err := t.parseJobGres(c.config(), d.Gres, j, part); err != nil { // gres.go
		return nil, err
	}
	if err := t.gpuRequests(d, j, part); err != nil { // gres_gpu.go
		return nil, err
	}
	j.Exclusive = jobspec.Shared(d.Shared) == jobspec.SharedNone || d.Reboot ||
		strings.EqualFold(part.conf.OverSubscribe, "EXCLUSIVE")

	// Memory: a request no node of the partition can hold is refused, the job recorded as a
	// failed one (refusedAtSubmit), as Slurm does.
	if d.MemPerNode != wire.NoVal64 && d.MemPerNode != 0 {
		j.MemPerNode = d.MemPerNode
	}
	if d.MemPerCPU != wire.NoVal64 && d.MemPerCPU != 0 {
		j.MemPerCPU = d.MemPerCPU
	}
	freq, _ := c.config().Get("JobAcctGatherFrequency")
	if err := checkAcctFreq(d.AcctgFreq, freq, memSet(d.MemPerCPU) || memSet(d.MemPerNode)); err != nil {
		return nil, err // job_acct_freq.go
	}
	if !c.applyMemLimits(j, part) && c.config().EnforcePartLimits != "NO" && (memSet(d.MemPerCPU) || memSet(d.MemPerNode)) {
		return nil, slurmErr(errnoInvalidTaskMemory) // job_memory.go
	}
	memRefused, tmpRefused := t.memUnholdable(j, part), t.tmpUnholdable(d.TmpDiskMB, part)

	j.TimeLimit = d.TimeLimit
	if j.TimeLimit == wire.NoVal {
		j.TimeLimit = part.conf.DefaultTime
		if j.TimeLimit == wire.NoVal {
			j.TimeLimit = part.conf.MaxTime
		}
	}
	if err := checkDeadline(d, now); err != nil { // job_deadline.go
		return nil, err
	}
	j.EligibleTime = now
	if d.BeginTime > now {
		j.EligibleTime = d.BeginTime
		j.Reason = uint32(states.WaitTime)
	}
	if d.Hold {
		j.Priority = 0
		j.Reason = uint32(states.WaitHeldUser)
	}
	if err := c.setArray(j); err != nil {
		return nil, err
	}
	if err := checkDependency(d.Dependency); err != nil {
		return nil, err
	}
	if j.Priority != 0 && d.Dependency != "" {
		// Slurm's job_independent runs at submit: squeue shows the wait at once.
		if r, _ := t.dependency(j, now); r != states.WaitNoReason {
			j.Reason = uint32(r)
		}
	}
	if !d.Hold && t.fitsEver(j, part) {
		if err := t.placeableEver(j, part); err != nil { // job_submit_checks.go
			return nil, err
		}
	}
	// Slurm finds these while placing the job, which it does not try for a held job: that
	// one is accepted, and pends with BadConstraints once released (partReason).
	if (memRefused || tmpRefused) && !d.Hold {
		e := memUnsatisfiable()
		if !memRefused {
			e.UserMsg = tmpUnsatisfiableMsg
		}
		if j.ArrayPending != nil {
			return nil, e // an array is refused without a record
		}
		return j, e
	}
	return j, nil
}

// refusedAtSubmit ends j as Slurm 22.05 ends a job whose memory request no node can hold:
// select_nodes finds it while the job already exists, so the job stays, FAILED with reason
// BadConstraints and ExitCode 0:1, started and ended at submit, listed by squeue -t all and
// sacct until MinJobAge, and the refusal uses up its job id.
func refusedAtSubmit(j *jobRecord, now int64) {
	j.State = uint32(states.JobFailed)
	j.Reason = uint32(states.FailBadConstraints)
	j.StartTime, j.EndTime = now, now
	j.ExitCode = 1 // signal 1 in wait(2) terms: "0:1"
}

// requestedTasks is the task count the job asked for, as Slurm's batch launch carries it
// (details->num_tasks): -n, or --ntasks-per-node times the nodes; 0 when it asked neither,
// for which the node derives SLURM_TASKS_PER_NODE from the CPUs and sets no SLURM_NTASKS.
// j.NumTasks, the count the scheduler places, is at least one per node.
func (j *jobRecord) requestedTasks() uint32 {
	if n := uint32(j.descUint(descNumTasks)); n != wire.NoVal && n != 0 {
		return n
	}
	if n := uint32(j.descUint(descNTasksPerNode)); n != wire.NoVal && n != 0 {
		return n * j.MinNodes
	}
	return 0
}

// allocTasks is requestedTasks once the job has nodes, as Slurm's build_node_details leaves
// details->num_tasks: with --ntasks-per-node, that many on every node the job got (a -N1-3
// --ntasks-per-node=2 job given two nodes has 4 tasks, -n3 --ntasks-per-node=2 has 4).
func (j *jobRecord) allocTasks() uint32 {
	if n := uint32(j.descUint(descNTasksPerNode)); n != wire.NoVal && n != 0 && len(j.Nodes) > 0 {
		return n * uint32(len(j.Nodes))
	}
	return j.requestedTasks()
}

// requestedCPUs is the CPU count a job without an allocation asks for, as Slurm shows it
// (NumCPUs=, TRES cpu=): its tasks' CPUs, or with -O the min_cpus sbatch sends, one per node.
func (j *jobRecord) requestedCPUs() uint32 {
	if j.descFlag(descOvercommit) {
		return max(j.MinNodes, 1)
	}
	return j.NumTasks * j.CPUsPerTask
}

// memPerNode is the memory (MiB) the job needs on a node given cpus CPUs there.
func (j *jobRecord) memPerNode(cpus uint32) uint64 {
	switch {
	case j.MemPerNode > 0:
		return j.MemPerNode
	case j.MemPerCPU > 0:
		return j.MemPerCPU * uint64(cpus)
	}
	return 0
}

func ceilDiv(a, b uint32) uint32 {
	if b == 0 {
		return a
	}
	return (a + b - 1) / b
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

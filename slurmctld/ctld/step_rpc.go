package ctld

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/store"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Steps and interactive allocations (srun). A step is created here (id, layout, launch
// credential) and launched by srun itself on the nodes; srun reports its end. An interactive
// allocation is a job without a script: the scheduler starts it like any job but nothing is
// launched (see doLaunch), and srun releases it with MsgCompleteJobAlloc.

// registerSteps installs the step endpoints.
func (c *Controller) registerSteps() {
	c.srv.HandleRPC(wire.MsgAllocateJob, c.handleAllocateJob)
	c.srv.HandleRPC(wire.MsgJobAllocInfo, c.handleJobAllocInfo)
	c.srv.HandleRPC(wire.MsgStepCreate, c.handleStepCreate)
	c.srv.HandleRPC(wire.MsgStepComplete, c.handleStepComplete)
	c.srv.HandleRPC(wire.MsgCompleteJobAlloc, c.handleCompleteJobAlloc)
	c.registerAcct() // acct_query.go: sacct reads the steps these endpoints account
}

// interactivePlaceholder stands in for the script while newJob validates an allocation
// request (newJob refuses a batch job without one); it is removed before the job is stored.
const interactivePlaceholder = "#!interactive"

// isInteractive says whether a job is an srun/salloc allocation (it has no script).
func (j *jobRecord) isInteractive() bool { return !j.hasScript() }

// handleAllocateJob serves MsgAllocateJob: a pending job without a script, durable before
// the reply.
func (c *Controller) handleAllocateJob(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	body := req.Body.(*wire.AllocateJobDesc)
	d := body.Job
	d.Script = interactivePlaceholder
	d.AllocNode = c.allocNode(ctx, req, d.SubmitHost) // alloc_node.go
	now := c.now().Unix()
	j, err := c.newJob(&d, id, now)
	refusal := err
	if j == nil {
		return nil, err
	}
	if refusal == nil && body.Immediate {
		c.mu.RLock()
		errno := c.t.immediateRefusal(j, now) // job_immediate.go
		c.mu.RUnlock()
		if errno != 0 {
			refusal = slurmErr(errno)
		}
	}
	if refusal != nil {
		refusedAtSubmit(j, now) // job_submit.go
	}
	j.editDesc(func(d *wire.JobDesc) { d.Script = "" })
	c.mu.Lock()
	j.JobID = c.t.nextJobID
	if j.Priority != 0 && !c.operatorPriority(j, &d, id) {
		j.Priority = c.submitPriority(j, now) // as a batch job's: nice, multifactor
	}
	p, err := c.apply(submitJob{job: j})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "Unable to create job record, try again")
	}
	var cycled <-chan struct{}
	if refusal == nil {
		// The cycle that may start the job runs while the job is committed: the start is
		// committed after it, and the reply waits for both.
		cycled = c.wakeCycle() // sched_loop.go
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	if refusal != nil {
		c.log.Info("allocation refused at submit", "job", j.JobID, "uid", j.UserID, "err", refusal)
		// The job exists (FAILED): the reply names it, so salloc can say it was revoked.
		rep := &wire.AllocateJobReply{JobID: j.JobID}
		if e, ok := refusal.(*wire.Error); ok {
			rep.Refused = *e
		} else {
			rep.Refused = *wire.Errorf(wire.ErrnoSlurmError, "%v", refusal)
		}
		return rep, nil
	}
	c.log.Info("allocation submitted", "job", j.JobID, "uid", j.UserID)
	// Slurm's allocate RPC starts the job itself when it is on top of its partition's queue
	// (job_top_priority.go); anything else waits for the scheduler and srun says it is
	// queued. Orbit answers after the next cycle, so that srun's first look finds a started
	// job running, and judges "on top" then: an allocation requested a moment earlier, which
	// Slurm would have started before handling this one, has started by then too.
	c.awaitCycle(ctx, cycled, allocCycleWait)
	if body.Immediate {
		c.mu.Lock()
		ch, refused := c.failImmediate(j.JobID, c.now().Unix()) // job_immediate.go
		var p *store.Pending
		if ch != nil {
			p, err = c.apply(ch)
		}
		c.mu.Unlock()
		if err != nil {
			return nil, wire.Errorf(wire.ErrnoSlurmError, "immediate refusal not applied: %v", err)
		}
		if p != nil {
			if err := p.Wait(ctx); err != nil {
				return nil, durabilityError(err)
			}
			c.log.Info("immediate allocation refused", "job", j.JobID, "uid", j.UserID, "err", refused.Text)
			c.wake() // its place in the queue is free
			return &wire.AllocateJobReply{JobID: j.JobID, Refused: *refused}, nil
		}
	}
	c.mu.RLock()
	rep := &wire.AllocateJobReply{JobID: j.JobID}
	if cur := c.t.jobs[j.JobID]; cur != nil && cur.state().IsRunning() {
		// A job with a deadline is never started by the allocate RPC itself (Slurm's
		// job_allocate leaves it to the scheduler).
		rep.Started = c.t.topPriority(cur, c.now().Unix()) && cur.descInt(descDeadline) == 0
		if !cur.state().IsCompleting() {
			rep.Alloc = c.allocInfo(cur)
		}
	} else if cur != nil {
		switch states.Reason(cur.Reason) {
		case states.WaitPartNodeLimit, states.WaitPartTimeLimit, states.WaitPartConfig:
			rep.PendingMsg = errnoTexts[errnoPartConfigUnavail]
		case states.WaitHeldUser, states.WaitHeld:
			rep.PendingMsg = errnoTexts[errnoJobHeld] // select_nodes refuses a held job so
		}
	}
	c.mu.RUnlock()
	return rep, nil
}

// allocCycleWait bounds how long an allocation request waits for the scheduling cycle that
// may start it (a plugin that takes longer leaves the job to srun's polling).
const allocCycleWait = 2 * time.Second

// ownJob returns the job when id may act on it (under the read lock).
func (c *Controller) ownJob(jobID uint32, id *wire.Identity) (*jobRecord, error) {
	j := c.t.jobs[jobID]
	if j == nil {
		return nil, slurmErr(errnoInvalidJobID)
	}
	if j.UserID != id.UID && !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	return j, nil
}

// handleJobAllocInfo serves MsgJobAllocInfo: srun polls it while its allocation is pending.
func (c *Controller) handleJobAllocInfo(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.JobAllocInfoRequest)
	c.mu.RLock()
	defer c.mu.RUnlock()
	j, err := c.ownJob(r.JobID, id)
	if err != nil {
		return nil, err
	}
	if j.state().IsRunning() && j.isInteractive() {
		c.heard.heardFrom(j.JobID, c.now().Unix()) // InactiveLimit (job_inactive.go)
	}
	return c.allocInfo(j), nil
}

// allocInfo is job j's allocation as srun and salloc see it (under the read lock).
func (c *Controller) allocInfo(j *jobRecord) *wire.JobAllocInfo {
	return &wire.JobAllocInfo{
		JobID: j.JobID, State: j.State, Reason: j.Reason, Name: j.descStr(descName), Partition: j.Partition,
		UserName: c.names.user(j.UserID), NodeList: hostlist.Compress(j.Nodes),
		Nodes: append([]string(nil), j.Nodes...), CPUsPerNode: c.t.usedCPUs(j),
		NumTasks: j.NumTasks, CPUsPerTask: j.CPUsPerTask, ClusterName: c.config().ClusterName,
	}
}

// handleStepCreate serves MsgStepCreate: the job must be running and not completing; the
// step gets the job's next step id, a block layout over the job's nodes and a launch
// credential for those nodes.
func (c *Controller) handleStepCreate(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.StepCreateRequest)
	c.mu.RLock()
	j, err := c.ownJob(r.JobID, id)
	if err != nil {
		c.mu.RUnlock()
		return nil, err
	}
	s := j.state()
	switch {
	case s.IsPending():
		c.mu.RUnlock()
		return nil, slurmErr(errnoJobPending)
	case !s.IsRunning() || s.IsCompleting():
		c.mu.RUnlock()
		return nil, slurmErr(errnoAlreadyDone)
	}
	cpt := r.CPUsPerTask
	if cpt == 0 || cpt == wire.NoVal {
		cpt = 1
	}
	jobNodes, jobCPUs := j.Nodes, j.CPUsPerNode
	var arbitrary map[string]uint32 // --distribution=arbitrary: each node's tasks
	if len(r.TaskNodes) > 0 {
		arbitrary = map[string]uint32{}
		for _, n := range r.TaskNodes {
			arbitrary[n]++
		}
		// The step's nodes are the list's, checked against the allocation as -w's are, and
		// no others: Slurm's step_mgr sets min_nodes to them whatever srun asked (an
		// allocation's SLURM_NNODES under a SLURM_HOSTFILE naming fewer nodes).
		r.NodeList, r.NumTasks = hostlist.Uniq(r.TaskNodes), uint32(len(r.TaskNodes))
		r.MinNodes, r.MaxNodes = uint32(len(arbitrary)), 0
	}
	var exc []string
	if r.ExcNodes != "" {
		// -x: every name must be a node (Slurm's node_name2bitmap), and none is used.
		var err error
		exc, err = hostlist.Expand(r.ExcNodes)
		if err != nil || slices.ContainsFunc(exc, func(n string) bool { return c.t.nodes[n] == nil }) {
			c.mu.RUnlock()
			return nil, slurmErr(errnoInvalidNodeName)
		}
	}
	if r.NodeList != "" {
		// -w: the step runs on those nodes of the allocation, in the allocation's order.
		want, err := hostlist.Expand(r.NodeList)
		if err != nil {
			c.mu.RUnlock()
			return nil, slurmErr(errnoInvalidNodeName)
		}
		var nodes []string
		var cpus []uint32
		listed := 0
		for _, n := range j.Nodes {
			if inList(want, n) {
				listed++
			}
		}
		if listed != len(want) {
			c.mu.RUnlock()
			return nil, slurmErr(errnoNodeConfigUnavail)
		}
		// A -N above the list's count adds the job's first other nodes (the list's are
		// required, not the only ones).
		others := 0
		if r.MinNodes != wire.NoVal && int(r.MinNodes) > listed {
			others = int(r.MinNodes) - listed
		}
		for i, n := range j.Nodes {
			if inList(want, n) || others > 0 && !inList(exc, n) {
				if !inList(want, n) {
					others--
				}
				nodes, cpus = append(nodes, n), append(cpus, j.CPUsPerNode[i])
			}
		}
		jobNodes, jobCPUs = nodes, cpus
		if r.MinNodes == 0 || r.MinNodes == wire.NoVal {
			r.MinNodes = uint32(len(nodes))
		}
	}
	if len(exc) > 0 {
		var nodes []string
		var cpus []uint32
		for i, n := range jobNodes {
			if !inList(exc, n) {
				nodes, cpus = append(nodes, n), append(cpus, jobCPUs[i])
			}
		}
		jobNodes, jobCPUs = nodes, cpus
	}
	if r.Features != "" {
		var err error
		if jobNodes, jobCPUs, err = c.t.stepFeatureNodes(r.Features, r.MinNodes, jobNodes, jobCPUs); err != nil {
			c.mu.RUnlock()
			return nil, err
		}
	}
	if rel := r.Relative; rel != 0 && rel != wire.NoVal {
		// srun -r: the step starts at that node of the allocation.
		if rel >= uint32(len(jobNodes)) {
			c.mu.RUnlock()
			return nil, errStepNodes
		}
		jobNodes, jobCPUs = jobNodes[rel:], jobCPUs[rel:]
	}
	minNodes := r.MinNodes
	if minNodes == wire.NoVal {
		minNodes = 0
	}
	numTasks := r.NumTasks
	if numTasks == wire.NoVal {
		numTasks = 0
	}
	tpn := r.TasksPerNode
	if tpn == wire.NoVal {
		tpn = 0
	}
	// Placement, GRES and holding the CPUs happen together (step_table.go reserve), so that
	// steps created at once never share CPUs unless one overlaps.
	var gpus []string
	sreq := stepRequest{numTasks: numTasks, minNodes: minNodes, tasksPerNode: tpn, cpt: cpt, exact: r.Exact, overlap: r.Overlap, overcommit: r.Overcommit, plane: r.PlaneSize}
	stepID, a, err := c.steps.reserve(j.JobID, c.config().MaxStepCount, func(used map[string]uint32) (stepAlloc, error) {
		place := placeStep // step_layout.go
		if arbitrary != nil {
			var jobTotal uint64
			for _, n := range j.CPUsPerNode {
				jobTotal += uint64(n)
			}
			place = func(nodes []string, cpus []uint32, used map[string]uint32, r stepRequest) (stepAlloc, error) {
				return placeArbitrary(nodes, cpus, used, arbitrary, jobTotal, r)
			}
		}
		a, err := place(jobNodes, jobCPUs, used, stepRange(sreq, r.MaxNodes, jobNodes, jobCPUs, used))
		if err != nil {
			return a, err
		}
		var why string
		if gpus, why, err = c.stepGres(j, a.nodes, r.Gres); err != nil { // gres.go
			c.log.Info("step GRES refused", "job", j.JobID, "gres", r.Gres, "why", why)
		}
		return a, err
	})
	if err != nil {
		c.mu.RUnlock()
		return nil, err
	}
	rep := &wire.StepCreateReply{
		JobID: j.JobID, StepID: stepID, NodeList: hostlist.Compress(a.nodes), Nodes: a.nodes,
		Tasks: a.tasks, CPUsOnNode: a.cpus, CPUsPerTask: cpt,
		KillWait: uint32(c.config().KillWait), TimeLimit: j.TimeLimit, JobName: j.descStr(descName),
		Partition: j.Partition, JobNodeList: hostlist.Compress(j.Nodes),
		JobCPUs: c.t.usedCPUs(j), ClusterName: c.config().ClusterName,
		UserName: c.names.user(j.UserID), GPUs: gpus,
	}
	if r.TimeLimit != 0 && r.TimeLimit != wire.NoVal && r.TimeLimit != wire.Infinite {
		rep.StepTimeLimit = r.TimeLimit // srun --time in the allocation: slurmstepd ends the step then
	}
	for _, t := range a.tasks {
		rep.NumTasks += t
	}
	for _, n := range a.nodes {
		addr := ""
		if e := c.t.nodes[n]; e != nil {
			addr = c.nodeAddr(e)
		}
		rep.Addrs = append(rep.Addrs, addr)
	}
	uid, gid := j.UserID, j.GroupID
	c.mu.RUnlock()

	if host, port, err := net.SplitHostPort(ListenAddr(c.config())); err == nil {
		rep.CtldAddr = host
		if p, err := strconv.ParseUint(port, 10, 32); err == nil {
			rep.CtldPort = uint32(p)
		}
	}
	c.steps.describe(rep.JobID, rep.StepID, stepMeta{name: r.Name, start: c.now().Unix(), tasks: rep.NumTasks, cpus: stepCPUs(rep.CPUsOnNode), nodes: uint32(len(rep.Nodes)), srunHost: r.SrunHost, srunPid: r.SrunPid, timeLimit: rep.StepTimeLimit}) // step_info.go
	cred, err := c.launch.SignLaunch(auth.LaunchCred{
		JobID: rep.JobID, StepID: rep.StepID, UID: uid, GID: gid, NodeList: rep.NodeList,
	})
	if err != nil {
		c.steps.complete(rep.JobID, rep.StepID)
		return nil, wire.Errorf(wire.ErrnoSlurmError, "cannot sign step credential: %v", err)
	}
	rep.Cred = cred
	c.acctStepStart(rep, r.Name) // acct_step.go
	c.log.Info("step created", "job", rep.JobID, "step", rep.StepID, "nodes", rep.NodeList, "tasks", rep.NumTasks)
	return rep, nil
}

// handleStepComplete serves MsgStepComplete (srun, when every task of the step ended).
func (c *Controller) handleStepComplete(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.StepComplete)
	c.mu.RLock()
	_, err = c.ownJob(r.JobID, id)
	c.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	c.steps.complete(r.JobID, r.StepID)
	c.acctStepEnd(ctx, r) // acct_step.go
	c.log.Info("step ended", "job", r.JobID, "step", r.StepID, "status", r.ExitCode)
	return nil, nil
}

// handleCompleteJobAlloc serves MsgCompleteJobAlloc: srun is done with its interactive
// allocation. The job ends COMPLETED (status 0) or FAILED (NonZeroExitCode) with srun's
// status, as in Slurm; a job already ended (scancel) keeps its end.
func (c *Controller) handleCompleteJobAlloc(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.CompleteJobAlloc)
	now := c.now().Unix()
	c.mu.Lock()
	j, err := c.ownJob(r.JobID, id)
	if err != nil {
		c.mu.Unlock()
		return nil, err
	}
	s := j.state()
	if !j.isInteractive() || s.IsFinished() && !s.IsCompleting() {
		c.mu.Unlock()
		c.steps.forget(r.JobID)
		return nil, nil
	}
	ch := endJob{jobID: j.JobID, exitCode: r.ExitCode, setExit: true, end: now}
	switch {
	case s.IsCompleting():
		// Cancelled or timed out while srun ran: the end is already decided; this releases
		// the nodes (an interactive job has no batch script to report its end).
		ch.state, ch.keepReason, ch.end = s.Base(), true, j.EndTime
	case s.IsPending():
		// srun or salloc gave up waiting: Slurm records no exit status for a job that
		// never ran, whatever the command sent.
		ch.state, ch.keepReason, ch.setExit = states.JobCancelled, true, false
	case r.ExitCode == wire.NoVal:
		// salloc or srun interrupted by a signal gives the allocation back without an exit
		// status: Slurm records the job CANCELLED.
		ch.state, ch.reason, ch.exitCode = states.JobCancelled, states.WaitNoReason, 0
	case r.ExitCode == 0:
		ch.state, ch.reason = states.JobComplete, states.WaitNoReason
	default:
		ch.state, ch.reason = states.JobFailed, states.FailExitCode
	}
	p, err := c.apply(ch)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "completion not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.steps.forget(r.JobID)
	c.endNodeScripts(r.JobID, j.Nodes) // node_drain.go: epilogs on the nodes, EpilogSlurmctld
	c.log.Info("allocation released", "job", r.JobID, "state", ch.state.String(), "status", r.ExitCode)
	c.wake()
	return nil, nil
}

// stepRange is a step's request with -N min-max aimed at its maximum, as far as the job has
// nodes with CPUs free for it (Slurm's _opt_node_cnt), never more nodes than tasks.
func stepRange(r stepRequest, maxNodes uint32, nodes []string, cpus []uint32, used map[string]uint32) stepRequest {
	if maxNodes == wire.NoVal || maxNodes <= r.minNodes {
		return r
	}
	var avail uint32
	for i, n := range nodes {
		if r.overlap || used[n] < cpus[i] {
			avail++
		}
	}
	target := min(maxNodes, avail)
	if r.numTasks > 0 {
		target = min(target, r.numTasks)
	}
	r.minNodes = max(r.minNodes, target)
	return r
}

// stepFeatureNodes is the job's nodes a step with --constraint may use: those whose active
// features include every feature of the list (a&b, a,b). Fewer such nodes than the step's
// minimum keep the step waiting (busy), as Slurm's step_mgr does, whose srun retries until
// the job ends; so does every other form (a|b, [a|b], counts, which Slurm 22.05's steps
// never satisfy, as the reference showed).
func (t *tables) stepFeatureNodes(features string, minNodes uint32, nodes []string, cpus []uint32) ([]string, []uint32, error) {
	if strings.ContainsAny(features, "|[]()*") {
		return nil, nil, errStepBusy
	}
	want := strings.FieldsFunc(features, func(r rune) bool { return r == '&' || r == ',' })
	var keep []string
	var keepCPUs []uint32
	for i, n := range nodes {
		e := t.nodes[n]
		if e == nil {
			continue
		}
		have := e.activeFeatures()
		if !slices.ContainsFunc(want, func(f string) bool { return !slices.Contains(have, f) }) {
			keep, keepCPUs = append(keep, n), append(keepCPUs, cpus[i])
		}
	}
	if len(keep) == 0 || minNodes != wire.NoVal && uint32(len(keep)) < minNodes {
		return nil, nil, errStepBusy
	}
	return keep, keepCPUs, nil
}

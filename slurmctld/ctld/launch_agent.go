package ctld

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// The launch agent makes the controller's calls to nodes from a pool of workers, so that no
// handler and no scheduler pass waits on the network, and the state lock is never held
// during a call (Slurm's agent thread pool plays this part).

type taskKind uint8

const (
	taskLaunch taskKind = iota + 1
	taskTerminate
	taskSignal
)

// agentTask is one call to one node.
type agentTask struct {
	kind     taskKind
	jobID    uint32
	node     string
	signal   int32
	flags    uint16
	timedOut bool
	// preempted: the terminate ends a run that preemption cancelled or requeued.
	preempted bool
	// details is the terminate's TerminateJob.Details (resv_overrun.go).
	details string
}

// launchAttempts is how often a launch is tried before the job is given up as failed.
const launchAttempts = 3

// send queues a task; it blocks only while the queue is full, and drops the task when the
// controller is closing. Terminate and signal tasks for one job are gathered: the first one
// queues a broadcast, and the nodes of the same job (and signal) sent before a worker takes
// it up go with it, so a job's terminate reaches all its nodes in one tree broadcast
// (node_ping.go) rather than one call per node.
func (c *Controller) send(t agentTask) {
	if t.kind == taskTerminate || t.kind == taskSignal {
		c.sendNodes(t, []string{t.node})
		return
	}
	select {
	case c.agent <- t:
	case <-c.ctx.Done():
	}
}

// sendNodes queues t for every node of nodes at once: one broadcast for all of them.
func (c *Controller) sendNodes(t agentTask, nodes []string) {
	if t.kind != taskTerminate && t.kind != taskSignal {
		for _, n := range nodes {
			t.node = n
			c.send(t)
		}
		return
	}
	if len(nodes) == 0 {
		return
	}
	k := bcastKey{kind: t.kind, jobID: t.jobID, signal: t.signal, flags: t.flags, timedOut: t.timedOut, preempted: t.preempted}
	c.fan.mu.Lock()
	if c.fan.pending == nil {
		c.fan.pending = map[bcastKey][]string{}
	}
	pending, queued := c.fan.pending[k]
	c.fan.pending[k] = append(pending, nodes...)
	c.fan.mu.Unlock()
	if queued {
		return
	}
	t.node = ""
	select {
	case c.agent <- t:
	case <-c.ctx.Done():
	}
}

// bcastKey identifies the gathered nodes of one terminate or signal broadcast.
type bcastKey struct {
	kind      taskKind
	jobID     uint32
	signal    int32
	flags     uint16
	timedOut  bool
	preempted bool
}

// takePending removes and returns the nodes gathered for t's broadcast.
func (c *Controller) takePending(t agentTask) []string {
	k := bcastKey{kind: t.kind, jobID: t.jobID, signal: t.signal, flags: t.flags, timedOut: t.timedOut, preempted: t.preempted}
	c.fan.mu.Lock()
	defer c.fan.mu.Unlock()
	nodes := c.fan.pending[k]
	delete(c.fan.pending, k)
	return nodes
}

func (c *Controller) agentWorker() {
	defer c.wg.Done()
	for {
		select {
		case <-c.ctx.Done():
			return
		case t := <-c.agent:
			switch t.kind {
			case taskLaunch:
				c.doLaunch(t)
			case taskTerminate:
				c.doTerminate(t)
			case taskSignal:
				c.doSignal(t)
			}
		}
	}
}

// nodeAddr is where the controller calls a node: the address it registered, else its
// NodeAddr and port from slurm.conf.
func (c *Controller) nodeAddr(n *nodeEntry) string {
	if n.rec.Addr != "" {
		return n.rec.Addr
	}
	port := uint32(n.conf.Port)
	if port == 0 {
		port = c.config().SlurmdPort
	}
	return net.JoinHostPort(n.conf.Addr, strconv.FormatUint(uint64(port), 10))
}

// addrOf returns a node's address under the read lock.
func (c *Controller) addrOf(node string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := c.t.nodes[node]
	if n == nil {
		return "", false
	}
	return c.nodeAddr(n), true
}

// call makes one call to a node.
func (c *Controller) call(addr string, t wire.MsgType, req any) error {
	ctx, cancel := context.WithTimeout(c.ctx, c.nodeOpt.MessageTimeout+time.Second)
	defer cancel()
	return wire.Call(ctx, "tcp", addr, t, req, nil, c.nodeOpt)
}

// doLaunch sends a started job's batch script to its batch host. The job's RUNNING state is
// already durable, so a crash after this point cannot lose the job; the restarted controller
// resends the launch, and slurmd refuses to start a job that runs or ran. A launch
// the node refuses, or that cannot reach the node after launchAttempts tries, ends as
// launchFailed says.
func (c *Controller) doLaunch(t agentTask) {
	for attempt := 1; ; attempt++ {
		c.mu.RLock()
		j := c.t.jobs[t.jobID]
		if j == nil || !j.state().IsRunning() {
			c.mu.RUnlock()
			return // cancelled or ended meanwhile
		}
		if j.isInteractive() {
			c.mu.RUnlock()
			return // an srun allocation: srun launches its steps itself
		}
		msg := c.launchMsg(j)
		msg.Restarts = j.Restarts
		n := c.t.nodes[j.batchHost()]
		addr := c.nodeAddr(n)
		c.mu.RUnlock()

		// The script and environment are read back from the store, outside the lock
		// (job_record_script.go). A job whose script cannot be found can never start:
		// Slurm fails it as a launch the node refused.
		sc, err := c.jobScript(j)
		if err != nil {
			c.log.Error("cannot read batch script", "job", j.JobID, "err", err)
			c.launchFailed(j.JobID, msg.NodeName, true)
			return
		}
		msg.Script, msg.Environment = sc.Script, sc.Environment
		arrayLaunch(j, msg) // job_array.go: after the environment, which it edits

		cred, err := c.launch.SignLaunch(auth.LaunchCred{
			JobID: j.JobID, StepID: batchStepID, UID: j.UserID, GID: j.GroupID, NodeList: msg.NodeList,
		})
		if err == nil {
			msg.Cred = cred
			err = c.call(addr, wire.MsgLaunchBatchJob, msg)
		}
		if err == nil {
			c.log.Debug("job launched", "job", j.JobID, "node", msg.NodeName, "addr", addr)
			return
		}
		var we *wire.Error
		refused := errors.As(err, &we) && errors.Unwrap(we) == nil // the node answered no
		if launchRefusedByProlog(err) {
			return // the node reports its prolog failure itself (node_drain.go)
		}
		c.log.Warn("launch failed", "job", j.JobID, "node", msg.NodeName, "addr", addr, "attempt", attempt, "err", err)
		if refused || attempt >= launchAttempts || c.ctx.Err() != nil {
			if c.ctx.Err() != nil {
				return // shutting down: the job stays RUNNING and is reconciled at restart
			}
			c.mu.RLock()
			j = c.t.jobs[t.jobID]
			still := j != nil && j.state().IsRunning() && !j.state().IsCompleting()
			c.mu.RUnlock()
			if !still {
				// Cancelled or ended while the launch was under way (the node refuses a
				// launch it was already told to terminate): the job keeps that end.
				return
			}
			c.launchFailed(j.JobID, msg.NodeName, refused)
			return
		}
		select {
		case <-time.After(time.Duration(attempt) * time.Second):
		case <-c.ctx.Done():
			return
		}
	}
}

// launchFailed ends a batch launch that did not happen, as Slurm's agent does. A node that
// answered no makes the job "non-startable": it ends FAILED with exit code 1:0 and reason
// NonZeroExitCode (Slurm's job_complete with _wif_status()). A node that could not be
// reached is the system's fault, not the job's: the node becomes NOT_RESPONDING and the job
// is requeued whatever its --requeue says (job_complete with requeue=true), and the node is
// told to terminate the incarnation in case the launch did arrive. Slurm holds a job whose
// launch failed more than MAX_BATCH_REQUEUE times; Orbit does not count those yet.
func (c *Controller) launchFailed(jobID uint32, node string, refused bool) {
	now := c.now().Unix()
	var ch change = endJob{jobID: jobID, state: states.JobFailed, reason: states.FailExitCode,
		exitCode: 1 << 8, setExit: true, end: now}
	if !refused {
		ch = requeueJob{jobID: jobID, now: now}
		c.mu.Lock()
		if n := c.t.nodes[node]; n != nil && states.NodeState(n.rec.State).Base() != states.NodeDown {
			n.noRespond = true
		}
		c.mu.Unlock()
		c.log.Info("requeueing job: its batch host cannot be reached", "job", jobID, "node", node)
	} else {
		c.log.Info("killing non-startable batch job", "job", jobID, "node", node)
	}
	if err := c.applyWait(c.ctx, ch); err != nil {
		c.log.Error("cannot record launch failure", "job", jobID, "err", err)
	}
	if !refused {
		go c.send(agentTask{kind: taskTerminate, jobID: jobID, node: node}) // never block a worker on the queue
	}
	c.wake()
}

// batchStepID is Slurm's SLURM_BATCH_SCRIPT step id, named in batch launch credentials.
const batchStepID = 0xfffffffb

// launchMsg builds the batch launch message of a running job (under the read lock).
func (c *Controller) launchMsg(j *jobRecord) *wire.LaunchBatchJob {
	d := j.Desc()
	return &wire.LaunchBatchJob{
		NodeName:      j.batchHost(),
		JobID:         j.JobID,
		ArrayTaskID:   wire.NoVal,
		UserID:        j.UserID,
		GroupID:       j.GroupID,
		UserName:      c.names.user(j.UserID),
		JobName:       d.Name,
		Partition:     j.Partition,
		Account:       d.Account,
		QOS:           d.QOS,
		NodeList:      hostlist.Compress(j.Nodes),
		CPUsPerNode:   c.t.usedCPUs(j), // select_cores.go
		NumTasks:      j.allocTasks(),  // job_submit.go
		CPUsPerTask:   j.CPUsPerTask,
		MemPerNode:    j.minMemoryNode(), // a whole-node or --mem-per-gpu job has no SLURM_MEM_PER_NODE
		MemPerCPU:     j.MemPerCPU,
		MemPerGPUNode: j.shownMemPerNode() - j.minMemoryNode(), // the limit --mem-per-gpu sets, when that is all
		TimeLimit:     j.TimeLimit,
		KillWait:      uint32(c.config().KillWait),
		WorkDir:       d.WorkDir,
		ScriptArgs:    d.ScriptArgs, // Script and Environment: doLaunch reads them from the store
		StdOut:        d.StdOut,
		StdErr:        d.StdErr,
		StdIn:         d.StdIn,
		OpenMode:      d.OpenMode,
		SignalNumber:  d.SignalNumber,
		SignalTime:    d.SignalTime,
		SignalFlags:   d.SignalFlags,
		SubmitDir:     d.SubmitDir,
		SubmitHost:    d.SubmitHost,
		StartTime:     j.StartTime,
		ClusterName:   c.config().ClusterName,
		GPUs:          c.batchGPUs(j), // gres.go
	}
}

// doTerminate asks the nodes gathered for a job's terminate to end it (cancel, time limit,
// lost job), in one broadcast down the tree. When the batch host answers that it no longer
// runs the job, no completion report will come, so the job's COMPLETING ends here, unless
// the job waits for its epilogs (epilog_wait.go), whose reports end it. Nodes
// the broadcast did not reach are left to node health, which ends the job if they are gone.
func (c *Controller) doTerminate(t agentTask) {
	nodes := c.takePending(t)
	if len(nodes) == 0 {
		return
	}
	var restarts uint32
	requeued := false
	c.mu.RLock()
	if j := c.t.jobs[t.jobID]; j != nil {
		restarts = j.Restarts
		if j.state().IsPending() && restarts > 0 {
			restarts-- // a requeue ends the incarnation before it (job_requeue.go)
			requeued = true
		}
	}
	c.mu.RUnlock()
	rep := c.broadcast(wire.MsgTerminateJob, &wire.TerminateJob{
		JobID: t.jobID, KillWait: uint32(c.config().KillWait), TimedOut: t.timedOut, Restarts: restarts,
		Requeued: requeued, Preempted: t.preempted, Details: t.details,
	}, nodes)
	c.log.Debug("job terminate broadcast", "job", t.jobID, "nodes", len(nodes), "forwards", rep.Forwards, "dials", rep.Dials)
	var refusedBy []string // nodes that answered no (the job is not running there)
	for _, r := range rep.Results {
		switch {
		case r.Errno == 0:
		case r.Unreached():
			c.log.Warn("terminate not delivered", "job", t.jobID, "nodes", hostlist.Compress(r.Nodes), "err", r.Text)
		default:
			refusedBy = append(refusedBy, r.Nodes...)
		}
	}
	if len(refusedBy) == 0 {
		return
	}
	c.mu.Lock()
	j := c.t.jobs[t.jobID]
	if j == nil || !j.state().IsCompleting() || !slices.Contains(refusedBy, j.batchHost()) || c.awaitingEpilogs(j.JobID) {
		c.mu.Unlock()
		return
	}
	p, aerr := c.apply(endJob{jobID: j.JobID, state: j.state().Base(), keepReason: true, end: j.EndTime})
	c.mu.Unlock()
	if aerr == nil {
		aerr = p.Wait(c.ctx)
	}
	if aerr != nil {
		c.log.Error("cannot end completing job", "job", t.jobID, "err", aerr)
	}
	c.wake()
}

// doSignal delivers a signal to a job's steps on the nodes gathered for it (scancel -s), in
// one broadcast down the tree.
func (c *Controller) doSignal(t agentTask) {
	nodes := c.takePending(t)
	if len(nodes) == 0 {
		return
	}
	rep := c.broadcast(wire.MsgSignalJob, &wire.SignalJob{JobID: t.jobID, Signal: t.signal, Flags: t.flags}, nodes)
	for _, r := range rep.Results {
		if r.Errno != 0 {
			c.log.Warn("signal not delivered", "job", t.jobID, "nodes", hostlist.Compress(r.Nodes), "signal", t.signal, "err", r.Text)
		}
	}
}

package ctld

import (
	"context"
	"errors"
	"net"
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
}

// launchAttempts is how often a launch is tried before the job is given up as failed.
const launchAttempts = 3

// send queues a task; it blocks only while the queue is full, and drops the task when the
// controller is closing.
func (c *Controller) send(t agentTask) {
	select {
	case c.agent <- t:
	case <-c.ctx.Done():
	}
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
		port = c.cfg.SlurmdPort
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
// already durable, so a controller crash after this point never launches it again. A launch
// the node refuses, or that cannot reach the node after launchAttempts tries, ends the job
// FAILED with reason JobLaunchFailure (Slurm would requeue it; Orbit keeps this simple for
// now). Since a transport failure may hide a launch that did happen, the node is also told
// to terminate the job.
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
		arrayLaunch(j, msg) // job_array.go
		msg.Restarts = j.Restarts
		n := c.t.nodes[j.batchHost()]
		addr := c.nodeAddr(n)
		c.mu.RUnlock()

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
			ch := endJob{jobID: j.JobID, state: states.JobFailed, reason: states.FailLaunch,
				exitCode: 1 << 8, setExit: true, end: c.now().Unix()}
			if err := c.applyWait(c.ctx, ch); err != nil {
				c.log.Error("cannot record launch failure", "job", j.JobID, "err", err)
			}
			if !refused {
				go c.send(agentTask{kind: taskTerminate, jobID: j.JobID, node: msg.NodeName})
			}
			c.wake()
			return
		}
		select {
		case <-time.After(time.Duration(attempt) * time.Second):
		case <-c.ctx.Done():
			return
		}
	}
}

// batchStepID is Slurm's SLURM_BATCH_SCRIPT step id, named in batch launch credentials.
const batchStepID = 0xfffffffb

// launchMsg builds the batch launch message of a running job (under the read lock).
func (c *Controller) launchMsg(j *jobRecord) *wire.LaunchBatchJob {
	d := &j.Desc
	return &wire.LaunchBatchJob{
		NodeName:     j.batchHost(),
		JobID:        j.JobID,
		ArrayTaskID:  wire.NoVal,
		UserID:       j.UserID,
		GroupID:      j.GroupID,
		UserName:     c.names.user(j.UserID),
		JobName:      d.Name,
		Partition:    j.Partition,
		Account:      d.Account,
		QOS:          d.QOS,
		NodeList:     hostlist.Compress(j.Nodes),
		CPUsPerNode:  append([]uint32(nil), j.CPUsPerNode...),
		NumTasks:     j.NumTasks,
		CPUsPerTask:  j.CPUsPerTask,
		MemPerNode:   j.MemPerNode,
		MemPerCPU:    j.MemPerCPU,
		TimeLimit:    j.TimeLimit,
		KillWait:     uint32(c.cfg.KillWait),
		WorkDir:      d.WorkDir,
		Script:       d.Script,
		ScriptArgs:   d.ScriptArgs,
		Environment:  d.Environment,
		StdOut:       d.StdOut,
		StdErr:       d.StdErr,
		StdIn:        d.StdIn,
		OpenMode:     d.OpenMode,
		SignalNumber: d.SignalNumber,
		SignalTime:   d.SignalTime,
		SignalFlags:  d.SignalFlags,
		SubmitDir:    d.SubmitDir,
		SubmitHost:   d.SubmitHost,
		StartTime:    j.StartTime,
		ClusterName:  c.cfg.ClusterName,
	}
}

// doTerminate asks a node to end a job (cancel, time limit, lost job). When the batch host
// answers that it no longer runs the job, no completion report will come, so the job's
// COMPLETING ends here.
func (c *Controller) doTerminate(t agentTask) {
	addr, ok := c.addrOf(t.node)
	if !ok {
		return
	}
	var restarts uint32
	c.mu.RLock()
	if j := c.t.jobs[t.jobID]; j != nil {
		restarts = j.Restarts
		if j.state().IsPending() && restarts > 0 {
			restarts-- // a requeue ends the incarnation before it (job_requeue.go)
		}
	}
	c.mu.RUnlock()
	err := c.call(addr, wire.MsgTerminateJob, &wire.TerminateJob{
		NodeName: t.node, JobID: t.jobID, KillWait: uint32(c.cfg.KillWait), TimedOut: t.timedOut, Restarts: restarts,
	})
	if err == nil {
		return
	}
	var we *wire.Error
	if !errors.As(err, &we) || errors.Unwrap(we) != nil {
		c.log.Warn("terminate not delivered", "job", t.jobID, "node", t.node, "err", err)
		return // node health will end the job if the node is gone
	}
	c.mu.Lock()
	j := c.t.jobs[t.jobID]
	if j == nil || !j.state().IsCompleting() || j.batchHost() != t.node {
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

// doSignal delivers a signal to a job's steps on one node (scancel -s).
func (c *Controller) doSignal(t agentTask) {
	addr, ok := c.addrOf(t.node)
	if !ok {
		return
	}
	err := c.call(addr, wire.MsgSignalJob, &wire.SignalJob{NodeName: t.node, JobID: t.jobID, Signal: t.signal, Flags: t.flags})
	if err != nil {
		c.log.Warn("signal not delivered", "job", t.jobID, "node", t.node, "signal", t.signal, "err", err)
	}
}

package ctld

import (
	"context"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handleBatchJobComplete serves MsgBatchJobComplete: a batch script ended on its batch host
// (sent by slurmstepd, retried until acknowledged). It is idempotent: a report for a job that
// already ended, is unknown (purged) or is not running on that node is acknowledged and
// ignored.
//
// The final state: a job the controller already ended while it ran (scancel → CANCELLED,
// time limit → TIMEOUT, node failure → NODE_FAIL, all with COMPLETING) keeps that state and
// takes the script's exit status; otherwise a launch failure is FAILED (JobLaunchFailure),
// with the stepd's errno as status (an output file that cannot be opened: 0:53),
// a time-limit kill TIMEOUT, a kill the controller asked for CANCELLED, exit status 0
// COMPLETED, anything else FAILED with NonZeroExitCode (22.05 has no RaisedSignal reason).
// The nodes are released at once, or with an Epilog once every node's epilog reported, and
// the scheduler runs.
func (c *Controller) handleBatchJobComplete(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	r := req.Body.(*wire.BatchJobComplete)
	now := c.now().Unix()

	c.mu.Lock()
	if n := c.t.nodes[r.NodeName]; n != nil {
		n.lastContact = now
		n.noRespond = false
	}
	j := c.t.jobs[r.JobID]
	if j == nil || !j.holdsNodes() || (r.NodeName != "" && j.batchHost() != r.NodeName) {
		c.mu.Unlock()
		return nil, nil
	}
	ch := endJob{jobID: j.JobID, exitCode: r.WaitStatus, setExit: true, end: now}
	switch s := j.state(); {
	case s.IsCompleting():
		ch.state, ch.keepReason, ch.end = s.Base(), true, j.EndTime
	case r.LaunchFailed:
		// The stepd's errno is the status when it sent one (ESLURMD_IO_ERROR shows as
		// ExitCode 0:53, as in Slurm); otherwise 1:0.
		ch.state, ch.reason = states.JobFailed, states.FailLaunch
		if r.WaitStatus == 0 {
			ch.exitCode = 1 << 8
		}
	case r.OutOfMemory: // the step's memory cgroup saw an oom-kill (slurmd/stepd/cgroup.go)
		ch.state, ch.reason, ch.exitCode = states.JobOOM, states.FailOOM, sigOOM
	case r.TimedOut:
		ch.state, ch.reason = states.JobTimeout, states.FailTimeout
	case r.Cancelled:
		ch.state, ch.keepReason = states.JobCancelled, true
	case r.WaitStatus == 0:
		ch.state, ch.reason = states.JobComplete, states.WaitNoReason
	default:
		ch.state, ch.reason = states.JobFailed, states.FailExitCode
	}
	for _, name := range j.Nodes {
		if n := c.t.nodes[name]; n != nil {
			n.lastBusy = now
		}
	}
	// With an Epilog, the job stays COMPLETING on its nodes until every epilog reported
	// (epilog_wait.go).
	ch.completing = c.awaitEpilogs(j.JobID, j.Nodes)
	nodes := append([]string(nil), j.Nodes...)
	var apply change = ch
	if requeue, hold := c.requeueOnExit(ch); requeue { // job_requeue_exit.go
		apply = requeueJob{jobID: j.JobID, now: now, completing: ch.completing, hold: hold, specialExit: hold,
			exitCode: ch.exitCode, setExit: true}
	}
	p, err := c.apply(apply)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "completion not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.endNodeScripts(r.JobID, nodes) // node_drain.go: epilogs on the nodes, EpilogSlurmctld
	c.log.Info("job ended", "job", r.JobID, "state", ch.state.String(), "status", r.WaitStatus, "text", r.Text)
	c.wake()
	return nil, nil
}

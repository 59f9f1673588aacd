package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// srun steps run under one slurmstepd per step and slurmd (for several hosted nodes: MsgLaunchTasksMany,
// step_launch_many.go; MsgLaunchTasks is the one-node form), as batch steps do
// (DESIGN.md §2): slurmd checks the launch, writes a stepdlaunch.Step file and starts
// `slurmstepd --step FILE` in its own session; the stepd connects to srun's I/O port itself,
// runs the tasks and reports their exits to srun, so a step keeps running, and its output
// keeps reaching srun, while slurmd restarts. slurmd answers the launch once the stepd says
// the tasks run (or with the error it reports). Signals reach the tasks through the step's
// state file (the tasks' process groups, or the stepd's pid for a cancel), which a restarted
// slurmd reads just the same.

// registerSteps installs the srun endpoints.
func (d *Daemon) registerSteps() {
	d.srv.HandleRPC(wire.MsgLaunchTasks, d.handleLaunchTasks)
	d.srv.HandleRPC(wire.MsgSignalTasks, d.handleSignalTasks)
	d.srv.HandleRPC(wire.MsgLaunchTasksMany, d.handleLaunchTasksMany) // step_launch_many.go
	d.srv.HandleRPC(wire.MsgFileBcast, d.handleFileBcast)             // file_bcast.go
}

// verifyStepCaller checks a request about step job.step on node: the caller is the step's
// user uid (or root/SlurmUser), and cred is the controller's launch credential for that
// job, step, user (uid, gid) and node. It answers with the error to reply.
func (d *Daemon) verifyStepCaller(req *wire.Request, cred []byte, node string, job, step, uid, gid uint32) (auth.LaunchCred, error) {
	if req.Identity == nil || (req.Identity.UID != uid && !d.privileged(req)) {
		return auth.LaunchCred{}, wire.NewError(wire.ErrnoAccessDenied)
	}
	if cred == nil && wire.IsNoAllocJob(job) {
		// srun -Z: no credential, no job; root and SlurmUser only (noAllocCaller).
		return d.noAllocCaller(req, node, job, step, uid, gid)
	}
	lc, err := d.launchV.VerifyLaunch(cred, node)
	if err != nil {
		d.log.Warn("step request refused: bad credential", "job", job, "step", step, "node", node, "err", err)
		if errors.Is(err, auth.ErrLaunchExpired) {
			return lc, wire.Errorf(errnoCredentialExpired, "Job credential expired")
		}
		return lc, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if lc.JobID != job || lc.StepID != step || lc.UID != uid || lc.GID != gid {
		return lc, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	return lc, nil
}

// handleLaunchTasks starts a step's tasks on one node for srun: the caller must be the job's
// user (or root/SlurmUser), the credential must be the controller's for this job, step, user
// and node; then the node connects to srun's I/O port, starts the tasks and replies. The
// tasks' output, and their exits, follow on the I/O connection.
func (d *Daemon) handleLaunchTasks(ctx context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.LaunchTasks)
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	lc, err := d.verifyStepCaller(req, m.Cred, m.NodeName, m.JobID, m.StepID, m.UserID, m.GroupID)
	if err != nil {
		return nil, err
	}
	if len(m.Argv) == 0 || len(m.Ranks) == 0 {
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: no command or no tasks")
	}
	if len(m.StdOut) != 0 && len(m.StdOut) != len(m.Ranks) || len(m.StdErr) != 0 && len(m.StdErr) != len(m.Ranks) ||
		len(m.StdIn) != 0 && len(m.StdIn) != len(m.Ranks) {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "output file names do not match the tasks")
	}
	d.mu.Lock()
	// A step has no restart count: a job terminated here and not launched again since (a
	// batch launch of a later incarnation clears the record) runs no steps.
	_, killed := d.wasKilled(m.NodeName, m.JobID, 0, time.Now())
	d.mu.Unlock()
	if killed {
		return nil, wire.Errorf(errnoKillJobComplete, "Job already completed")
	}
	if !wire.IsNoAllocJob(m.JobID) { // srun -Z: no job, so no prolog
		if err := d.stepProlog(h, m, lc.NodeList); err != nil { // prolog.go
			return nil, err
		}
	}
	if err := d.startStepStepd(ctx, h, m); err != nil {
		d.log.Error("step launch failed", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "err", err)
		var f *stepdlaunch.StepFailure
		if errors.As(err, &f) {
			return nil, wire.Errorf(f.Errno, "%s", f.Text)
		}
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: %v", err)
	}
	return nil, nil
}

// startStepStepd writes the step's launch file, starts slurmstepd in its own session and
// waits until it says the tasks run.
func (d *Daemon) startStepStepd(ctx context.Context, h *hosted, m *wire.LaunchTasks) error {
	l := &stepdlaunch.Step{Msg: *m, NodeName: h.node.Name, Spool: h.spool,
		MessageTimeout: int(d.timeout / time.Second), KillWait: int(d.cfg.KillWait),
		LogFile: d.opts.LogFile, Debug: d.opts.Debug, LogLevels: d.logLevels(), PropagateRlimits: d.cfg.PropagateRlimits.Names(),
		TaskProlog: d.cfg.TaskProlog, TaskEpilog: d.cfg.TaskEpilog, TaskPlugin: d.cfg.TaskPlugin,
		CtldAddrs: d.ctlds, KeyPath: d.keyPath, AuthType: d.cfg.AuthType, AuthInfo: d.cfg.AuthInfo}
	if v, ok := d.cfg.Get("JobFileAppend"); ok {
		l.JobFileAppend = v == "1"
	}
	l.Memory = d.memory(stepMemory(h, m), m.CPUsOnNode) // cgroup.go
	path := stepdlaunch.StepPath(h.spool, m.JobID, m.StepID)
	if err := stepdlaunch.WriteStep(path, l); err != nil {
		return err
	}
	defer d.refillSpare() // once this launch is done: a spare starting now would slow it
	cmd, r, err := d.spawnStepd("--step", path, h.node.Name)
	if err != nil {
		return err
	}
	defer r.Close()
	deadline := time.Now().Add(2 * d.timeout)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	r.SetReadDeadline(deadline)
	if err := stepdlaunch.ReadStepReady(r); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("slurmstepd (pid %d) did not start the tasks in time", cmd.Process.Pid)
		}
		os.Remove(path) // the stepd removes it itself, unless it died first
		return err
	}
	d.log.Info("launched step", "job", m.JobID, "step", m.StepID, "node", h.node.Name, "tasks", len(m.Ranks),
		"stepd_pid", cmd.Process.Pid)
	return nil
}

// handleSignalTasks signals one step's tasks (srun forwarding a signal, or ending the step
// with SIGKILL for -K), found through the step's state file: a step started by an earlier
// slurmd is reached just the same. A message naming Nodes signals the step on each of them
// (one message per slurmd for a wide step); the answer is an error only when no node had it.
func (d *Daemon) handleSignalTasks(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.SignalTasks)
	if m.Signal <= 0 || m.Signal >= 65 {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "Invalid signal %d", m.Signal)
	}
	nodes := m.Nodes
	if len(nodes) == 0 {
		nodes = []string{m.NodeName}
	}
	if len(nodes) > wire.MaxLaunchNodes {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "signal names %d nodes, more than %d", len(nodes), wire.MaxLaunchNodes)
	}
	var first error
	signalled := 0
	stepds := map[int]bool{} // a several-node slurmstepd is cancelled once
	for _, node := range nodes {
		err := d.signalStepOn(req, node, m, stepds)
		if err == nil {
			signalled++
		} else if first == nil {
			first = err
		}
	}
	if signalled == 0 {
		return nil, first
	}
	return nil, nil
}

// signalStepOn signals step m on one hosted node.
func (d *Daemon) signalStepOn(req *wire.Request, node string, m *wire.SignalTasks, stepds map[int]bool) error {
	h := d.nodes[node]
	if h == nil {
		return errInvalidNode(node)
	}
	st, err := stepd.ReadState(stepd.StatePath(h.spool, m.JobID, strconv.FormatUint(uint64(m.StepID), 10)))
	if err != nil || st.Ended() || !stepd.Alive(st) {
		return wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
	}
	if req.Identity == nil || (!d.privileged(req) && st.UID != req.Identity.UID) {
		return wire.NewError(wire.ErrnoAccessDenied)
	}
	if m.Signal == int32(syscall.SIGKILL) {
		// srun -K killing the step: its slurmstepd cancels it as Slurm's step kill does
		// (SIGTERM, KillWait, SIGKILL, and the "CANCELLED" line).
		if stepds[st.Pid] {
			return nil
		}
		sig := stepdlaunch.SigCancel
		if m.Abort {
			sig = stepdlaunch.SigAbort
		}
		if err := syscall.Kill(st.Pid, sig); err != nil {
			return wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
		}
		stepds[st.Pid] = true
		return nil
	}
	for _, t := range st.Tasks {
		signalGroup(t.Pid, syscall.Signal(m.Signal))
	}
	return nil
}

// noAllocCaller admits an srun -Z launch (Slurm's no-allocate step): only root or SlurmUser
// may run tasks without a job; the step's credential is made up of its own request.
func (d *Daemon) noAllocCaller(req *wire.Request, node string, job, step, uid, gid uint32) (auth.LaunchCred, error) {
	if !d.privileged(req) {
		d.log.Warn("no-allocate launch refused: not root or SlurmUser", "job", job, "step", step, "uid", req.Identity.UID)
		return auth.LaunchCred{}, wire.NewError(wire.ErrnoAccessDenied)
	}
	if !wire.IsNoAllocJob(job) {
		// A real job's steps need the controller's credential, whoever asks.
		return auth.LaunchCred{}, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	return auth.LaunchCred{JobID: job, StepID: step, UID: uid, GID: gid, NodeList: node}, nil
}

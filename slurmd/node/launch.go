package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// handleLaunchBatch starts a job's batch script: authorize the caller, check the launch
// credential, then start slurmstepd and reply once the script runs, or once the launch is
// the slurmstepd's when it starts slowly (awaitSlowStart).
func (d *Daemon) handleLaunchBatch(ctx context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.LaunchBatchJob)
	d.log.Debug("batch launch received", "job", m.JobID, "node", m.NodeName)
	if !d.privileged(req) {
		d.log.Warn("launch refused: caller is not root or SlurmUser", "uid", req.Identity.UID, "job", m.JobID)
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	lc, err := d.launchV.VerifyLaunch(m.Cred, m.NodeName)
	if err != nil {
		d.log.Warn("launch refused: bad credential", "job", m.JobID, "node", m.NodeName, "err", err)
		if errors.Is(err, auth.ErrLaunchExpired) {
			return nil, wire.Errorf(errnoCredentialExpired, "Job credential expired")
		}
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if lc.JobID != m.JobID || lc.UID != m.UserID || lc.GID != m.GroupID {
		d.log.Warn("launch refused: credential is for another job or user", "job", m.JobID, "cred_job", lc.JobID,
			"uid", m.UserID, "cred_uid", lc.UID)
		return nil, wire.Errorf(errnoInvalidCredential, "Invalid job credential")
	}
	if len(m.Script) == 0 {
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: batch script is empty")
	}

	// One launch per job: a resent launch (the controller retried after a lost reply) finds
	// the job starting or running and succeeds without starting it twice.
	d.mu.Lock()
	if d.starting[m.JobID] {
		d.mu.Unlock()
		return nil, nil
	}
	if _, killed := d.wasKilled(m.NodeName, m.JobID, m.Restarts, time.Now()); killed {
		d.mu.Unlock()
		d.log.Info("launch refused: the job was terminated before it arrived", "job", m.JobID, "node", m.NodeName)
		return nil, wire.Errorf(errnoKillJobComplete, "Job already completed")
	}
	delete(d.killed, m.JobID) // an earlier incarnation's records, if any: this one runs
	d.starting[m.JobID] = true
	d.mu.Unlock()
	handedOff := false // a slow start is finished by awaitSlowStart, which then clears starting
	defer func() {
		if !handedOff {
			d.doneStarting(m.JobID)
		}
	}()
	// A running slurmstepd first, its done marker second: a slurmstepd ending now writes the
	// marker before it removes its state file, so in this order one of the two checks sees
	// it. The other order let a launch resent by a restarted controller, arriving as the
	// first run's end was acknowledged, find neither, and run the job twice.
	if st := d.liveBatch(h, m.JobID); st != nil {
		d.log.Info("launch repeated for a running job; not starting it again", "job", m.JobID, "node", m.NodeName)
		return nil, nil
	}
	if hook := launchChecked.Load(); hook != nil {
		(*hook)(m.JobID)
	}
	if stepdlaunch.Done(h.spool, m.JobID, m.Restarts, time.Now()) {
		d.log.Info("launch refused: this job already ran here and its end was reported", "job", m.JobID, "node", m.NodeName)
		return nil, wire.Errorf(errnoKillJobComplete, "Job already completed")
	}
	if err := d.batchProlog(h, m); err != nil { // prolog.go
		return nil, err
	}
	slow, err := d.startStepd(ctx, h, m)
	if err != nil {
		d.log.Error("batch launch failed", "job", m.JobID, "node", m.NodeName, "err", err)
		return nil, wire.Errorf(errnoExecveFailed, "Slurmd could not execve job: %v", err)
	}
	if slow != nil {
		handedOff = true
		go d.awaitSlowStart(m, slow)
		return nil, nil
	}
	d.endIfKilled(m)
	return nil, nil
}

// doneStarting ends the launch guard of job: a repeated launch is judged by its slurmstepd's
// state file from now on.
func (d *Daemon) doneStarting(job uint32) {
	d.mu.Lock()
	delete(d.starting, job)
	d.mu.Unlock()
}

// endIfKilled ends a batch step terminated while its slurmstepd was starting; the step then
// reports its end as usual.
func (d *Daemon) endIfKilled(m *wire.LaunchBatchJob) {
	d.mu.Lock()
	k, killed := d.wasKilled(m.NodeName, m.JobID, m.Restarts, time.Now())
	d.mu.Unlock()
	if killed {
		d.terminate(m.NodeName, m.JobID, k.timedOut, false, false)
	}
}

// slowStart is a slurmstepd that had not started its batch script when the launch was
// acknowledged, with the read end of its readiness pipe.
type slowStart struct {
	pid   int
	ready *os.File
}

// awaitSlowStart finishes a launch acknowledged before its script ran: a user's login
// environment (--get-user-env, --export=NONE) may take a login shell seconds to print, up to
// the 120 s Slurm allows it, and a loaded node starts slowly. Slurm's slurmd, too, answers a
// batch launch before the job starts and reports a failure afterwards as the job's
// completion (_launch_job_fail); so does this. The job stays "starting" meanwhile, so a
// repeated launch never starts it twice and a terminate ends it once it runs.
func (d *Daemon) awaitSlowStart(m *wire.LaunchBatchJob, s *slowStart) {
	defer d.doneStarting(m.JobID)
	d.log.Info("launch acknowledged; slurmstepd is still starting the batch script", "job", m.JobID, "node", m.NodeName, "stepd_pid", s.pid)
	// The stepd answers or exits (the pipe has no other writer), within the login shell's
	// 120 s and a message timeout of its own; one that does neither is killed, so a hung
	// start cannot leave the job running in the controller's eyes and starting in ours.
	limit := time.Duration(slowStartLimit.Load()) + d.timeout
	s.ready.SetReadDeadline(time.Now().Add(limit))
	err := stepdlaunch.ReadReady(s.ready)
	s.ready.Close()
	if errors.Is(err, os.ErrDeadlineExceeded) {
		syscall.Kill(-s.pid, syscall.SIGKILL) // its session (spawnStepd: Setsid), the login shell included
		err = fmt.Errorf("slurmstepd (pid %d) did not start the script within %v", s.pid, limit)
	}
	if err != nil {
		d.log.Error("batch launch failed", "job", m.JobID, "node", m.NodeName, "err", err)
		d.reportScript(wire.MsgBatchJobComplete, &wire.BatchJobComplete{JobID: m.JobID, NodeName: m.NodeName,
			LaunchFailed: true, Text: "Slurmd could not execve job: " + err.Error()}) // prolog.go
		return
	}
	d.log.Info("launched batch job", "job", m.JobID, "node", m.NodeName, "uid", m.UserID, "stepd_pid", strconv.Itoa(s.pid))
	d.endIfKilled(m)
}

// slowStartLimit is how long a slurmstepd acknowledged before its script ran may take to
// start it, beyond a message timeout: the 120 s Slurm gives a login shell to print the
// user's environment (slurmd/slurmstepd/env_batch.go). Tests shorten it (export_test.go).
var slowStartLimit atomic.Int64

func init() { slowStartLimit.Store(int64(120 * time.Second)) }

// launchChecked, set only by tests (export_test.go), runs between a batch launch's two
// checks for an earlier run of the job, where a slurmstepd ending at that moment would slip
// between them.
var launchChecked atomic.Pointer[func(job uint32)]

// liveBatch is the batch step of job on h, when its slurmstepd still runs: the script is
// running, or it ended and the slurmstepd is still reporting that to the controller. Either
// way a repeated launch must not start the job again.
func (d *Daemon) liveBatch(h *hosted, job uint32) *stepd.State {
	st, err := stepd.ReadState(stepd.StatePath(h.spool, job, stepd.BatchStep))
	if err != nil || !stepd.Alive(st) {
		return nil
	}
	return st
}

// startStepd writes the launch file, starts slurmstepd in its own session and waits for it
// to say the script runs. A slurmstepd still starting by then is returned as a slowStart.
func (d *Daemon) startStepd(ctx context.Context, h *hosted, m *wire.LaunchBatchJob) (*slowStart, error) {
	cfg := d.cfg
	b := &stepdlaunch.Batch{
		Msg: *m, NodeName: h.node.Name, Spool: h.spool, ConfPath: d.opts.ConfPath, KeyPath: d.keyPath,
		CtldAddrs: d.ctlds, ClusterName: cfg.ClusterName, CtldPort: uint32(cfg.SlurmctldPort),
		MessageTimeout: int(d.timeout / time.Second), KillWait: int(cfg.KillWait),
		LogFile: d.opts.LogFile, Debug: d.opts.Debug,
		AuthType: cfg.AuthType, AuthInfo: cfg.AuthInfo, PropagateRlimits: cfg.PropagateRlimits.Names(),
		TaskProlog: cfg.TaskProlog, TaskEpilog: cfg.TaskEpilog,
	}
	if b.ClusterName == "" {
		b.ClusterName = m.ClusterName
	}
	if len(cfg.SlurmctldHosts) > 0 {
		b.CtldAddr = cfg.SlurmctldHosts[0].Addr
	}
	if host, _, err := net.SplitHostPort(d.ctlds[0]); err == nil && b.CtldAddr == "" {
		b.CtldAddr = host
	}
	if v, ok := cfg.Get("TmpFS"); ok {
		b.TmpFS = v
	}
	b.Memory = d.memory(batchMemory(m, h.node.Name)) // cgroup.go
	if v, ok := cfg.Get("JobFileAppend"); ok {
		b.JobFileAppend = v == "1"
	}
	path := stepdlaunch.Path(h.spool, m.JobID)
	if err := stepdlaunch.Write(path, b); err != nil {
		return nil, err
	}
	defer d.refillSpare() // once this launch is done: a spare starting now would slow it
	cmd, r, err := d.spawnStepd("--batch", path, h.node.Name)
	if err != nil {
		return nil, err
	}
	// Half the message timeout, and never past the caller's own deadline less a tenth of
	// it, so the acknowledgement of a slow start reaches the controller before it gives up.
	deadline := time.Now().Add(d.timeout / 2)
	if dl, ok := ctx.Deadline(); ok && dl.Add(-d.timeout/10).Before(deadline) {
		deadline = dl.Add(-d.timeout / 10)
	}
	r.SetReadDeadline(deadline)
	err = stepdlaunch.ReadReady(r)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return &slowStart{pid: cmd.Process.Pid, ready: r}, nil
	}
	r.Close()
	if err != nil {
		return nil, err
	}
	d.log.Info("launched batch job", "job", m.JobID, "node", h.node.Name, "uid", m.UserID, "stepd_pid", strconv.Itoa(cmd.Process.Pid))
	return nil, nil
}

// spawnStepd starts `slurmstepd MODE LAUNCH_FILE` for node in its own session (it outlives
// slurmd; while slurmd runs, it reaps it), or hands that launch to the spare stepd
// (stepd_spare.go), and returns it with the read end of its readiness pipe (fd 3 in the
// stepd: stepdlaunch.ReadyFD). On failure the launch file is removed.
func (d *Daemon) spawnStepd(mode, path, node string) (*exec.Cmd, *os.File, error) {
	if cmd, r, ok := d.takeSpare(mode, path, node); ok {
		return cmd, r, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		os.Remove(path)
		return nil, nil, err
	}
	cmd := d.stepdCommand(mode, path)
	cmd.ExtraFiles = []*os.File{w}
	cmd.Env = append(cmd.Env, "SLURMD_NODENAME="+node)
	if err := cmd.Start(); err != nil {
		w.Close()
		r.Close()
		os.Remove(path)
		return nil, nil, fmt.Errorf("cannot start slurmstepd: %v", err)
	}
	w.Close()
	go cmd.Wait()
	return cmd, r, nil
}

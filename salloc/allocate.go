package main

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// errnoNotTopPriority is ESLURM_NOT_TOP_PRIORITY: with ESLURM_NODES_BUSY, the refusals
// under -I that salloc reports as "Unable to allocate resources" with SLURM_EXIT_IMMEDIATE.
const errnoNotTopPriority = 2013

// jobDesc is the allocation request: the job spec without a script.
func (s *session) jobDesc() wire.JobDesc {
	js := s.js
	host, _ := os.Hostname()
	if i := strings.IndexByte(host, '.'); i > 0 {
		host = host[:i]
	}
	d := wire.JobDesc{
		Name: js.Name, Partition: js.Partition, Account: js.Account, QOS: js.QOS,
		Reservation: js.Reservation, WCKey: js.WCKey, Comment: js.Comment,
		ReqNodes: js.NodeList, MinNodes: js.MinNodes, MaxNodes: js.MaxNodes,
		NumTasks: js.NTasks, NTasksPerNode: js.NTasksPerNode, CPUsPerTask: js.CPUsPerTask,
		MemPerNode: js.MemPerNode, MemPerCPU: js.MemPerCPU, TimeLimit: js.TimeLimit, TimeMin: js.TimeMin,
		Requeue: int32(js.Requeue), Nice: js.Nice, Priority: js.Priority,
		MailType: js.MailType, MailUser: js.MailUser,
		Dependency: js.Dependency, KillInvalid: int32(js.KillInvalidDep), Hold: js.Hold, NoKill: js.NoKill,
		WorkDir: js.WorkDir, SubmitDir: js.SubmitDir, SubmitHost: host, SubmitLine: js.SubmitLine, AllocSID: cmdclient.SessionID(),
		Environment:      os.Environ(),
		MinNodesInvasive: js.MinNodesInvasive, MaxNodesInvasive: js.MaxNodesInvasive,
		NodeConstraints: js.NodeConstraints, MinPower: js.MinPower, MaxPower: js.MaxPower,
		Gres: js.Gres, Licenses: js.Licenses, ExcNodes: js.Exclude, Constraint: js.Constraint,
	}
	if js.Exclusive == jobspec.SharedNone || js.Exclusive == jobspec.SharedUser || js.Exclusive == jobspec.SharedOK {
		d.Shared = int32(js.Exclusive) // --exclusive, --exclusive=user, --oversubscribe
	}
	d.SpreadJob, d.UseMinNodes = js.Site.SpreadJob, js.Site.UseMinNodes // the controller's placement
	cmdclient.StoredDesc(&d, js)
	cmdclient.SignalDesc(&d, js)
	if js.MinCPUs != jobspec.NoVal {
		d.MinCPUs = js.MinCPUs
	}
	if js.Site.TmpDiskMB != jobspec.NoVal64 {
		d.TmpDiskMB = js.Site.TmpDiskMB // for the controller's check (TmpDiskPartly)
	}
	d.ThreadsPerCore, d.NTasksPerCore = js.Site.ThreadsPerCore, js.Site.NTasksPerCore // whole cores
	if !js.Deadline.IsZero() {
		d.Deadline = js.Deadline.Unix()
	}
	if d.Name == "" {
		// Slurm's salloc names the job "no-shell" or "interactive", never after the command.
		d.Name = "interactive"
		if s.so.NoShell {
			d.Name = "no-shell"
		}
	}
	if d.MaxNodes == 0 {
		d.MaxNodes = wire.NoVal
	}
	// --begin and --dependency leave the allocation pending until they hold; salloc waits
	// through it with its "queued and waiting" lines, as Slurm's does.
	if !js.Begin.IsZero() {
		d.BeginTime = js.Begin.Unix()
	}
	if js.Requeue < 0 {
		d.Requeue = -1
	}
	d.UserID, d.UserIDSet, d.GroupID, d.GroupIDSet = js.UID, js.UIDSet, js.GID, js.GIDSet // --uid, --gid
	return d
}

// allocate requests the allocation and waits until it runs. It returns the allocation, or
// nil and salloc's exit code.
func (s *session) allocate(ctx context.Context, sigs chan os.Signal) (*wire.JobAllocInfo, int) {
	var rep wire.AllocateJobReply
	// -I (one second) is the controller's to judge; a longer -I is salloc's own wait below.
	err := s.call(ctx, wire.MsgAllocateJob, &wire.AllocateJobDesc{Job: s.jobDesc(), Immediate: s.so.Immediate == 1}, &rep)
	if err == nil && rep.Refused.Errno != 0 && s.so.Immediate > 0 {
		// Refused under -I: the job was recorded and ended FAILED. Slurm's salloc prints the
		// refusal, then its message thread hears the job is revoked.
		code := s.codes.Error
		if e := rep.Refused.Errno; e == errnoNotTopPriority || e == wire.ErrnoNodesBusy {
			s.errorf("Unable to allocate resources: %s", rep.Refused.Text)
			code = s.codes.Immediate
		} else {
			s.errorf("Job submit/allocate failed: %s", rep.Refused.Text)
		}
		s.info("Job allocation %d has been revoked.", rep.JobID)
		return nil, code
	}
	if err == nil && rep.Refused.Errno != 0 {
		// Recorded and refused at once (a memory request no node holds): Slurm's controller
		// tells salloc the job is complete, and salloc says so besides the refusal.
		s.info("Job allocation %d has been revoked.", rep.JobID)
		err = &rep.Refused
	}
	if err != nil {
		e := cmdclient.AsError(err)
		if e.UserMsg != "" {
			s.errorf("%s", e.UserMsg)
		}
		s.errorf("Job submit/allocate failed: %s", e.Text)
		return nil, s.codes.Error
	}
	s.jobID = rep.JobID
	start := time.Now()
	// Slurm's salloc says the job is pending when its allocation was not started at once,
	// after the reason its allocate RPC gave, if any.
	if rep.PendingMsg != "" {
		s.info("%s", rep.PendingMsg)
	}
	pending := !rep.Started
	if pending {
		s.info("Pending job allocation %d", s.jobID)
		s.info("job %d queued and waiting for resources", s.jobID)
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for first := true; ; first = false {
		var info wire.JobAllocInfo
		var err error
		if first && rep.Alloc != nil {
			info = *rep.Alloc // started by the allocate RPC: no need to ask
		} else {
			err = s.call(ctx, wire.MsgJobAllocInfo, &wire.JobAllocInfoRequest{JobID: s.jobID}, &info)
		}
		if err != nil && !cmdclient.Unreachable(err) {
			s.errorf("Job submit/allocate failed: %s", cmdclient.AsError(err).Text)
			return nil, s.codes.Error
		}
		st := states.JobState(info.State)
		if err != nil {
			st = states.JobPending // the controller is away (restarting): wait on
		}
		switch {
		case st.IsRunning() && !st.IsCompleting():
			if pending {
				s.info("job %d has been allocated resources", s.jobID)
			}
			return &info, 0
		case !st.IsPending():
			// Cancelled (scancel) or ended while waiting.
			s.info("Job allocation %d has been revoked.", s.jobID)
			s.errorf("Job submit/allocate failed: Job/step already completing or completed")
			return nil, s.codes.Error
		}
		if s.so.Immediate > 1 && time.Since(start) >= time.Duration(s.so.Immediate)*time.Second {
			// -I N: the job did not start within N seconds. Slurm's salloc takes the request
			// back (slurm_complete_job) and reports its own wait's timeout.
			s.release(ctx, wire.NoVal)
			s.errorf("Unable to allocate resources: Connection timed out")
			s.info("Job allocation %d has been revoked.", s.jobID)
			return nil, s.codes.Immediate
		}
		select {
		case <-sigs:
			// Slurm's salloc gives the job back; the controller's word that it ended comes
			// before salloc's own line.
			s.release(ctx, wire.NoVal)
			s.info("Job allocation %d has been revoked.", s.jobID)
			s.info("Job aborted due to signal")
			return nil, s.codes.Error
		case <-tick.C:
		}
	}
}

// ntasks is the task count salloc exports (SLURM_NTASKS), as Slurm's salloc computes it
// after the grant: with -n, at least one task per node, or nodes × --ntasks-per-node.
func (s *session) ntasks(nodes int) uint32 {
	js := s.js
	if js.NTasks == jobspec.NoVal {
		if js.NTasksPerNode != jobspec.NoVal {
			return uint32(nodes) * js.NTasksPerNode
		}
		return 0
	}
	if js.NTasksPerNode != jobspec.NoVal {
		return uint32(nodes) * js.NTasksPerNode
	}
	return max(js.NTasks, uint32(nodes))
}

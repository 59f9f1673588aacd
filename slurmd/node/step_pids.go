package node

import (
	"context"
	"os"
	"strconv"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
)

func (d *Daemon) registerStepQueries() {
	d.srv.HandleRPC(wire.MsgStepPids, d.handleStepPids)
	d.srv.HandleRPC(wire.MsgPidJob, d.handlePidJob)
	d.srv.HandleRPC(wire.MsgDaemonStatus, d.handleDaemonStatus) // daemon_status.go
}

// nodeSteps is the steps running on hosted node h, from their state files, with whether
// each one's supervisor runs other steps too (the shares of a wide step, or slurmd itself).
func nodeSteps(h *hosted) (steps []*stepd.State, shared map[*stepd.State]bool) {
	all, _ := stepd.ListSteps(h.spool) // unreadable files are steps we cannot show
	bySupervisor := map[int]int{}
	for _, st := range all {
		if !st.Ended() && stepd.Alive(st) {
			steps = append(steps, st)
			bySupervisor[st.Pid]++
		}
	}
	shared = map[*stepd.State]bool{}
	for _, st := range steps {
		shared[st] = bySupervisor[st.Pid] > 1 || st.Pid == os.Getpid()
	}
	return steps, shared
}

// handleStepPids serves scontrol listpids and getent: the processes of the node's running
// steps that match, whoever asks (Slurm's slurmstepd lists its pids to any local user).
func (d *Daemon) handleStepPids(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.StepPidsRequest)
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	if req.Identity == nil {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	steps, shared := nodeSteps(h)
	tree := stepd.ReadProcTree()
	rep := &wire.StepPidsReply{}
	for _, st := range steps {
		if m.JobID != 0 && st.JobID != m.JobID || m.StepID != "" && st.StepID != m.StepID {
			continue
		}
		tasks, others := stepd.StepProcesses(st, shared[st], tree)
		sp := wire.StepPids{JobID: st.JobID, StepID: st.StepID, UID: st.UID}
		for _, t := range tasks {
			sp.Tasks = append(sp.Tasks, wire.TaskPid{Pid: uint32(t.Pid), LocalID: uint32(t.LocalID), GlobalID: uint32(t.Rank)})
		}
		for _, p := range others {
			sp.Others = append(sp.Others, uint32(p))
		}
		rep.Steps = append(rep.Steps, sp)
	}
	return rep, nil
}

// handlePidJob serves scontrol pidinfo (Slurm's REQUEST_JOB_ID): the job a process of this
// machine belongs to, through the steps of every node this slurmd hosts; only its user or an
// operator is told.
func (d *Daemon) handlePidJob(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.PidJobRequest)
	tree := stepd.ReadProcTree()
	for _, h := range d.nodes {
		steps, shared := nodeSteps(h)
		for _, st := range steps {
			if stepd.StepHolds(st, shared[st], int(m.Pid), tree) {
				if req.Identity == nil || st.UID != req.Identity.UID && !d.privileged(req) {
					break // another user's job: Slurm's slurmd answers as if none held it
				}
				return &wire.PidJobReply{JobID: st.JobID}, nil
			}
		}
	}
	return nil, wire.Errorf(errnoInvalidJobID, "Invalid job id specified (no job holds pid %s)", strconv.Itoa(int(m.Pid)))
}

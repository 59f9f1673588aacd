package node

import (
	"context"
	"os"
	"strconv"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
	"golang.org/x/sys/unix"
)

// handleStepTimeLimit serves MsgStepTimeLimit (the controller's part of scontrol update
// StepId= TimeLimit=): the new limit goes in a file beside the step's state file and the
// step's stepd is told to read it (stepdlaunch.SigTimeLimit); the stepd ends the step when
// the limit, counted from the step's start, is reached.
func (d *Daemon) handleStepTimeLimit(_ context.Context, req *wire.Request) (any, error) {
	m := req.Body.(*wire.StepTimeLimit)
	if !d.privileged(req) {
		return nil, wire.NewError(wire.ErrnoAccessDenied)
	}
	h := d.nodes[m.NodeName]
	if h == nil {
		return nil, errInvalidNode(m.NodeName)
	}
	path := stepd.StatePath(h.spool, m.JobID, strconv.FormatUint(uint64(m.StepID), 10))
	st, err := stepd.ReadState(path)
	if err != nil || st.Ended() || !stepd.Alive(st) {
		return nil, wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
	}
	limit := stepdlaunch.TimeLimitPath(path)
	tmp := limit + ".new"
	if err := os.WriteFile(tmp, []byte(strconv.FormatUint(uint64(m.TimeLimit), 10)), 0o600); err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "step time limit: %v", err)
	}
	if err := os.Rename(tmp, limit); err != nil {
		os.Remove(tmp)
		return nil, wire.Errorf(wire.ErrnoSlurmError, "step time limit: %v", err)
	}
	if err := unix.Kill(st.Pid, stepdlaunch.SigTimeLimit); err != nil {
		os.Remove(limit)
		return nil, wire.Errorf(errnoInvalidJobID, "Invalid job id specified")
	}
	d.log.Info("step time limit updated", "job", m.JobID, "step", m.StepID, "node", m.NodeName, "minutes", m.TimeLimit)
	return nil, nil
}

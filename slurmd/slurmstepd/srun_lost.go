package main

import (
	"log/slog"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// srunLostDeadline bounds the stepd's attempts to tell the controller that srun is gone.
const srunLostDeadline = 2 * time.Minute

// reportSrunLost tells the controller what srun would have once its step, killed because
// srun was lost, has ended: the step's end and, when srun allocated the job, the job's
// release without a status, which Slurm records as CANCELLED (the srun shepherd's
// slurm_complete_job(job, NO_VAL)). Only the stepd running node 0's share reports, so a
// step on many nodes is reported once.
func reportSrunLost(l *stepdlaunch.Step, runs []*nodeRun, log *slog.Logger) {
	first := false
	var exits []stepd.TaskExit
	for _, r := range runs {
		first = first || r.l.Msg.NodeID == 0
		exits = append(exits, r.step.Wait()...)
	}
	if !first {
		return
	}
	ctl, err := newControllers(l.CtldAddrs, l.MessageTimeout, l.AuthType, l.AuthInfo, l.KeyPath)
	if err != nil {
		log.Error("cannot report the step of a lost srun", "job", l.Msg.JobID, "step", l.Msg.StepID, "err", err)
		return
	}
	end := stepd.StepExit(exits)
	status := uint32(end.ExitCode&0xff) << 8
	if end.Signal != 0 {
		status = uint32(end.Signal)
	}
	done := &wire.StepComplete{JobID: l.Msg.JobID, StepID: l.Msg.StepID, ExitCode: status}
	if err := ctl.tell(wire.MsgStepComplete, done, l.Msg.JobID, srunLostDeadline, log); err != nil {
		log.Error("step end of a lost srun not reported", "job", l.Msg.JobID, "step", l.Msg.StepID, "err", err)
	}
	if !l.Msg.SrunAlloc {
		return
	}
	release := &wire.CompleteJobAlloc{JobID: l.Msg.JobID, ExitCode: wire.NoVal}
	if err := ctl.tell(wire.MsgCompleteJobAlloc, release, l.Msg.JobID, srunLostDeadline, log); err != nil {
		log.Error("allocation of a lost srun not released", "job", l.Msg.JobID, "err", err)
	}
}

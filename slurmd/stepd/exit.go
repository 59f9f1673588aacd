package stepd

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// TaskExit is how one task ended.
type TaskExit struct {
	Rank       int    `json:"rank"`
	LocalID    int    `json:"local_id"`
	Pid        int    `json:"pid"`
	ExitCode   int    `json:"exit_code"`   // exit status when the task exited, else 0
	Signal     int    `json:"signal"`      // the signal that ended it, else 0
	CoreDumped bool   `json:"core_dumped"` // the signal dumped core
	Status     uint32 `json:"status"`      // the raw wait status, as Slurm passes it around
}

// String is Slurm's ExitCode=rc:sig form.
func (e TaskExit) String() string { return fmt.Sprintf("%d:%d", e.ExitCode, e.Signal) }

// Failed reports whether the task exited nonzero or was killed by a signal.
func (e TaskExit) Failed() bool { return e.ExitCode != 0 || e.Signal != 0 }

func taskExit(t *task, ws unix.WaitStatus) TaskExit {
	e := TaskExit{Rank: t.Rank, LocalID: t.LocalID, Pid: t.pid, Status: uint32(ws)}
	switch {
	case ws.Exited():
		e.ExitCode = ws.ExitStatus()
	case ws.Signaled():
		e.Signal = int(ws.Signal())
		e.CoreDumped = ws.CoreDump()
	}
	return e
}

// ExitStatus is a step's or job's exit status in Slurm's rc:sig form.
type ExitStatus struct {
	ExitCode int `json:"exit_code"`
	Signal   int `json:"signal"`
}

// String is Slurm's ExitCode=rc:sig form.
func (e ExitStatus) String() string { return fmt.Sprintf("%d:%d", e.ExitCode, e.Signal) }

// StepExit is the step's exit status as slurmstepd reports it (and, for the batch step, the
// job's ExitCode): the first task, in local order, that was killed by a signal decides;
// otherwise the highest exit code of all tasks.
func StepExit(exits []TaskExit) ExitStatus {
	var out ExitStatus
	for _, e := range exits {
		if e.Signal != 0 {
			return ExitStatus{ExitCode: e.ExitCode, Signal: e.Signal}
		}
		if e.ExitCode > out.ExitCode {
			out.ExitCode = e.ExitCode
		}
	}
	return out
}

// SrunExitCode is the exit code srun returns for these tasks: the highest of each task's
// exit code or, for a task killed by a signal, 128 + the signal (man srun, RETURN VALUE).
func SrunExitCode(exits []TaskExit) int {
	rc := 0
	for _, e := range exits {
		v := e.ExitCode
		if e.Signal != 0 {
			v = 128 + e.Signal
		}
		if v > rc {
			rc = v
		}
	}
	return rc
}

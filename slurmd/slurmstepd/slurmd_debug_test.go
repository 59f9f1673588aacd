package main

import (
	"testing"

	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// TestStepDebug_Off: without srun --slurmd-debug (or with a level that logs nothing above
// info) there is no stepDebug, and every use of the nil one is a no-op: the step runs as
// before.
func TestStepDebug_Off(t *testing.T) {
	l := &stepdlaunch.Step{NodeName: "n1"}
	spec := &stepd.StepSpec{}
	for _, level := range []uint16{0, 1} {
		l.Msg.SlurmdDebug = level
		if g := newStepDebug(l, nil, spec); g != nil {
			t.Errorf("--slurmd-debug=%d: a stepDebug", level)
		}
	}
	var g *stepDebug
	g.starting(l, 1)
	g.runningAll(spec, nil)
	g.taskExited(stepd.TaskExit{})
	g.done()
}

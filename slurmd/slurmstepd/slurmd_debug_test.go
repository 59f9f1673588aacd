package main

import (
	"io"
	"testing"

	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// TestStepDebug_Off: without srun --slurmd-debug (or with a level that logs nothing above
// info, or with the first task's stderr going to a file) there is no stepDebug, and every use of the nil one is a no-op: the step runs as
// before.
func TestStepDebug_Off(t *testing.T) {
	l := &stepdlaunch.Step{NodeName: "n1"}
	// The first task's stderr goes to srun: only the level decides.
	spec := &stepd.StepSpec{Tasks: []stepd.Task{{Stderr: stepd.Stdio{Writer: io.Discard}}}}
	for level, want := range map[uint16]bool{0: false, 1: false, 2: true, 3: true} {
		l.Msg.SlurmdDebug = level
		if g := newStepDebug(l, nil, spec); (g != nil) != want {
			t.Errorf("--slurmd-debug=%d: stepDebug %v, want one: %v", level, g, want)
		}
	}
	l.Msg.SlurmdDebug = 2
	if g := newStepDebug(l, nil, &stepd.StepSpec{Tasks: []stepd.Task{{}}}); g != nil {
		t.Error("a stepDebug whose first task's stderr does not go to srun")
	}
	var g *stepDebug
	g.starting(l, 1)
	g.runningAll(spec, nil)
	g.taskExited(stepd.TaskExit{})
	g.done()
}

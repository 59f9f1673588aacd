package main

import (
	"fmt"
	"os"
	"time"

	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// stepDebug is srun --slurmd-debug on one node's share of a step: slurmstepd's own log lines,
// at error plus the level asked (at most debug3), written where the first task's stderr goes
// when that is srun, as Slurm's slurmstepd points its stderr log at its first task's stderr
// (_slurmd_job_log_init). Orbit writes the lines of Slurm's that describe what it does too:
// the levels, the tasks' starts and ends, and the I/O's life; nil writes nothing.
type stepDebug struct {
	level   uint16
	node    string
	sink    *srunSink
	rank    uint32
	started chan struct{} // closed once the tasks' start lines are out: their ends follow them
}

func newStepDebug(l *stepdlaunch.Step, sink *srunSink, spec *stepd.StepSpec) *stepDebug {
	asked := l.Msg.SlurmdDebug
	if asked == 0 || len(spec.Tasks) == 0 || spec.Tasks[0].Stderr.Writer == nil {
		return nil
	}
	level := uint16(min(uint32(loglevel.Error)+uint32(asked), uint32(loglevel.Debug3)))
	if level < loglevel.Verbose {
		return nil // --slurmd-debug=fatal: nothing is logged at info or below
	}
	return &stepDebug{level: level, node: l.NodeName, sink: sink, rank: uint32(spec.Tasks[0].Rank), started: make(chan struct{})}
}

// logf writes one line at level at, with Slurm's prefix for the debug levels.
func (g *stepDebug) logf(at uint16, format string, args ...any) {
	if g == nil || at > g.level {
		return
	}
	prefix := ""
	switch at {
	case loglevel.Debug:
		prefix = "debug:  "
	case loglevel.Debug2:
		prefix = "debug2: "
	case loglevel.Debug3:
		prefix = "debug3: "
	}
	line := fmt.Sprintf("slurmstepd-%s: %s%s\n", g.node, prefix, fmt.Sprintf(format, args...))
	g.sink.write(stepio.Stderr, g.rank, []byte(line))
}

// starting is what slurmstepd says before it starts the tasks.
func (g *stepDebug) starting(l *stepdlaunch.Step, tasks int) {
	if g == nil {
		return
	}
	g.logf(loglevel.Verbose, "debug levels are stderr='%s', logfile='%s', syslog='%s'",
		loglevel.Name(g.level), l.LogLevels[0], l.LogLevels[1])
	g.logf(loglevel.Debug, "IO handler started pid=%d", os.Getpid())
	g.logf(loglevel.Verbose, "starting %d tasks", tasks)
}

// runningAll is what it says once every task runs (a nil step: the start failed).
func (g *stepDebug) runningAll(spec *stepd.StepSpec, step *stepd.Step) {
	if g == nil {
		return
	}
	defer close(g.started)
	if step == nil {
		return
	}
	now := time.Now().Format("2006-01-02T15:04:05")
	for i, pid := range step.Pids() {
		g.logf(loglevel.Verbose, "task %d (%d) started %s", spec.Tasks[i].Rank, pid, now)
	}
	g.logf(loglevel.Debug, "Sending launch resp rc=0")
}

// taskExited is its line for a task's end.
func (g *stepDebug) taskExited(e stepd.TaskExit) {
	if g == nil {
		return
	}
	<-g.started
	if e.Signal != 0 {
		core := ""
		if e.CoreDumped {
			core = " (core dumped)"
		}
		g.logf(loglevel.Verbose, "task %d (%d) exited. Killed by signal %d%s.", e.Rank, e.Pid, e.Signal, core)
		return
	}
	g.logf(loglevel.Verbose, "task %d (%d) exited with exit code %d.", e.Rank, e.Pid, e.ExitCode)
}

// done is what it says as the step's I/O closes.
func (g *stepDebug) done() {
	g.logf(loglevel.Debug, "Waiting for IO")
	g.logf(loglevel.Debug, "Closing debug channel")
}

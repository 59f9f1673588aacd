package main

import (
	"fmt"
	"os"
	"strings"
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
	// step is "StepId=J.S" as the plugins' lines name it; taskNone says the node runs
	// task/none and mpiNone the step mpi/none, whose debug lines Slurm's stepd prints.
	step              string
	taskNone, mpiNone bool
}

func newStepDebug(l *stepdlaunch.Step, sink *srunSink, spec *stepd.StepSpec) *stepDebug {
	asked := l.Msg.SlurmdDebug
	if asked == 0 || len(spec.Tasks) == 0 || spec.Tasks[0].Stderr.Writer == nil {
		return nil
	}
	level := uint16(min(uint32(loglevel.Error)+uint32(asked), uint32(loglevel.Debug2))) // srun caps it so too
	if level < loglevel.Verbose {
		return nil // --slurmd-debug=fatal: nothing is logged at info or below
	}
	g := &stepDebug{level: level, node: l.NodeName, sink: sink, rank: uint32(spec.Tasks[0].Rank), started: make(chan struct{}),
		step:     fmt.Sprintf("StepId=%d.%d", l.Msg.JobID, l.Msg.StepID),
		taskNone: l.TaskPlugin == "" || strings.EqualFold(l.TaskPlugin, "task/none"),
		mpiNone:  true}
	for _, kv := range spec.Env {
		if v, ok := strings.CutPrefix(kv, "SLURM_MPI_TYPE="); ok && v != "none" {
			g.mpiNone = false
		}
	}
	return g
}

// taskPlugin writes a task/none debug line of fn (task_p_...), as Slurm's prints them.
func (g *stepDebug) taskPlugin(fn, rest string) {
	if g != nil && g.taskNone {
		g.logf(loglevel.Debug, "task/none: %s: %s: %s%s", fn, fn, g.step, rest)
	}
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
	for range step.Pids() {
		g.taskPlugin("task_p_pre_set_affinity", "")
		g.taskPlugin("task_p_set_affinity", "")
		g.taskPlugin("task_p_post_set_affinity", "")
	}
	g.logf(loglevel.Debug, "Sending launch resp rc=0")
	// What each task's process says before it runs the program.
	for _, t := range spec.Tasks {
		if g.mpiNone {
			g.logf(loglevel.Debug, "mpi/none: mpi_p_slurmstepd_task: Using mpi/none")
		}
		g.taskPlugin("task_p_pre_launch", fmt.Sprintf(", task %d", t.Rank))
	}
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
		g.taskPlugin("task_p_post_term", fmt.Sprintf(", task %d", e.Rank))
		return
	}
	g.logf(loglevel.Verbose, "task %d (%d) exited with exit code %d.", e.Rank, e.Pid, e.ExitCode)
	g.taskPlugin("task_p_post_term", fmt.Sprintf(", task %d", e.Rank))
}

// done is what it says as the step's I/O closes.
func (g *stepDebug) done() {
	g.logf(loglevel.Debug, "signaling condition")
	g.logf(loglevel.Debug, "Waiting for IO")
	g.logf(loglevel.Debug, "Closing debug channel")
}

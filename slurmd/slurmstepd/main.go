// Command slurmstepd supervises one job step on one node, as Slurm's slurmstepd does: a job's
// batch step (--batch) or one node's tasks of an srun step (--step, step.go; one stepd for
// all the step's nodes an emulating slurmd hosts). slurmd starts
// it (in its own session, so it outlives slurmd) with the path of a launch file
// (slurmd/stepdlaunch) and a readiness pipe on fd 3. For a batch step it builds the batch environment
// (env_batch.go), runs the script as the job's user with slurmd/stepd, answers "ok" on the
// pipe once the script runs, waits for the end, and then reports MsgBatchJobComplete to the
// controller itself (complete.go), retrying until acknowledged. The step's state file lets a
// restarted slurmd find it. SIGTERM from slurmd cancels the step, SIGUSR2 ends it as timed
// out (stepdlaunch.SigCancel, SigTimeout); the step's own time limit is enforced here too.
//
// For an srun step it connects to srun's I/O port, runs the tasks, forwards srun's stdin and
// the tasks' output, sends each task's exit to srun, and leaves; srun reports the step's end.
//
// Usage: slurmstepd --batch LAUNCH_FILE | --step LAUNCH_FILE | --spare
//
// A spare (spare.go) is started by slurmd ahead of need and told its mode and launch file
// on an inherited pipe.
//
// It imports slurmd/stepd, slurmd/stepdlaunch, srun/stepio, compat/, internal/auth and
// internal/wire; never the controller, the store or conf/ (everything it needs from
// slurm.conf is in the launch file). A process starts per step and node, so it stays small:
// check `go list -deps` before adding an import.
package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/filepattern"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/version"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

const usage = "Usage: slurmstepd --batch LAUNCH_FILE | --step LAUNCH_FILE | --spare\n" +
	"slurmstepd is started by slurmd; it is not meant to be run by hand.\n"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	switch {
	case len(args) == 1 && (args[0] == "-V" || args[0] == "--version"):
		fmt.Println(version.String())
		return 0
	case len(args) == 1 && (args[0] == "-h" || args[0] == "--help"):
		fmt.Print(usage)
		return 0
	case len(args) == 2 && args[0] == "--step":
		return runStep(args[1])
	case len(args) == 1 && args[0] == stepdlaunch.SpareFlag:
		return runSpare()
	case len(args) != 2 || args[0] != "--batch":
		fmt.Fprint(os.Stderr, usage)
		return 1
	}
	ready := os.NewFile(stepdlaunch.ReadyFD, "ready")
	b, err := stepdlaunch.Read(args[1])
	if err != nil {
		fail(ready, err)
		return 1
	}
	log := logger(b.LogFile, b.Debug)
	// Signals are caught before the step starts, so slurmd can cancel it as soon as it has
	// the state file (written by stepd.Start).
	sigs := catchSignals() // signals.go

	spec, err := batchSpec(b)
	if err != nil {
		fail(ready, err)
		log.Error("launch failed", "job", b.Msg.JobID, "err", err)
		return 1
	}
	takeRlimits(spec, b.PropagateRlimits, log)                               // rlimits.go
	cg := memCgroup(b.Memory, b.NodeName, b.Msg.JobID, stepd.BatchStep, log) // oom.go
	oom := &oomWatch{cg: cg, node: b.NodeName, step: stepName(b.Msg.JobID, stepd.BatchStep)}
	spec.Cgroup, spec.PostTerm = cg, oom.postTerm
	step, err := stepd.Start(*spec)
	var ioErr *stepd.IOSetupError
	if errors.As(err, &ioErr) {
		// Slurm's slurmstepd accepts the launch (refusing it would drain the node), logs
		// the error and ends the job FAILED with the errno as its status (ExitCode 0:53).
		removeCgroup(cg, log)
		log.Error("IO setup failed", "job", b.Msg.JobID, "err", err)
		if ready != nil {
			io.WriteString(ready, stepdlaunch.Ready+"\n")
			ready.Close()
		}
		return finish(b, &wire.BatchJobComplete{JobID: b.Msg.JobID, NodeName: b.NodeName, LaunchFailed: true,
			WaitStatus: errnoIOError, Text: err.Error()}, nil, log)
	}
	if err != nil {
		removeCgroup(cg, log)
		fail(ready, err)
		log.Error("launch failed", "job", b.Msg.JobID, "err", err)
		return 1
	}
	if ready != nil {
		io.WriteString(ready, stepdlaunch.Ready+"\n")
		ready.Close()
	}
	log.Info("batch script started", "job", b.Msg.JobID, "node", b.NodeName, "pid", step.Pids())

	timedOut, said := false, false
	// A terminate repeated (a time limit after a cancel) writes no second CANCELLED line.
	jobCancelled := func(sig os.Signal) {
		if !said {
			said = true
			step.Log(cancelledLine(b, sig))
			// The controller's reason, when slurmd left one (Slurm's kill details).
			p := stepdlaunch.DetailsPath(b.Spool, b.Msg.JobID)
			if details, err := os.ReadFile(p); err == nil {
				os.Remove(p)
				step.Log(fmt.Sprintf("slurmstepd-%s: error: *** REASON: %s ***\n", b.NodeName, details))
			}
		}
	}
	for waiting := true; waiting; {
		select {
		case s := <-sigs:
			switch s {
			case stepdlaunch.SigCancel, stepdlaunch.SigRequeue, stepdlaunch.SigPreempt:
				log.Info("cancelling", "job", b.Msg.JobID, "requeued", s == stepdlaunch.SigRequeue, "preempted", s == stepdlaunch.SigPreempt)
				jobCancelled(s)
				step.Kill()
			case stepdlaunch.SigTimeout:
				log.Info("time limit reached, killing", "job", b.Msg.JobID)
				timedOut = true
				jobCancelled(s)
				step.Kill()
			}
			// SIGINT, SIGHUP: slurmstepd is not stopped by a terminal or a dying slurmd.
		case <-step.Done():
			waiting = false
		}
	}
	exits := step.Wait()
	removeCgroup(cg, log)
	state := step.State()
	c := &wire.BatchJobComplete{
		JobID:       b.Msg.JobID,
		NodeName:    b.NodeName,
		TimedOut:    timedOut || state == stepd.StateTimeout,
		Cancelled:   state == stepd.StateCancelled && !timedOut,
		OutOfMemory: oom.oom(),
	}
	if len(exits) > 0 {
		c.WaitStatus = exits[0].Status
	}
	log.Info("batch script ended", "job", b.Msg.JobID, "state", state, "exit", step.ExitStatus().String())
	return finish(b, c, step, log)
}

// cancelledLine is slurmstepd's "*** JOB <id> ON <node> CANCELLED AT <time> ***" line
// (with Slurm's "DUE TO TIME LIMIT" or "DUE TO JOB REQUEUE"), which Slurm's slurmstepd
// writes into the batch script's error file when the job is ended under it.
func cancelledLine(b *stepdlaunch.Batch, sig os.Signal) string {
	return fmt.Sprintf("slurmstepd-%s: error: *** JOB %d ON %s CANCELLED AT %s%s ***\n", b.NodeName, b.Msg.JobID,
		b.NodeName, time.Now().Format("2006-01-02T15:04:05"), cancelReason(sig))
}

// cancelReason is the end of slurmstepd's CANCELLED line for the stepd signal sig.
func cancelReason(sig os.Signal) string {
	switch sig {
	case stepdlaunch.SigTimeout:
		return " DUE TO TIME LIMIT"
	case stepdlaunch.SigRequeue:
		return " DUE TO JOB REQUEUE"
	case stepdlaunch.SigPreempt:
		return " DUE TO PREEMPTION"
	}
	return ""
}

// finish reports the end of the batch step to the controller and removes what the step left
// in the spool once the controller has it.
func finish(b *stepdlaunch.Batch, c *wire.BatchJobComplete, step *stepd.Step, log *slog.Logger) int {
	if err := reportComplete(b, c, log); err != nil {
		// The state file stays (it records the end): a restarted slurmd lists the job as not
		// running and the controller reconciles.
		log.Error("completion not delivered", "job", b.Msg.JobID, "err", err)
		return 1
	}
	if err := stepdlaunch.MarkDone(b.Spool, b.Msg.JobID, b.Msg.Restarts); err != nil {
		log.Warn("cannot mark the job done", "job", b.Msg.JobID, "err", err)
	}
	// The launch file goes before the state file: once the state file is gone slurmd may
	// accept a later incarnation of the job, whose launch file has the same name.
	os.Remove(stepdlaunch.Path(b.Spool, b.Msg.JobID))
	if step != nil {
		stepd.RemoveState(step.StatePath()) // and the job's directory, once empty
	} else {
		os.Remove(stepd.JobDir(b.Spool, b.Msg.JobID))
	}
	return 0
}

// fail tells slurmd why the step did not start.
func fail(ready *os.File, err error) {
	if ready == nil {
		fmt.Fprintln(os.Stderr, "slurmstepd: error:", err)
		return
	}
	fmt.Fprintf(ready, "%v\n", err)
	ready.Close()
}

func logger(file string, debug bool) *slog.Logger {
	var w io.Writer = os.Stderr
	if file != "" {
		if f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0640); err == nil {
			w = f
		}
	}
	lvl := slog.LevelInfo
	if debug {
		lvl = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl})).With("daemon", "slurmstepd", "pid", os.Getpid())
}

// batchSpec turns the launch into the step the stepd package runs.
func batchSpec(b *stepdlaunch.Batch) (*stepd.StepSpec, error) {
	m := &b.Msg
	env, err := batchEnv(b)
	if err != nil {
		return nil, err
	}
	if um, ok := lookup(m.Environment, "SLURM_UMASK"); ok {
		if v, err := strconv.ParseUint(um, 8, 32); err == nil {
			syscall.Umask(int(v & 0777))
		}
	}
	killWait := int(m.KillWait)
	if killWait == 0 {
		killWait = b.KillWait
	}
	timeLimit := 0
	if m.TimeLimit != 0 && m.TimeLimit != wireInfinite && m.TimeLimit != noVal {
		timeLimit = int(m.TimeLimit) * 60
	}
	host, _ := os.Hostname()
	f := filepattern.Fields{
		JobID: m.JobID, ArrayJobID: m.ArrayJobID, ArrayTaskID: m.ArrayTaskID,
		IsArray: m.ArrayTaskID != noVal && m.ArrayJobID != 0, StepID: filepattern.BatchStep,
		JobName: m.JobName, User: m.UserName, FirstNode: host,
	}
	if !f.IsArray {
		f.ArrayTaskID = noVal
	}
	workDir := m.WorkDir
	if workDir == "" {
		workDir = "/"
	}
	out := m.StdOut
	if out == "" {
		out = filepattern.DefaultBatchStdout
		if f.IsArray {
			out = filepattern.DefaultBatchArrayStdout
		}
	}
	appendMode := b.JobFileAppend
	switch jobspec.OpenMode(m.OpenMode) {
	case jobspec.OpenModeAppend:
		appendMode = true
	case jobspec.OpenModeTruncate:
		appendMode = false
	}
	task := stepd.Task{Argv: append([]string{"slurm_script"}, m.ScriptArgs...)}
	task.Stdout = stepd.Stdio{Path: filepattern.Path(out, workDir, f), Append: appendMode}
	if m.StdErr != "" {
		task.Stderr = stepd.Stdio{Path: filepattern.Path(m.StdErr, workDir, f), Append: appendMode}
	} else {
		task.Stderr = task.Stdout // stderr joins stdout, as with sbatch when -e is not given
	}
	if m.StdIn != "" {
		task.Stdin = stepd.Stdio{Path: filepattern.Path(m.StdIn, workDir, f)}
	} else {
		task.Stdin = stepd.Stdio{Path: "/dev/null"}
	}
	spec := &stepd.StepSpec{
		JobID: m.JobID, StepID: stepd.BatchStep, NodeName: b.NodeName, Spool: b.Spool,
		UID: m.UserID, GID: m.GroupID, WorkDir: workDir, Env: env, Script: []byte(m.Script),
		Tasks: []stepd.Task{task}, TimeLimit: timeLimit, LimitAtController: true, KillWait: killWait,
		TaskPidEnv:  "SLURM_TASK_PID",
		TaskScripts: stepd.TaskScripts{Prolog: b.TaskProlog, Epilog: b.TaskEpilog},
	}
	if m.SignalNumber > 0 {
		spec.PreTimeout = &stepd.PreTimeoutSignal{Signal: syscall.Signal(m.SignalNumber), Seconds: int(m.SignalTime),
			BatchOnly: m.SignalFlags&wire.KillBatchOnly != 0}
	}
	return spec, nil
}

// wireInfinite is Slurm's INFINITE for a time limit in minutes.
const wireInfinite = 0xFFFFFFFF

func lookup(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := cutName(env[i], name); ok {
			return v, true
		}
	}
	return "", false
}

func cutName(kv, name string) (string, bool) {
	if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
		return kv[len(name)+1:], true
	}
	return "", false
}

package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/compat/filepattern"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
	"github.com/orbit-hpc/orbit/srun/multiprog"
	"github.com/orbit-hpc/orbit/srun/stepio"
)

// Slurm errnos a step launch fails with (slurm_errno.h, 22.05).
const errnoExecveFailed int32 = 4020 // ESLURMD_EXECVE_FAILED

// errnoIOError is ESLURMD_IO_ERROR: a batch step whose files cannot be opened reports it as
// the job's status.
const errnoIOError = 4021

// startWorkers bounds the nodes whose tasks a several-node stepd starts at once: forks are
// serialized by the runtime anyway, but dialing srun and writing state files overlap.
const startWorkers = 4

// runStep supervises an srun step's tasks (slurmstepd --step LAUNCH_FILE) on one node, or on
// every node of the launch that this slurmd hosts (an emulating slurmd starts one stepd per
// step, not one per node). Each node's share runs as it would in a stepd of its own (its own
// streams to srun, on the stepd's one connection, environment, memory cgroup and state file
// in its own spool), so slurmd
// signals, terminates and reattaches per node exactly as before. The readiness pipe gets one
// line per node, in the launch's order.
func runStep(path string) int {
	ready := os.NewFile(stepdlaunch.ReadyFD, "ready")
	l, err := stepdlaunch.ReadStep(path)
	if err != nil {
		if ready == nil {
			fmt.Fprintln(os.Stderr, "slurmstepd: error:", err)
		} else {
			stepdlaunch.WriteStepFailure(ready, errnoExecveFailed, "Slurmd could not execve job: "+err.Error())
			ready.Close()
		}
		return 1
	}
	stepd.PrefetchUser(l.Msg.UserID) // while the shares connect to srun
	// The launch file has served: the state files are what a restarted slurmd reads.
	os.Remove(path)
	log := logger(l.LogFile, l.Debug)
	sigs := catchSignals() // signals.go

	shares := l.Shares()
	group := ""
	if len(shares) > 1 {
		// The steps this process supervises are one job step's shares: an orphan reparented
		// to it is one of theirs (stepd's single-step orphan rule, per group).
		group = fmt.Sprintf("%d.%d", l.Msg.JobID, l.Msg.StepID)
	}
	// One connection to srun carries every share's streams (stepio.Mux).
	timeout := time.Duration(l.MessageTimeout) * time.Second
	if timeout <= 0 {
		timeout = wire.DefaultMessageTimeout
	}
	mux := stepio.NewMux(l.Msg.IOAddr, l.Msg.IOKey, timeout, len(shares))
	runs := make([]*nodeRun, len(shares))
	fails := make([]*stepdlaunch.StepFailure, len(shares))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(startWorkers, len(shares)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				runs[i], fails[i] = startShare(&shares[i], mux, group, log)
			}
		}()
	}
	for i := range shares {
		next <- i
	}
	close(next)
	wg.Wait()
	var live []*nodeRun
	for i, r := range runs {
		if ready != nil {
			if f := fails[i]; f != nil {
				stepdlaunch.WriteStepFailure(ready, f.Errno, f.Text)
			} else {
				io.WriteString(ready, stepdlaunch.Ready+"\n")
			}
		} else if f := fails[i]; f != nil {
			fmt.Fprintln(os.Stderr, "slurmstepd: error:", f.Text)
		}
		if r != nil {
			live = append(live, r)
		}
	}
	if ready != nil {
		ready.Close()
	}
	if len(live) == 0 {
		return 1
	}
	log.Info("step started", "job", l.Msg.JobID, "step", l.Msg.StepID, "node", l.NodeName, "nodes", len(live))
	// srun --time in an allocation: the step's own limit, from its start here. Slurm's
	// controller checks it every 30 s, so its steps end up to half a minute late; here the
	// stepd ends the step at the limit itself, and scontrol update StepId= gives it a new
	// one through slurmd (SigTimeLimit).
	limit := newStepLimit(time.Now(), func(minutes uint32) {
		log.Info("step time limit reached", "job", l.Msg.JobID, "step", l.Msg.StepID, "minutes", minutes)
		for _, r := range live {
			r.timeOut()
		}
	})
	limit.set(l.Msg.StepTimeLimit)
	defer limit.stop()
	// Each node's share ends on its own: its connection to srun closes and its state file
	// goes as soon as its tasks are done, as a stepd of its own would.
	ended := make(chan *nodeRun, len(live))
	for _, r := range live {
		go func() {
			<-r.step.Done()
			r.finish(log)
			ended <- r
		}()
	}
	lost := mux.Lost()
	srunLost := false
	for left := len(live); left > 0; {
		select {
		case <-lost:
			// srun was killed (or its host failed) while the tasks run: the step is killed
			// at once, as the shepherd Slurm's srun leaves behind kills it with SIGKILL.
			lost, srunLost = nil, true
			log.Info("srun lost, killing step", "job", l.Msg.JobID, "step", l.Msg.StepID, "nodes", len(live))
			for _, r := range live {
				r.cancel("", true)
			}
		case s := <-sigs:
			switch s {
			case stepdlaunch.SigCancel, stepdlaunch.SigTimeout, stepdlaunch.SigRequeue, stepdlaunch.SigPreempt, stepdlaunch.SigAbort:
				log.Info("killing step", "job", l.Msg.JobID, "step", l.Msg.StepID, "nodes", len(live), "signal", s)
				for _, r := range live {
					r.cancel(cancelReason(s), s == stepdlaunch.SigAbort)
				}
			case stepdlaunch.SigTimeLimit:
				if minutes, ok := readStepLimit(live); ok { // step_limit.go
					log.Info("step time limit changed", "job", l.Msg.JobID, "step", l.Msg.StepID, "minutes", minutes)
					limit.set(minutes)
				}
			}
			// SIGINT, SIGHUP: slurmstepd is not stopped by a terminal or a dying slurmd.
		case <-ended:
			left--
		}
	}
	if srunLost {
		reportSrunLost(l, live, log) // srun_lost.go
	}
	return 0
}

// nodeRun is one node's share of a step, running.
type nodeRun struct {
	l          *stepdlaunch.Step
	io         *stepio.Share
	sink       *srunSink
	spec       stepd.StepSpec
	step       *stepd.Step
	cg         *stepd.MemoryCgroup
	pmi        *pmiShare  // nil without PMI
	dbg        *stepDebug // srun --slurmd-debug's lines; nil without
	cancelOnce sync.Once  // a -K kill and the job's terminate may both arrive
}

// startShare connects node l's share to srun and starts its tasks; on failure it tells srun
// (when connected) and returns the errno and text slurmd answers with.
func startShare(l *stepdlaunch.Step, mux *stepio.Mux, group string, log *slog.Logger) (*nodeRun, *stepdlaunch.StepFailure) {
	m := &l.Msg
	out, err := mux.Join(m.NodeID)
	if err != nil {
		return nil, &stepdlaunch.StepFailure{Errno: wire.ErrnoSlurmError, Text: fmt.Sprintf("cannot connect to srun at %s: %v", m.IOAddr, err)}
	}
	// srun may be gone (killed) while the tasks run on: their output is then dropped rather
	// than left to fill the pipes and stop them.
	sink := &srunSink{w: out}
	spec, stdin, err := stepSpec(l, sink)
	if err != nil {
		out.Write(stepio.Failed, m.NodeID, []byte(err.Error()))
		out.Close()
		return nil, &stepdlaunch.StepFailure{Errno: errnoExecveFailed, Text: "Slurmd could not execve job: " + err.Error()}
	}
	takeRlimits(&spec, l.PropagateRlimits, log) // rlimits.go
	pmiSrv, err := startPMI(l, out, &spec, log) // pmi.go
	if err != nil {
		out.Write(stepio.Failed, m.NodeID, []byte(err.Error()))
		out.Close()
		return nil, &stepdlaunch.StepFailure{Errno: errnoExecveFailed, Text: "Slurmd could not execve job: " + err.Error()}
	}
	spec.Group = group
	spec.NoEndState = true              // finish removes the state file as the tasks end
	dbg := newStepDebug(l, sink, &spec) // slurmd_debug.go
	dbg.starting(l, len(spec.Tasks))
	spec.TaskExited = func(e stepd.TaskExit) {
		dbg.taskExited(e)
		sink.write(stepio.Exit, uint32(e.Rank), stepio.ExitData(e.Status))
	}
	cg := memCgroup(l.Memory, l.NodeName, m.JobID, spec.StepID, log) // oom.go
	oom := &oomWatch{cg: cg, node: l.NodeName, step: stepName(m.JobID, spec.StepID)}
	spec.Cgroup, spec.PostTerm = cg, oom.postTerm
	step, err := stepd.Start(spec)
	dbg.runningAll(&spec, step)
	if err != nil {
		pmiSrv.close()
		removeCgroup(cg, log)
		out.Write(stepio.Failed, m.NodeID, []byte(err.Error()))
		out.Close()
		log.Error("step launch failed", "job", m.JobID, "step", m.StepID, "node", l.NodeName, "err", err)
		return nil, &stepdlaunch.StepFailure{Errno: errnoExecveFailed, Text: "Slurmd could not execve job: " + err.Error()}
	}
	log.Debug("step started", "job", m.JobID, "step", m.StepID, "node", l.NodeName, "pids", step.Pids())
	if m.ParallelDebug {
		// srun prints where each stopped task is, for the debugger (MPIR_proctable).
		for i, pid := range step.Pids() {
			sink.write(stepio.Pid, uint32(spec.Tasks[i].Rank), binary.BigEndian.AppendUint32(nil, uint32(pid)))
		}
	}
	if m.Pty {
		out.OnWinsize(func(rows, cols uint16) { step.SetWinsize(stepd.Winsize{Rows: rows, Cols: cols}) })
	}
	out.Stdin(stdin)
	return &nodeRun{l: l, io: out, sink: sink, spec: spec, step: step, cg: cg, pmi: pmiSrv, dbg: dbg}, nil
}

// cancel kills the node's share of the step (once), with slurmstepd's CANCELLED line (why
// ends it: cancelReason): its tasks get KillWait's grace unless now is set.
func (r *nodeRun) cancel(why string, now bool) {
	select {
	case <-r.step.Done():
		return // this node's tasks are done already
	default:
	}
	r.cancelOnce.Do(func() { cancelled(r.l, r.sink, r.spec, why, nil) })
	if now {
		r.step.Abort()
		return
	}
	r.step.Kill()
}

// timeOut ends the node's share at the step's own time limit, with slurmstepd's
// "CANCELLED AT ... DUE TO TIME LIMIT" line; the step ends TIMEOUT.
func (r *nodeRun) timeOut() {
	select {
	case <-r.step.Done():
		return
	default:
	}
	r.cancelOnce.Do(func() {
		cancelled(r.l, r.sink, r.spec, cancelReason(stepdlaunch.SigTimeout), []byte(stepio.CancelStepTimeLimit))
	})
	r.step.TimeOut()
}

// finish cleans up after the node's share once its tasks are done.
func (r *nodeRun) finish(log *slog.Logger) {
	exits := r.step.Wait()
	r.pmi.close()
	removeCgroup(r.cg, log)
	r.dbg.done()
	r.io.Close()
	os.Remove(stepdlaunch.TimeLimitPath(r.step.StatePath())) // a limit not yet read
	stepd.RemoveState(r.step.StatePath())                    // and the job's directory, once empty
	log.Debug("step ended", "job", r.l.Msg.JobID, "step", r.l.Msg.StepID, "node", r.l.NodeName,
		"exit", stepd.StepExit(exits).String())
}

// cancelled writes slurmstepd's "*** STEP ... CANCELLED AT ... ***" line where the node's
// first task's stderr goes when that is srun, as Slurm's slurmstepd logs it there: on the
// step's first node only, or the node SLURM_STEP_KILLED_MSG_NODE_ID names (Slurm's
// msg_target_node_id), so a step over many nodes says it once.
func cancelled(l *stepdlaunch.Step, sink *srunSink, spec stepd.StepSpec, why string, data []byte) {
	defer sink.write(stepio.Cancelled, l.Msg.NodeID, data)
	if len(spec.Tasks) == 0 || spec.Tasks[0].Stderr.Writer == nil || l.Msg.NodeID != killedMsgNode(spec.Env) {
		return
	}
	msg := fmt.Sprintf("slurmstepd-%s: error: *** STEP %d.%d ON %s CANCELLED AT %s%s ***\n", l.NodeName,
		l.Msg.JobID, l.Msg.StepID, l.NodeName, time.Now().Format("2006-01-02T15:04:05"), why)
	sink.write(stepio.Stderr, uint32(spec.Tasks[0].Rank), []byte(msg))
}

// killedMsgNode is the step's node id that reports its cancellation: 0, or what the step's
// SLURM_STEP_KILLED_MSG_NODE_ID says (atoi's reading).
func killedMsgNode(env []string) uint32 {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "SLURM_STEP_KILLED_MSG_NODE_ID="); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return uint32(n)
		}
	}
	return 0
}

// srunSink sends frames to srun until the first failure, then drops them: the tasks must not
// stop because srun went away.
type srunSink struct {
	w    *stepio.Share
	mu   sync.Mutex
	dead bool
}

func (s *srunSink) write(typ byte, rank uint32, data []byte) {
	s.mu.Lock()
	dead := s.dead
	s.mu.Unlock()
	if dead {
		return
	}
	if err := s.w.Write(typ, rank, data); err != nil {
		s.mu.Lock()
		s.dead = true
		s.mu.Unlock()
	}
}

// task is an io.Writer for one task's stream.
func (s *srunSink) task(typ byte, rank uint32) io.Writer {
	return sinkWriter{s: s, typ: typ, rank: rank}
}

type sinkWriter struct {
	s    *srunSink
	typ  byte
	rank uint32
}

func (w sinkWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		w.s.write(w.typ, w.rank, p)
	}
	return len(p), nil
}

// stepSpec builds the tasks of the launch. Each task's own variables (SLURM_PROCID,
// SLURM_LOCALID, and SLURM_TASK_PID, its pid) are set as stepd forks it, with the command
// found on the step's PATH executed directly (one exec per task, as in Slurm). A command
// that cannot be found on the step's PATH is started as given, so that stepd reports the
// failed execve as Slurm does ("execve(): cmd: No such file or directory", exit code 2).
// Per-task file names (srun -o/-e/-i) are expanded here, as slurmstepd does; the writers
// returned are the stdin pipes of the tasks that read srun's stdin.
func stepSpec(l *stepdlaunch.Step, sink *srunSink) (stepd.StepSpec, []io.WriteCloser, error) {
	m := &l.Msg
	env := append([]string(nil), m.Environment...)
	env = append(env, "SLURMD_NODENAME="+l.NodeName)
	if um, ok := lookup(env, "SLURM_UMASK"); ok {
		// srun's umask for the tasks (Slurm's set_umask, which leaves the variable to a
		// step's tasks; the batch step drops it: batchSpec).
		if v, err := strconv.ParseUint(um, 8, 32); err == nil {
			syscall.Umask(int(v & 0o777))
		}
	}
	if m.BcastLibs && len(m.Argv) > 0 {
		env = withLibDir(env, bcastProgram(m)+"_libs") // srun --send-libs
	}
	workDir := m.WorkDir
	if workDir == "" {
		workDir = "/"
	}
	killWait := int(m.KillWait)
	if killWait == 0 {
		killWait = l.KillWait
	}
	spec := stepd.StepSpec{
		JobID: m.JobID, StepID: strconv.FormatUint(uint64(m.StepID), 10), NodeName: l.NodeName, Spool: l.Spool,
		UID: m.UserID, GID: m.GroupID, WorkDir: workDir, Env: env, KillWait: killWait,
		LimitAtController: true, // the step ends with its job, at the controller's word
		TaskPidEnv:        "SLURM_TASK_PID",
		StopAtExec:        m.ParallelDebug,
		TaskScripts: stepd.TaskScripts{Prolog: l.TaskProlog, Epilog: l.TaskEpilog,
			UserProlog: m.TaskProlog, UserEpilog: m.TaskEpilog},
	}
	if m.TimeLimit != 0 && m.TimeLimit != wireInfinite && m.TimeLimit != noVal {
		spec.TimeLimit = int(m.TimeLimit) * 60
	}
	f := filepattern.Fields{JobID: m.JobID, StepID: spec.StepID, NodeIndex: int(m.NodeID), FirstNode: shortHost(),
		User: userName(m.UserID)}
	appendMode := l.JobFileAppend
	switch jobspec.OpenMode(m.OpenMode) {
	case jobspec.OpenModeAppend:
		appendMode = true
	case jobspec.OpenModeTruncate:
		appendMode = false
	}
	path := func(names []string, i int, rank uint32) string {
		if i >= len(names) || names[i] == "" {
			return ""
		}
		f.TaskID = int(rank)
		return filepattern.StepTaskPath(names[i], workDir, f)
	}
	// srun -l labels what tasks write to per-task files too, as wide as srun's labels.
	labelWidth := -1 // no labels
	if v, _ := lookup(env, "SLURM_LABELIO"); v == "1" {
		n, _ := lookup(env, "SLURM_STEP_NUM_TASKS")
		tasks, _ := strconv.Atoi(n)
		labelWidth = len(strconv.Itoa(max(tasks, 1) - 1))
	}
	taskLabel := func(rank uint32) string {
		if labelWidth < 0 {
			return ""
		}
		return fmt.Sprintf("%*d: ", labelWidth, rank)
	}
	var stdin []io.WriteCloser
	for i, rank := range m.Ranks {
		t := stepd.Task{Rank: int(rank), LocalID: i, Stdin: stepd.Stdio{Path: os.DevNull}}
		argv := m.Argv
		if m.MultiProg != "" {
			var err error
			if argv, err = multiprog.TaskArgv(m.MultiProg, int(rank), m.Argv[1:]); err != nil {
				return spec, nil, fmt.Errorf("--multi-prog: task %d: %v", rank, err)
			}
		}
		if strings.HasSuffix(argv[0], "/") {
			// srun --bcast into a directory: this node's copy (slurmd's file_bcast.go).
			argv = append([]string{argv[0] + wire.BcastFileName(m.JobID, m.StepID, m.NodeName)}, argv[1:]...)
		}
		t.Env = []string{"SLURM_PROCID=" + strconv.FormatUint(uint64(rank), 10), "SLURM_LOCALID=" + strconv.Itoa(i)}
		t.Env = append(t.Env, taskGPUs(env, m.GPUsPerTask, i)...) // step_gpus.go
		if cmd, found := lookPathOnce(argv[0], env, workDir); found {
			t.Argv = append([]string{cmd}, argv[1:]...)
		} else {
			t.Argv = append([]string(nil), argv...)
		}
		t.Stdout = stepd.Stdio{Writer: sink.task(stepio.Stdout, rank)}
		t.Stderr = stepd.Stdio{Writer: sink.task(stepio.Stderr, rank)}
		if p := path(m.StdOut, i, rank); p != "" {
			t.Stdout = stepd.Stdio{Path: p, Label: taskLabel(rank), Append: appendMode}
		}
		if p := path(m.StdErr, i, rank); p != "" {
			t.Stderr = stepd.Stdio{Path: p, Label: taskLabel(rank), Append: appendMode}
		}
		streamIn := int32(rank) == m.StdinRank
		if len(m.StdIn) > 0 {
			streamIn = i < len(m.StdIn) && m.StdIn[i] == ""
			if p := path(m.StdIn, i, rank); p != "" {
				t.Stdin = stepd.Stdio{Path: p}
			}
		}
		if m.Pty {
			// srun --pty: task 0 on a terminal that reads srun's input; the others' streams
			// go nowhere, as in Slurm.
			null := stepd.Stdio{Path: os.DevNull}
			t.Stdin, t.Stderr, streamIn = null, null, rank == 0
			if rank == 0 {
				t.Pty = &stepd.Winsize{Rows: m.PtyRows, Cols: m.PtyCols}
			} else {
				t.Stdout = null
			}
		}
		if streamIn {
			r, w := io.Pipe()
			t.Stdin = stepd.Stdio{Reader: r}
			stdin = append(stdin, w)
		}
		spec.Tasks = append(spec.Tasks, t)
	}
	return spec, stdin, nil
}

// lookPath is the command slurmstepd executes for cmd, as Slurm's _build_path finds it: a
// name starting with "/" as it is, one starting with "." under the working directory,
// otherwise the first PATH entry (empty ones skipped) holding something of that name that
// is not a directory, executable or not (execve then says why). Not found, or without a
// PATH (srun --export=NONE), found is false and the task starts as given, so that a bare
// name fails "execve(): cmd: No such file or directory" as on Slurm.
func lookPath(cmd string, env []string, workDir string) (string, bool) {
	switch {
	case strings.HasPrefix(cmd, "/"):
		return cmd, true
	case strings.HasPrefix(cmd, "."):
		return workDir + "/" + cmd, true
	}
	path, _ := lookup(env, "PATH")
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			continue
		}
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(workDir, dir)
		}
		p := filepath.Join(dir, cmd)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
	}
	return cmd, false
}

// The shares of a wide step (one per node this stepd runs) share one user, host and
// command: what the first share looks up serves the others, rather than the user database
// and the PATH being searched once per node. A stepd lives for one step, so nothing here
// outlives what it describes.
var (
	shortHost = sync.OnceValue(func() string {
		host, _ := os.Hostname()
		if i := strings.IndexByte(host, '.'); i > 0 {
			host = host[:i] // Slurm's conf->hostname is the short name
		}
		return host
	})
	lookups = struct {
		sync.Mutex
		users map[uint32]string
		paths map[[3]string]pathFound
	}{users: map[uint32]string{}, paths: map[[3]string]pathFound{}}
)

type pathFound struct {
	path  string
	found bool
}

// userName is uid's user name ("" if unknown), looked up once per stepd.
func userName(uid uint32) string {
	lookups.Lock()
	name, ok := lookups.users[uid]
	lookups.Unlock()
	if ok {
		return name
	}
	if u, err := userdb.LookupId(strconv.FormatUint(uint64(uid), 10)); err == nil {
		name = u.Username
	}
	lookups.Lock()
	lookups.users[uid] = name
	lookups.Unlock()
	return name
}

// lookPathOnce is lookPath, searched once per command, PATH and directory.
func lookPathOnce(cmd string, env []string, workDir string) (string, bool) {
	path, set := lookup(env, "PATH")
	k := [3]string{cmd, path + "\x00" + strconv.FormatBool(set), workDir} // unset is not empty
	lookups.Lock()
	r, ok := lookups.paths[k]
	lookups.Unlock()
	if ok {
		return r.path, r.found
	}
	r.path, r.found = lookPath(cmd, env, workDir)
	lookups.Lock()
	lookups.paths[k] = r
	lookups.Unlock()
	return r.path, r.found
}

// bcastProgram is the path of srun --bcast's copy of the program on this node: argv[0], or
// slurmd's name for it in the directory argv[0] names (file_bcast.go).
func bcastProgram(m *wire.LaunchTasks) string {
	if strings.HasSuffix(m.Argv[0], "/") {
		return m.Argv[0] + wire.BcastFileName(m.JobID, m.StepID, m.NodeName)
	}
	return m.Argv[0]
}

// withLibDir puts dir first in env's LD_LIBRARY_PATH, as Slurm's slurmd does for the
// libraries srun --send-libs sent.
func withLibDir(env []string, dir string) []string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "LD_LIBRARY_PATH="); ok {
			out := slices.Delete(slices.Clone(env), i, i+1)
			return append(out, "LD_LIBRARY_PATH="+dir+":"+v)
		}
	}
	return append(env, "LD_LIBRARY_PATH="+dir)
}

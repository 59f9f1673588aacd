package stepd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Step states, in Slurm's words.
const (
	StateRunning   = "RUNNING"
	StateCompleted = "COMPLETED"
	StateFailed    = "FAILED"
	StateTimeout   = "TIMEOUT"
	StateCancelled = "CANCELLED"
)

// ErrStepDone is returned when signalling a step whose tasks have all ended.
var ErrStepDone = errors.New("stepd: step has already completed")

// trackInterval is how often the process tree is walked while the step runs, to remember
// processes before they are orphaned (see the package doc).
const trackInterval = 500 * time.Millisecond

// Step is a running step.
type Step struct {
	spec      StepSpec
	cred      cred
	statePath string
	script    string
	tasks     []*task
	startTime time.Time

	mu        sync.Mutex
	state     string // StateRunning until the end, then the final state
	reason    string // StateTimeout or StateCancelled once termination began
	endTime   time.Time
	exits     []TaskExit
	exit      ExitStatus
	members   map[int]uint64 // pid -> start time of processes known to belong to the step
	termOnce  sync.Once
	term      chan struct{} // closed when the time limit or a cancel starts termination
	termAt    time.Time     // when it started (set before term is closed)
	termNow   bool          // it was an abort: no grace (set before term is closed)
	done      chan struct{} // closed when every task ended and the tree is cleaned up
	cleanupOK bool
	labelled  []*labelFile // output files written through labellers, closed at the end

	postMu  sync.Mutex // serializes StepSpec.PostTerm
	logOut  io.Writer  // where the first task's stderr goes, for PostTerm's messages
	logFile *os.File   // a duplicate of that file, when it is one; closed at the end
	// ptyMaster is the master of the task's pseudo-terminal (Task.Pty), under mu.
	ptyMaster *os.File
}

// Wait blocks until every task has ended and every process the step left is gone, and
// returns how each task ended, in the order of StepSpec.Tasks.
func (s *Step) Wait() []TaskExit {
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]TaskExit(nil), s.exits...)
}

// Done is closed when Wait would return.
func (s *Step) Done() <-chan struct{} { return s.done }

// State is the step's state: StateRunning, then how it ended.
func (s *Step) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// ExitStatus is the step's exit status (see StepExit); valid once Done is closed.
func (s *Step) ExitStatus() ExitStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exit
}

// StatePath is the path of the step's state file.
func (s *Step) StatePath() string { return s.statePath }

// Pids are the task pids in the order of StepSpec.Tasks; 0 for a task that could not be
// executed.
func (s *Step) Pids() []int {
	out := make([]int, len(s.tasks))
	for i, t := range s.tasks {
		out[i] = t.pid
	}
	return out
}

// Signal sends sig to the process groups of the tasks with the given local ids (all tasks
// when localIDs is nil), as scancel --signal and srun's signal forwarding do.
func (s *Step) Signal(sig syscall.Signal, localIDs []int) error {
	select {
	case <-s.done:
		return ErrStepDone
	default:
	}
	var targets []*task
	if localIDs == nil {
		targets = s.tasks
	} else {
		for _, id := range localIDs {
			var found *task
			for _, t := range s.tasks {
				if t.LocalID == id {
					found = t
				}
			}
			if found == nil {
				return fmt.Errorf("stepd: step %d.%s has no task with local id %d on this node", s.spec.JobID, s.spec.StepID, id)
			}
			targets = append(targets, found)
		}
	}
	for _, t := range targets {
		signalTask(t, sig)
	}
	return nil
}

// signalTask signals the task's process group (its pid: each task leads its own session).
func signalTask(t *task, sig syscall.Signal) {
	if t.pid <= 0 {
		return
	}
	if err := unix.Kill(-t.pid, sig); errors.Is(err, unix.ESRCH) {
		unix.Kill(t.pid, sig)
	}
}

// Kill cancels the step as scancel does: the time-out signal (SIGTERM), then SIGKILL after
// KillWait seconds. The step ends CANCELLED.
func (s *Step) Kill() { s.terminate(StateCancelled) }

// TimeOut ends the step as its own time limit does: Kill, the step TIMEOUT.
func (s *Step) TimeOut() { s.terminate(StateTimeout) }

// Abort ends the step at once, cancelled: SIGKILL to the whole tree without KillWait's
// grace (srun forcing the end of its step, as Slurm's srun sends SIGKILL).
func (s *Step) Abort() { s.end(StateCancelled, true) }

// terminate starts the end of the step once: SIGCONT and the time-out signal to every task,
// then SIGKILL to the whole tree after KillWait unless everything ended before.
func (s *Step) terminate(reason string) { s.end(reason, false) }

// end is terminate, or with now the tree killed at once, without the time-out signal.
func (s *Step) end(reason string, now bool) {
	s.termOnce.Do(func() {
		s.mu.Lock()
		if s.state == StateRunning {
			s.reason = reason
		}
		s.mu.Unlock()
		s.termAt, s.termNow = time.Now(), now
		close(s.term)
		if now {
			s.killTree()
			return
		}
		for _, t := range s.tasks {
			signalTask(t, syscall.SIGCONT)
			signalTask(t, s.spec.TimeoutSignal)
		}
		go func() {
			kw := time.NewTimer(time.Duration(s.spec.KillWait) * time.Second)
			defer kw.Stop()
			select {
			case <-s.done:
			case <-kw.C:
				s.killTree()
			}
		}()
	})
}

// preTimeout delivers --signal=[B:]sig@time: to the batch shell alone with B:, otherwise to
// the tasks of a step that is not the batch step (the batch shell is spared).
func (s *Step) preTimeout() {
	p := s.spec.PreTimeout
	switch {
	case p.BatchOnly && s.spec.IsBatch():
		if t := s.tasks[0]; t.pid > 0 {
			unix.Kill(t.pid, p.Signal)
		}
	case !p.BatchOnly && !s.spec.IsBatch():
		for _, t := range s.tasks {
			signalTask(t, p.Signal)
		}
	}
}

// supervise waits for the tasks, runs the timers and walks the tree until the step ends.
func (s *Step) supervise() {
	exited := make(chan int, len(s.tasks))
	running := 0
	for i, t := range s.tasks {
		if t.exit != nil {
			e := s.postTerm(t)
			if s.spec.TaskExited != nil {
				s.spec.TaskExited(e)
			}
			continue
		}
		running++
		go func() {
			ws, ok := <-t.status
			s.mu.Lock()
			if ok {
				e := taskExit(t, ws)
				t.exit = &e
			} else {
				// Another waiter in this process took the status: report a failure rather
				// than success.
				t.exit = &TaskExit{Rank: t.Rank, LocalID: t.LocalID, Pid: t.pid, ExitCode: 1, Status: 1 << 8}
			}
			s.mu.Unlock()
			e := s.postTerm(t)
			s.runTaskEpilog(t) // task_prolog.go
			if s.spec.TaskExited != nil {
				s.spec.TaskExited(e)
			}
			exited <- i
		}()
	}
	var limitC, preC <-chan time.Time
	if s.spec.TimeLimit > 0 {
		if !s.spec.LimitAtController {
			limit := time.NewTimer(time.Until(s.startTime.Add(time.Duration(s.spec.TimeLimit) * time.Second)))
			defer limit.Stop()
			limitC = limit.C
		}
		if p := s.spec.PreTimeout; p != nil {
			at := s.spec.TimeLimit - p.Seconds
			if at < 0 {
				at = 0
			}
			pre := time.NewTimer(time.Until(s.startTime.Add(time.Duration(at) * time.Second)))
			defer pre.Stop()
			preC = pre.C
		}
	}
	tick := time.NewTicker(trackInterval)
	defer tick.Stop()
	for running > 0 {
		select {
		case <-exited:
			running--
		case <-limitC:
			s.terminate(StateTimeout)
		case <-preC:
			s.preTimeout()
		case <-tick.C:
			s.trackTree(false)
		}
	}
	s.graceLeftovers()
	s.killTree()
	s.mu.Lock()
	s.ptyMaster = nil // finishIO closes it
	s.mu.Unlock()
	s.finishIO()
	s.removeScript()
	if s.logFile != nil {
		s.logFile.Close()
	}

	s.mu.Lock()
	s.exits = make([]TaskExit, len(s.tasks))
	for i, t := range s.tasks {
		s.exits[i] = *t.exit
	}
	s.exit = StepExit(s.exits)
	switch {
	case s.reason != "":
		s.state = s.reason
	case s.exit.ExitCode != 0 || s.exit.Signal != 0:
		s.state = StateFailed
	default:
		s.state = StateCompleted
	}
	s.endTime = time.Now()
	s.mu.Unlock()
	if !s.spec.NoEndState {
		if err := s.writeState(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: error: %v\n", s.spec.logPrefix(), err)
		}
	}
	reg.Lock()
	dropStep(s)
	reg.Unlock()
	close(s.done)
}

// leftoverPoll is how often graceLeftovers looks for the step's remaining processes.
const leftoverPoll = 50 * time.Millisecond

// graceLeftovers gives what a cancelled or timed-out step's tasks left behind the rest of
// KillWait to end on the time-out signal they had with the tasks, as Slurm leaves a job's
// processes their grace before SIGKILL: an srun in a cancelled batch script, whose shell
// has died, still reports how its tasks ended. Those outside the tasks' process groups get
// the signal now, as Slurm signals a job's whole container. A step that ended on its own,
// or was aborted, kills its leftovers at once.
func (s *Step) graceLeftovers() {
	select {
	case <-s.term:
	default:
		return
	}
	if s.termNow {
		return
	}
	sig := s.spec.TimeoutSignal
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	deadline := s.termAt.Add(time.Duration(s.spec.KillWait) * time.Second)
	for first := true; time.Now().Before(deadline); first = false {
		if s.nothingLeft() {
			return
		}
		live := s.trackTree(true)
		if len(live) == 0 {
			return
		}
		if first {
			for _, p := range live {
				unix.Kill(p.pid, syscall.SIGCONT)
				unix.Kill(p.pid, sig)
			}
		}
		time.Sleep(leftoverPoll)
	}
}

// ioDrain bounds how long output streams may stay open after every process of the step was
// killed: a process that escaped tracking could otherwise hold a pipe open for ever.
const ioDrain = 5 * time.Second

// finishIO waits for the output copies to drain, then closes the pipes.
func (s *Step) finishIO() {
	for _, t := range s.tasks {
		done := make(chan struct{})
		go func() {
			t.copies.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(ioDrain):
		}
		for _, p := range t.pipes {
			p.Close()
		}
		<-done
	}
	for _, lf := range s.labelled {
		lf.f.Close()
	}
}

// Log writes a supervisor's message where the step's first task's stderr goes (the batch
// script's error file, or srun), as slurmstepd's own error lines reach the user there.
func (s *Step) Log(msg string) {
	s.postMu.Lock()
	defer s.postMu.Unlock()
	if s.logOut != nil {
		io.WriteString(s.logOut, msg)
	}
}

// postTerm runs StepSpec.PostTerm for a task that ended and returns the task's exit as it
// then stands.
func (s *Step) postTerm(t *task) TaskExit {
	s.mu.Lock()
	e := *t.exit
	s.mu.Unlock()
	if s.spec.PostTerm == nil {
		return e
	}
	s.postMu.Lock()
	msg := s.spec.PostTerm(&e)
	if msg != "" && s.logOut != nil {
		io.WriteString(s.logOut, msg)
	}
	s.postMu.Unlock()
	s.mu.Lock()
	*t.exit = e
	s.mu.Unlock()
	return e
}

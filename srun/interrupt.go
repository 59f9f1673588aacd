package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// stepSignals is what srun does with the signals it receives while its step runs, as
// Slurm 22.05's srun (_srun_signal_mgr, _handle_intr, job_force_termination):
//
//   - SIGINT prints the tasks' states ("interrupt (one more within 1 sec to abort)"); a
//     second within a second, or the first with --quit-on-interrupt, sends the tasks
//     SIGINT and then forces the step's end; with -X/--disable-status each one is sent to
//     the tasks at once;
//   - SIGTERM and SIGHUP force the step's end (SIGQUIT says "Quit" first): the tasks are
//     killed and the step is cancelled through the controller, which makes slurmstepd say
//     so;
//   - SIGCONT is noted ("got SIGCONT");
//   - SIGUSR1, SIGUSR2 and SIGALRM are passed on to the tasks.
type stepSignals struct {
	s     *session
	step  *wire.StepCreateReply
	copts wire.ClientOptions
	relay *relay
	// quit is --quit-on-interrupt, noStatus -X/--disable-status.
	quit, noStatus bool

	mu        sync.Mutex
	lastIntr  time.Time
	killSent  int
	lastMsg   int64
	aborted   bool
	cancelled bool // srun gave the step up: signalled tasks are no longer reported
	badExit   bool // srun -K is killing the step: its cancellation is srun's own
}

// watch handles signals until the returned function is called.
func (g *stepSignals) watch(ctx context.Context) (stop func()) {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGCONT, syscall.SIGTERM, syscall.SIGHUP,
		syscall.SIGALRM, syscall.SIGUSR1, syscall.SIGUSR2)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				g.handle(ctx, sig.(syscall.Signal))
			}
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}

func (g *stepSignals) handle(ctx context.Context, sig syscall.Signal) {
	switch sig {
	case syscall.SIGINT:
		g.interrupt(ctx)
	case syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP:
		if sig == syscall.SIGQUIT {
			g.say("Quit")
		}
		// Slurm does not mark the step cancelled here: the tasks' ends are reported.
		g.say("forcing job termination")
		g.abort(ctx)
	case syscall.SIGCONT:
		g.say("got SIGCONT")
	default:
		g.s.signalStep(ctx, g.step, g.copts, sig)
	}
}

// interrupt is Slurm's _handle_intr.
func (g *stepSignals) interrupt(ctx context.Context) {
	now := time.Now()
	g.mu.Lock()
	again := !g.lastIntr.IsZero() && now.Sub(g.lastIntr) < time.Second
	if !again && !g.quit {
		g.lastIntr = now
	}
	cancelled := g.cancelled
	g.mu.Unlock()
	switch {
	case g.quit || again:
		g.say("sending Ctrl-C to " + g.stepName())
		g.s.signalStep(ctx, g.step, g.copts, syscall.SIGINT)
		g.forceTermination(ctx)
	case g.noStatus:
		g.say("sending Ctrl-C to " + g.stepName())
		g.s.signalStep(ctx, g.step, g.copts, syscall.SIGINT)
	case !cancelled:
		g.say("interrupt (one more within 1 sec to abort)")
		g.printStatus()
	}
}

// forceTermination is Slurm's job_force_termination: the first time the tasks are killed
// and the step given up; later ones say the abort is in progress (once a second), and the
// second also asks the controller to kill the step.
func (g *stepSignals) forceTermination(ctx context.Context) {
	g.mu.Lock()
	sent := g.killSent
	g.killSent++
	g.cancelled = true
	now := time.Now().Unix()
	say := sent > 0 && g.lastMsg != now
	if say {
		g.lastMsg = now
	}
	g.mu.Unlock()
	switch {
	case sent == 0:
		g.say("forcing job termination")
		g.abort(ctx)
	case say:
		g.say("job abort in progress")
	}
	if sent == 1 {
		g.cancelStep(ctx)
	}
}

// abort kills the tasks and, once, waits for the step to end as Slurm's step launch does
// when aborted: it says how long it waits and has the controller cancel the step.
func (g *stepSignals) abort(ctx context.Context) {
	g.mu.Lock()
	first := !g.aborted
	g.aborted = true
	g.mu.Unlock()
	if first {
		// Slurm waits KillWait plus its STEP_ABORT_TIME (2 s).
		g.say("Job step aborted: Waiting up to " + strconv.Itoa(int(g.step.KillWait)+2) + " seconds for job step to finish.")
	}
	g.s.abortStep(ctx, g.step, g.copts) // slurmstepd says the step was cancelled
}

// cancelStep asks the controller to cancel the step, as scancel JOBID.STEPID does.
func (g *stepSignals) cancelStep(ctx context.Context) {
	g.s.call(ctx, wire.MsgKillJob, &wire.KillJobRequest{JobID: g.step.JobID, ArrayTaskID: wire.NoVal,
		Step: true, StepID: g.step.StepID}, new(wire.KillJobReply))
}

// printStatus prints the tasks' states as Slurm's task_state_print: running, exited
// abnormally, exited, and unknown for tasks srun has heard nothing of.
func (g *stepSignals) printStatus() {
	r := g.relay
	r.mu.Lock()
	var running, abnormal, normal []string
	for rank := uint32(0); rank < g.step.NumTasks; rank++ {
		e, ok := r.ends[rank]
		switch {
		case !ok:
			running = append(running, strconv.FormatUint(uint64(rank), 10))
		case e.lost || e.status != 0:
			abnormal = append(abnormal, strconv.FormatUint(uint64(rank), 10))
		default:
			normal = append(normal, strconv.FormatUint(uint64(rank), 10))
		}
	}
	r.mu.Unlock()
	for _, part := range []struct {
		ranks []string
		what  string
	}{{running, "running"}, {abnormal, "exited abnormally"}, {normal, "exited"}} {
		if len(part.ranks) == 0 {
			continue
		}
		word := "task"
		if len(part.ranks) > 1 {
			word = "tasks"
		}
		g.say(fmt.Sprintf("%s %s %s: %s", g.stepName(), word, compressRanks(part.ranks), part.what))
	}
}

func (g *stepSignals) stepName() string {
	return fmt.Sprintf("StepId=%d.%d", g.step.JobID, g.step.StepID)
}

// say prints one of srun's notes, between whole lines of the tasks' output.
func (g *stepSignals) say(msg string) {
	g.relay.out.Lock()
	fmt.Fprintf(g.s.stderr, "srun: %s\n", msg)
	g.relay.out.Unlock()
}

// stepCancelled is a node's word that the step was cancelled (scancel, the time limit):
// Slurm's srun hears it from the controller, says it waits for the step to end, and does
// not call the step force terminated. A cancellation srun made itself says nothing more.
func (g *stepSignals) stepCancelled() {
	g.mu.Lock()
	first := !g.aborted && !g.badExit
	g.aborted = g.aborted || !g.badExit
	g.mu.Unlock()
	if first {
		g.say("Job step aborted: Waiting up to " + strconv.Itoa(int(g.step.KillWait)+2) + " seconds for job step to finish.")
	}
}

// waitLimit is srun -W: sec seconds after the first task ended, the tasks still running
// are killed, as Slurm's srun does on its SIGALRM (it says so, prints the tasks' states and
// terminates the step; the step's cancellation then follows as for scancel).
func (g *stepSignals) waitLimit(ctx context.Context, sec uint32) {
	t := time.NewTimer(time.Duration(sec) * time.Second)
	defer t.Stop()
	select {
	case <-t.C:
	case <-g.relay.done:
		return
	case <-ctx.Done():
		return
	}
	g.say(fmt.Sprintf("First task exited %ds ago", sec))
	g.printStatus()
	g.say(fmt.Sprintf("launch/slurm: _step_signal: Terminating %s", g.stepName()))
	g.s.abortStep(ctx, g.step, g.copts)
}

// killingBadExit marks the step as killed by srun -K.
func (g *stepSignals) killingBadExit() {
	g.mu.Lock()
	g.badExit = true
	g.mu.Unlock()
}

// givenUp reports whether srun gave the step up (its signalled tasks go unreported).
func (g *stepSignals) givenUp() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cancelled
}

// forced reports whether srun forced the step's end itself: Slurm's srun then hears of the
// step's cancellation and does not say it was force terminated.
func (g *stepSignals) forced() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.aborted
}

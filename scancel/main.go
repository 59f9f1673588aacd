// Command scancel is Orbit's `scancel`: it cancels or signals jobs, array tasks and steps
// with Slurm 22.05's options, messages and exit codes. As Slurm's scancel does: job ids
// alone (no filter, no step, no signal) are sent as given; otherwise the job table
// (MsgJobInfo) is loaded, the ids are checked against it, the filters (-A -n -p -q -R -t -u
// -w --wckey) select jobs, and one MsgKillJob goes per job or step, pending jobs first.
//
// It must not import daemon code (slurmctld/, slurmd/) or the store.
package main

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/orbit-hpc/orbit/internal/cmdclient"
	"github.com/orbit-hpc/orbit/internal/wire"
)

//go:embed help.txt
var helpText string

//go:embed usage.txt
var usageText string

func main() {
	os.Exit(run(os.Args, os.LookupEnv, os.Stdin, os.Stdout, os.Stderr))
}

// canceller is one scancel run against the controller.
type canceller struct {
	p      *params
	c      *cmdclient.Client
	ctx    context.Context
	stdin  *bufio.Reader
	stdout io.Writer
	stderr io.Writer
	rc     int32 // the largest errno kept, as Slurm's MAX(rc, error_code)
	// per bounds one request; kill and sleep are the controller call and the pause between
	// retries (retry.go), replaceable in tests.
	per   time.Duration
	kill  func(*wire.KillJobRequest) *cmdclient.Error
	sleep func(time.Duration)
}

func run(argv []string, getenv func(string) (string, bool), stdin io.Reader, stdout, stderr io.Writer) int {
	p, code := parseArgs(argv, getenv, stderr)
	if code >= 0 {
		if p != nil {
			cmdclient.PrintInfo(stdout, p.info, helpText, usageText)
		}
		return code
	}
	c, err := cmdclient.Load("scancel", "")
	if err != nil {
		cmdclient.Fatal(stderr, "scancel", err)
	}
	per := 2*c.MessageTimeout + time.Duration(c.ConnectRetries)*time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(p.targets)+2)*per)
	defer cancel()
	k := &canceller{p: p, c: c, ctx: ctx, stdin: bufio.NewReader(stdin), stdout: stdout, stderr: stderr, per: per, sleep: time.Sleep}
	k.kill = k.call
	if p.noFilter() {
		k.byString()
	} else if !k.byRecords() {
		return 1
	}
	return cmdclient.ExitStatus(k.rc)
}

// noFilter is Slurm's has_default_opt() && !has_job_steps(): only job ids were given.
func (p *params) noFilter() bool {
	if p.account != "" || p.batch || p.interactive || p.name != "" || p.partition != "" || p.qos != "" ||
		p.reservation != "" || p.signal != noSignal || p.stateSet || p.userName != "" || p.wckey != "" ||
		p.nodelist != "" {
		return false
	}
	for _, t := range p.targets {
		if t.step != noStep {
			return false
		}
	}
	return true
}

func (k *canceller) verbosef(format string, a ...any) {
	if k.p.verbose > 0 {
		fmt.Fprintf(k.stderr, "scancel: "+format+"\n", a...)
	}
}

func (k *canceller) errorf(format string, a ...any) {
	fmt.Fprintf(k.stderr, "scancel: error: "+format+"\n", a...)
}

// keep records a failure's errno for the exit status.
func (k *canceller) keep(errno int32) { k.rc = max(k.rc, errno) }

// byString sends each operand as given (Slurm's _signal_job_by_str).
func (k *canceller) byString() {
	for _, t := range k.p.targets {
		k.cancelJob(t.jobString(), t)
	}
}

// cancelJob signals or cancels one job, array task or array (Slurm's _cancel_job_id).
func (k *canceller) cancelJob(idStr string, t target) {
	p := k.p
	sig := p.signal
	sigSet := sig != noSignal
	if !sigSet {
		sig = uint16(syscall.SIGKILL)
	}
	var flags uint16
	jobType := ""
	if p.batch {
		flags |= wire.KillBatchOnly
		jobType = "batch "
	}
	if p.full {
		flags |= wire.KillFullJob
		jobType = "full "
	}
	if p.hurry {
		flags |= wire.KillHurry
	}
	if !sigSet {
		k.verbosef("Terminating %sjob %s", jobType, idStr)
	} else {
		k.verbosef("Signal %d to %sjob %s", sig, jobType, idStr)
	}
	task := t.task
	if task == allTasks {
		task = wire.NoVal // every task of the array
	}
	req := &wire.KillJobRequest{JobID: t.id, ArrayTaskID: task, Signal: wireSignal(sig, sigSet), Flags: flags}
	e := k.killRetrying(req) // retry.go
	if e == nil {
		return
	}
	done := e.Errno == cmdclient.ErrnoAlreadyDone || e.Errno == cmdclient.ErrnoInvalidJobID
	if p.verbose > 0 || !done {
		k.errorf("Kill job error on job id %s: %s", idStr, e.Text)
	}
	if done && sig == uint16(syscall.SIGKILL) {
		return // the job is gone already: not a failure
	}
	k.keep(e.Errno)
}

// cancelStep signals or cancels one step (Slurm's _cancel_step_id).
func (k *canceller) cancelStep(idStr string, job, step uint32) {
	sig := k.p.signal
	sigSet := sig != noSignal
	if !sigSet {
		sig = uint16(syscall.SIGKILL)
	}
	if sig == uint16(syscall.SIGKILL) {
		k.verbosef("Terminating step %s.%d", idStr, step)
	} else {
		k.verbosef("Signal %d to step %s.%d", sig, idStr, step)
	}
	req := &wire.KillJobRequest{JobID: job, ArrayTaskID: wire.NoVal, Signal: wireSignal(sig, sigSet), Step: true, StepID: step}
	e := k.killRetrying(req) // retry.go
	if e == nil {
		return
	}
	if k.p.verbose > 0 || e.Errno != cmdclient.ErrnoAlreadyDone {
		// Slurm names the job only here, not the step.
		k.errorf("Kill job error on job step id %s: %s", idStr, e.Text)
	}
	if e.Errno == cmdclient.ErrnoAlreadyDone && sig == uint16(syscall.SIGKILL) {
		return
	}
	k.keep(e.Errno)
}

// wireSignal is the signal the controller gets: 0 for a plain cancel.
func wireSignal(sig uint16, set bool) int32 {
	if !set {
		return 0
	}
	return int32(sig)
}

// call sends one kill request; nil when it succeeded. Each request has its own bound, since
// retries (retry.go) may take minutes in all.
func (k *canceller) call(req *wire.KillJobRequest) *cmdclient.Error {
	ctx, cancel := context.WithTimeout(context.Background(), k.per)
	defer cancel()
	var rep wire.KillJobReply
	if err := k.c.Call(ctx, wire.MsgKillJob, req, &rep); err != nil {
		return cmdclient.AsError(err)
	}
	if rep.Errno == 0 {
		return nil
	}
	if rep.Text == "" {
		return cmdclient.NewError(rep.Errno)
	}
	return &cmdclient.Error{Errno: rep.Errno, Text: rep.Text}
}

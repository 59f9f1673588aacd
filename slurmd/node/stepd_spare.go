package node

import (
	"os"
	"os/exec"
	"sync"
	"syscall"

	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// A slurmstepd is a fresh process per step (so steps outlive slurmd), and starting a Go
// program is most of a short step's launch time. So slurmd keeps one spare stepd started
// ahead of need (`slurmstepd --spare`, waiting on its order pipe) and hands the next launch
// to it: the launch then costs a pipe write instead of a process start. The following spare
// is started in the background once that launch is done (spawnStepd's callers refill after
// the stepd said it runs): a Go start meanwhile would take the CPU the launch needs. The
// first spare is started by the first launch, so a slurmd that never launches costs no
// extra process. A spare whose slurmd stops (or dies) reads the end of its order pipe and
// exits.

// spareStepd is a started slurmstepd waiting for its order.
type spareStepd struct {
	cmd    *exec.Cmd
	ready  *os.File // read end of its readiness pipe
	orders *os.File // write end of its order pipe
}

// drop ends a spare that will get no order.
func (s *spareStepd) drop() {
	s.orders.Close() // the spare reads the end and exits
	s.ready.Close()
}

// spareSlot holds the daemon's spare slurmstepd.
type spareSlot struct {
	mu      sync.Mutex
	spare   *spareStepd
	filling bool // a spare is being started
	closed  bool // the daemon stopped: no more spares
}

// takeSpare hands the launch (mode, launch file, node) to the spare slurmstepd, if there is
// one that takes it, and returns it as spawnStepd would.
func (d *Daemon) takeSpare(mode, path, node string) (*exec.Cmd, *os.File, bool) {
	d.spares.mu.Lock()
	s := d.spares.spare
	d.spares.spare = nil
	d.spares.mu.Unlock()
	if s == nil {
		return nil, nil, false
	}
	_, err := s.orders.Write(stepdlaunch.EncodeOrder(stepdlaunch.Order{Mode: mode, Path: path, Node: node}))
	if cerr := s.orders.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// The spare died meanwhile (the pipe has no reader): start a fresh stepd instead.
		d.log.Warn("spare slurmstepd gone; starting a new one", "pid", s.cmd.Process.Pid, "err", err)
		s.cmd.Process.Kill()
		s.ready.Close()
		return nil, nil, false
	}
	return s.cmd, s.ready, true
}

// refillSpare starts a spare slurmstepd in the background unless there is one, one is being
// started, or the daemon stopped.
func (d *Daemon) refillSpare() {
	d.spares.mu.Lock()
	if d.spares.closed || d.spares.filling || d.spares.spare != nil {
		d.spares.mu.Unlock()
		return
	}
	d.spares.filling = true
	d.wg.Add(1) // Close sets closed before it waits: no Add can follow its Wait
	d.spares.mu.Unlock()
	go func() {
		defer d.wg.Done()
		s, err := d.startSpare()
		d.spares.mu.Lock()
		defer d.spares.mu.Unlock()
		d.spares.filling = false
		switch {
		case err != nil:
			d.log.Warn("cannot start a spare slurmstepd", "err", err)
		case d.spares.closed:
			s.drop()
		default:
			d.spares.spare = s
		}
	}()
}

// startSpare starts `slurmstepd --spare` as spawnStepd starts a stepd, with its order pipe
// on stepdlaunch.OrderFD besides the readiness pipe.
func (d *Daemon) startSpare() (*spareStepd, error) {
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	orderR, orderW, err := os.Pipe()
	if err != nil {
		readyR.Close()
		readyW.Close()
		return nil, err
	}
	cmd := d.stepdCommand(stepdlaunch.SpareFlag)
	cmd.ExtraFiles = []*os.File{readyW, orderR}
	err = cmd.Start()
	readyW.Close()
	orderR.Close()
	if err != nil {
		readyR.Close()
		orderW.Close()
		return nil, err
	}
	go cmd.Wait() // reaped here, as spawnStepd's stepds
	return &spareStepd{cmd: cmd, ready: readyR, orders: orderW}, nil
}

// closeSpare ends the spare slurmstepd, if any, and starts no more (Close).
func (d *Daemon) closeSpare() {
	d.spares.mu.Lock()
	defer d.spares.mu.Unlock()
	d.spares.closed = true
	if s := d.spares.spare; s != nil {
		d.spares.spare = nil
		s.drop()
	}
}

// stepdCommand is the slurmstepd command line args, started as every stepd is: in its own
// session (it outlives slurmd; while slurmd runs, it reaps it), at /, with one P.
func (d *Daemon) stepdCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(d.stepd, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Dir = "/"
	if d.opts.Debug && d.opts.LogFile == "" {
		cmd.Stderr = os.Stderr
	}
	// One P: a stepd mostly waits (for its tasks, on pipes and sockets), and a single P
	// spares each short-lived stepd the extra threads, their spinning and their TLB
	// shootdowns, which cost more CPU than a `true` job itself. The tasks never see this
	// environment (the stepd builds theirs from the launch).
	cmd.Env = []string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin", "GOMAXPROCS=1"}
	if d.opts.ConfPath != "" {
		// Not read by the stepd: it tells which cluster a stepd serves (/proc/PID/environ),
		// whatever step it was handed as a spare.
		cmd.Env = append(cmd.Env, "SLURM_CONF="+d.opts.ConfPath)
	}
	return cmd
}

package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// stepdSignals are the signals a stepd catches: slurmd's requests (stepdlaunch), and SIGINT
// and SIGHUP, which must not stop it (a terminal, a dying slurmd). A batch stepd ignores
// SigAbort, which only srun steps are sent.
var stepdSignals = []os.Signal{stepdlaunch.SigCancel, stepdlaunch.SigTimeout, stepdlaunch.SigRequeue,
	stepdlaunch.SigPreempt, stepdlaunch.SigAbort, stepdlaunch.SigTimeLimit, syscall.SIGINT, syscall.SIGHUP}

// caught is the channel a spare stepd registered stepdSignals on while it waited. Catching a
// signal costs the runtime a round trip to its signal thread per signal, a few hundred
// microseconds in all with one P: the spare pays that before its launch, not during it.
var caught chan os.Signal

// catchSignals returns the channel stepdSignals arrive on, registered (with SIGPIPE ignored)
// before the step starts, so slurmd can signal the stepd as soon as it has the state file.
func catchSignals() chan os.Signal {
	if caught != nil {
		return caught
	}
	caught = make(chan os.Signal, 4)
	signal.Notify(caught, stepdSignals...)
	signal.Ignore(syscall.SIGPIPE)
	return caught
}

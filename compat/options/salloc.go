package options

import (
	"fmt"
	"strconv"
	"strings"
)

// SallocOptions are salloc's own options: they shape how salloc waits and what it runs, not
// the job, so they live beside the job spec rather than in it.
type SallocOptions struct {
	// Immediate is -I/--immediate in seconds (Slurm's DEFAULT_IMMEDIATE, 1, when given
	// without a value); 0 means salloc waits as long as it takes.
	Immediate int
	// NoShell is --no-shell: exit once the allocation is granted, leaving it in place.
	NoShell bool
	// Bell is --bell/--no-bell.
	Bell Bell
	// KillCommand is -K/--kill-command: the signal sent to the command when the allocation
	// is revoked (SIGTERM without a value); 0 sends none.
	KillCommand int
}

// Bell is when salloc rings the terminal bell on a grant.
type Bell int

// salloc's bell settings; the default rings only after a wait of more than 10 seconds.
const (
	BellAfterDelay Bell = iota
	BellAlways
	BellNever
)

// defaultImmediate is Slurm's DEFAULT_IMMEDIATE: -I without a value waits one second.
const defaultImmediate = 1

// immediate is -I/--immediate's value in seconds, as Slurm's arg_set_immediate reads it.
func (a *applier) immediate(val string, hasVal bool) (int, error) {
	switch {
	case !hasVal:
		return defaultImmediate, nil
	case val == "":
		return 0, nil // strtol("") is 0
	}
	// parse_int: a non-negative decimal integer, else exit(1).
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil || n < 0 || n > 1<<31-1 {
		return 0, cmdError(a.cmd, 1, fmt.Sprintf("Invalid numeric value \"%s\" for immediate.", val))
	}
	return int(n), nil
}

// sallocOption sets one of salloc's own options; srun shares only -I (JobSpec.Immediate).
func (a *applier) sallocOption(o *Option, val string, hasVal bool) error {
	if o.ID == "immediate" {
		n, err := a.immediate(val, hasVal)
		if err != nil {
			return err
		}
		if a.sa != nil {
			a.sa.Immediate = n
		} else {
			a.js.Immediate = n
		}
		return nil
	}
	if a.sa == nil {
		return cmdError(a.cmd, 1, fmt.Sprintf("%s is not supported by Orbit's %s yet", displayName(o), cmdName(a.cmd)))
	}
	switch o.ID {
	case "no-shell":
		a.sa.NoShell = true
	case "bell":
		a.sa.Bell = BellAlways
	case "no-bell":
		a.sa.Bell = BellNever
	case "kill-command":
		a.sa.KillCommand = 15
		if hasVal {
			n := signalNumber(val)
			if n == 0 {
				return cmdError(a.cmd, 255, "Invalid --kill-command specification")
			}
			a.sa.KillCommand = n
		}
	}
	return nil
}

// signalNames are the names Slurm's sig_name2num knows, with or without "SIG".
var signalNames = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ABRT": 6, "KILL": 9, "USR1": 10, "SEGV": 11, "USR2": 12,
	"PIPE": 13, "ALRM": 14, "TERM": 15, "CHLD": 17, "CONT": 18, "STOP": 19, "TSTP": 20,
	"TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26, "PROF": 27,
	"WINCH": 28, "IO": 29, "PWR": 30, "SYS": 31,
}

// signalNumber is sig_name2num: a number, or a name with or without "SIG" in any case; 0
// when it is neither.
func signalNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		if n > 0 && n < 65 {
			return n
		}
		return 0
	}
	u := strings.ToUpper(strings.TrimSpace(s))
	u = strings.TrimPrefix(u, "SIG")
	return signalNames[u]
}

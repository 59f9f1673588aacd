package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/compat/loglevel"
	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// oneArg checks that argv is the keyword and one argument, as Slurm's setdebug,
// setdebugflags, schedloglevel and wait_job do (quiet with -Q); false when it said
// otherwise.
func (c *cli) oneArg(argv []string) bool {
	return c.argCount(argv, "too few arguments for keyword:%s\n", c.quiet == 1)
}

// argCount checks for exactly one argument after the keyword, with few as the complaint
// about none; quiet says nothing (the exit code is 1 all the same).
func (c *cli) argCount(argv []string, few string, quiet bool) bool {
	msg := ""
	switch {
	case len(argv) > 2:
		msg = "too many arguments for keyword:%s\n"
	case len(argv) < 2:
		msg = few
	default:
		return true
	}
	c.exitCode = 1
	if !quiet {
		c.eprintf(msg, argv[0])
	}
	return false
}

// levelArg reads a level as Slurm's setdebug and schedloglevel do: a name from names, else
// a whole number (strtoul's, as an int) below len(names). A number that is negative as an
// int comes back as -1 without a complaint: Slurm then sends nothing.
func levelArg(s string, names []string) (level int, ok bool) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, true
		}
	}
	v, rest := strtoul(s) // show_step.go
	switch l := int32(v); {
	case rest != "":
		return 0, false
	case l < 0:
		return -1, true
	case int(l) >= len(names):
		return 0, false
	default:
		return int(l), true
	}
}

// cmdSetDebug is `scontrol setdebug LEVEL`: the controller's log level until the next
// reconfigure.
func (c *cli) cmdSetDebug(argv []string) {
	if !c.oneArg(argv) {
		return
	}
	var names []string
	for l := loglevel.Quiet; l <= loglevel.Debug5; l++ {
		names = append(names, loglevel.Name(l))
	}
	level, ok := levelArg(argv[1], names)
	if !ok {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("invalid debug level: %s\n", argv[1])
		}
		return
	}
	if level < 0 {
		return
	}
	if e := c.call(wire.MsgSetDebugLevel, &wire.SetDebugLevelRequest{Level: uint32(level)}, nil); e != nil {
		c.perror("slurm_set_debug_level error", e)
	}
}

// cmdSetDebugFlags is `scontrol setdebugflags [+|-]NAME`: DebugFlags added or removed until
// the next reconfigure.
func (c *cli) cmdSetDebugFlags(argv []string) {
	if !c.oneArg(argv) {
		return
	}
	arg := argv[1]
	var plus, minus uint64
	bad := arg == "" || arg[0] != '+' && arg[0] != '-'
	if !bad {
		flags, notes, err := conf.ParseDebugFlags(arg[1:])
		for _, n := range notes {
			c.errorf("%s", n)
		}
		if err != nil {
			c.errorf("%s", err.Error())
			bad = true
		} else if arg[0] == '+' {
			plus = flags
		} else {
			minus = flags
		}
	}
	if bad {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("invalid debug flag: %s\n", arg)
			if arg == "" || arg[0] != '+' && arg[0] != '-' {
				c.eprintf("Usage: setdebugflags [+|-]NAME\n")
			}
		}
		return
	}
	if e := c.call(wire.MsgSetDebugFlags, &wire.SetDebugFlagsRequest{Plus: plus, Minus: minus}, nil); e != nil {
		c.perror("slurm_set_debug_flags error", e)
	}
}

// cmdSchedLogLevel is `scontrol schedloglevel disable|enable|0|1`.
func (c *cli) cmdSchedLogLevel(argv []string) {
	if !c.oneArg(argv) {
		return
	}
	level, ok := levelArg(argv[1], []string{"disable", "enable"})
	if !ok {
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("invalid schedlog level: %s\n", argv[1])
		}
		return
	}
	if level < 0 {
		return
	}
	if e := c.call(wire.MsgSetSchedLog, &wire.SetSchedLogRequest{Level: uint32(level)}, nil); e != nil {
		c.perror("slurm_set_schedlog_level error", e)
	}
}

// cmdFSDampening is `scontrol fsdampeningfactor N` (also fairsharedampeningfactor): the
// controller's FairShareDampeningFactor until the next reconfigure. As Slurm's, a value that
// is not a number above 0 (read as a 16-bit one) is reported without changing the exit code.
func (c *cli) cmdFSDampening(argv []string) {
	if !c.oneArg(argv) {
		return
	}
	v, rest := strtoul(argv[1])
	factor := uint16(v)
	if rest != "" || factor == 0 {
		if c.quiet != 1 {
			c.eprintf("invalid dampening factor: %s\n", argv[1])
		}
		return
	}
	if e := c.call(wire.MsgSetFSDampening, &wire.SetFSDampeningRequest{Factor: factor}, nil); e != nil {
		c.perror("slurm_set_fs_dampeningfactor error", e)
	}
}

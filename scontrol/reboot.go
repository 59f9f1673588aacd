package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdReboot is `scontrol reboot [ASAP] [nextstate=DOWN|RESUME] [reason=TEXT] ALL|NODELIST`
// (Slurm's _process_reboot_command): up to three options first, then the nodes. Slurm's
// scontrol refuses it itself when slurm.conf has no RebootProgram; Orbit does not reboot
// nodes, so with one the command is refused by name.
func (c *cli) cmdReboot(argv []string) {
	offset := 1
	for i := 1; i <= 3 && i < len(argv); i++ {
		a := argv[i]
		switch {
		case strings.EqualFold(a, "ASAP"):
			offset++
		case len(a) >= len("Reason=") && strings.EqualFold(a[:len("Reason=")], "Reason="):
			if a[len("Reason="):] == "" {
				c.exitCode = 1
				if c.quiet == 0 {
					c.eprintf("missing reason\n")
				}
				return
			}
			offset++
		case len(a) >= len("nextstate=") && strings.EqualFold(a[:len("nextstate=")], "nextstate="):
			st := a[len("nextstate="):]
			if st == "" {
				c.exitCode = 1
				if c.quiet == 0 {
					c.eprintf("missing state\n")
				}
				return
			}
			offset++
			if !keywordIs(st, "DOWN", max(len(st), 1)) && !keywordIs(st, "RESUME", max(len(st), 1)) {
				c.exitCode = 1
				if c.quiet == 0 {
					c.eprintf("Invalid state: %s\nValid states: DOWN, RESUME\n", st)
				}
				return
			}
		}
	}
	switch rest := len(argv) - offset; {
	case rest > 1:
		c.exitCode = 1
		c.eprintf("too many arguments for keyword:%s\n", argv[0])
		return
	case rest < 1:
		c.exitCode = 1
		c.eprintf("Missing node list. Specify ALL|<NodeList>\n")
		return
	}
	if v, _ := c.client().Conf.Get("RebootProgram"); v == "" {
		c.errorf("RebootProgram isn't defined")
		c.exitCode = 1
		if c.quiet != 1 {
			c.eprintf("scontrol_reboot_nodes error: Unspecified error\n")
		}
		return
	}
	c.errorf("rebooting nodes (RebootProgram) is not supported by Orbit yet")
	c.exitCode = 1
}

// cmdCancelReboot is `scontrol cancel_reboot NODELIST`: the controller checks the names and
// answers that no reboot is pending (Orbit never has one: its nodes are not rebooted).
func (c *cli) cmdCancelReboot(argv []string) {
	if !c.argCount(argv, "missing argument for keyword:%s\n", false) {
		return
	}
	if e := c.call(wire.MsgUpdateNode, &wire.UpdateNodeRequest{NodeNames: argv[1], State: "CANCEL_REBOOT"}, nil); e != nil {
		c.perror("slurm_update error", e)
	}
}

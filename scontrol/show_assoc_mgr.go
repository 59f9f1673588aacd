package main

import (
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// The association manager's record kinds, as `show assoc_mgr flags=` names them.
const (
	assocMgrUsers = 1 << iota
	assocMgrAssoc
	assocMgrQOS
)

// showAssocMgr is Slurm's scontrol_print_assoc_mgr_info (`show assoc_mgr`, or `show cache`).
// Orbit's controller keeps no associations, users or QOS records (there is no slurmdbd to
// load them from), so after the options are read and the controller answers, every kind
// asked for is reported empty, in Slurm's words.
func (c *cli) showAssocMgr(_ string, _ *string, argv []string) {
	flags := 0
	for _, arg := range argv[2:] {
		tag, val, hasVal := strings.Cut(arg, "=")
		tagLen := len(tag)
		if !hasVal {
			tagLen = len(arg)
		}
		switch {
		case val == "":
			c.eprintf("No value given for option %s\n", arg)
			return
		case keywordIs(tag, "accounts", max(tagLen, 1)), keywordIs(tag, "qos", max(tagLen, 1)),
			keywordIs(tag, "users", max(tagLen, 1)):
			// Filters of records there are none of.
		case keywordIs(tag, "flags", max(tagLen, 1)):
			v := strings.ToLower(val)
			for name, bit := range map[string]int{"users": assocMgrUsers, "assoc": assocMgrAssoc, "qos": assocMgrQOS} {
				if strings.Contains(v, name) {
					flags |= bit
				}
			}
			if flags == 0 {
				c.eprintf("invalid flag '%s', valid options are 'Assoc, QOS, and/or Users'\n", val)
				return
			}
		default:
			c.exitCode = 1
			if c.quiet != 1 {
				c.eprintf("invalid entity: %s for keyword:show assoc_mgr\n", arg)
			}
			return
		}
	}
	if flags == 0 {
		flags = assocMgrUsers | assocMgrAssoc | assocMgrQOS
	}
	// Slurm asks the controller for its cache: an unreachable one is an error here too.
	if e := c.call(wire.MsgPing, &wire.Ping{}, &wire.PingReply{}); e != nil {
		c.exitCode = 1
		c.perror("slurm_load_assoc_mgr_info error", e)
		return
	}
	before, after := "\n", "\n"
	if c.oneLiner {
		before, after = "", ""
	}
	c.printf("Current Association Manager state\n")
	for _, k := range []struct {
		bit  int
		what string
	}{{assocMgrUsers, "users"}, {assocMgrAssoc, "associations"}, {assocMgrQOS, "QOS"}} {
		if flags&k.bit != 0 {
			c.printf("%sNo %s currently cached in Slurm.%s\n", before, k.what, after)
		}
	}
}

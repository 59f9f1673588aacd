package main

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// cmdGetent is `scontrol getent [NODENAME]` (Slurm's scontrol_getent): for each step
// running on this node, the user it runs as, as the step resolves it, and its groups (Slurm
// 22.05 sends a step none unless told to, so the list is empty).
func (c *cli) cmdGetent(argv []string) {
	name := ""
	if len(argv) > 1 {
		name = argv[1]
	}
	n := c.localNode(name)
	var rep wire.StepPidsReply
	if n == nil {
		c.errorf("Domain socket directory %s: No such file or directory",
			conf.ExpandNodePattern(c.client().Conf.SlurmdSpoolDir, name, name))
		return
	}
	if err := c.callNode(n, wire.MsgStepPids, &wire.StepPidsRequest{NodeName: n.Name}, &rep); err != nil {
		c.errorf("cannot reach the slurmd of node %s: %v", n.Name, err)
		return
	}
	users := map[uint32][]string{} // a user's entry is looked up once (NSS may run getent)
	for _, s := range rep.Steps {
		pw, ok := users[s.UID]
		if !ok {
			pw = userdb.PasswdFields(strconv.FormatUint(uint64(s.UID), 10))
			users[s.UID] = pw
		}
		if pw == nil {
			continue
		}
		c.printf("JobId=%d.%s:\nUser:\n%s\nGroups:\n\n", s.JobID, s.StepID, strings.Join(pw, ":"))
	}
}

package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/orbit-hpc/orbit/internal/userdb"
)

// becomeUser is Slurm's _become_user for --uid, once the job is there (allocated, or found
// for a step): srun takes the job's group (--gid, else its own), the user's groups as
// initgroups(user, the user's primary group) lists them, then the user, and creates and
// runs the step as that user. A failure is fatal, as in Slurm; 0 means carry on.
func (s *session) becomeUser() int {
	js := s.opts.spec
	if js == nil || !js.UIDSet || int(js.UID) == os.Getuid() {
		return 0
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(s.stderr, "srun: error: "+format+"\n", a...)
		fmt.Fprintf(s.stderr, "srun: fatal: Unable to assume uid=%d\n", js.UID)
		return 1
	}
	u, err := userdb.LookupId(strconv.FormatUint(uint64(js.UID), 10))
	if err != nil {
		return fail("Invalid user id %d: %v", js.UID, err)
	}
	if js.GIDSet && int(js.GID) != os.Getgid() {
		if err := s.c.SetGroup(js.GID); err != nil {
			return fail("%v", err)
		}
	}
	ids, err := userdb.GroupIds(u)
	if err != nil {
		return fail("initgroups: %v", err)
	}
	groups := make([]int, 0, len(ids)+1)
	if g, err := strconv.Atoi(u.Gid); err == nil {
		groups = append(groups, g) // initgroups adds the group it is given
	}
	for _, id := range ids {
		if g, err := strconv.Atoi(id); err == nil && (len(groups) == 0 || g != groups[0]) {
			groups = append(groups, g)
		}
	}
	if err := s.c.BecomeUser(js.UID, groups); err != nil {
		return fail("%v", err)
	}
	return 0
}

package ctld

import (
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
)

// Nodes kept to one user: a job with --exclusive=user, or in a partition with
// ExclusiveUser=YES, runs only where no other user's job does, and makes its nodes its
// user's (scontrol's Owner=) until it ends: Slurm's filter_by_node_owner and node owner
// (plugins/sched/selection user.go counts the same way for the scheduler plugins).

// userExclusive says whether j keeps its nodes to its user in partition p (nil: its own).
func (t *tables) userExclusive(j *jobRecord, p *partEntry) bool {
	if jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedUser {
		return true
	}
	if p == nil {
		p = t.parts[j.Partition]
	}
	return p != nil && p.conf.ExclusiveUser
}

// userExclusiveIn is userExclusive for the scheduler's view of j: --exclusive=user, or any
// of the partitions it may start in (parts; else its own, each of a list) with
// ExclusiveUser=YES; anyPart is anyExclusiveUser, found once for a pass over every job.
// The controller judges the partition a start chose (verifyStart).
func (t *tables) userExclusiveIn(j *jobRecord, parts []string, anyPart bool) bool {
	if jobspec.Shared(int32(j.descInt(descShared))) == jobspec.SharedUser {
		return true
	}
	if !anyPart {
		return false // no partition has ExclusiveUser=YES (anyExclusiveUser)
	}
	if len(parts) == 0 {
		parts = strings.Split(j.Partition, ",")
	}
	for _, name := range parts {
		if p := t.parts[name]; p != nil && p.conf.ExclusiveUser {
			return true
		}
	}
	return false
}

// servesUser says whether node n may take j (in partition p) beside the jobs it holds.
func (t *tables) servesUser(n *nodeEntry, j *jobRecord, p *partEntry) bool {
	if n.ownerJobs > 0 && n.owner != j.UserID {
		return false
	}
	if t.userExclusive(j, p) {
		for _, u := range n.users {
			if u != j.UserID {
				return false
			}
		}
	}
	return true
}

// holdUser counts one job of j's user on n (sign 1) or stops counting it (sign -1).
func (t *tables) holdUser(n *nodeEntry, j *jobRecord, sign int) {
	excl := t.userExclusive(j, nil)
	if sign > 0 {
		n.users = append(n.users, j.UserID)
		if excl {
			n.ownerJobs++
			n.owner = j.UserID
		}
		return
	}
	if k := slices.Index(n.users, j.UserID); k >= 0 {
		n.users = slices.Delete(n.users, k, k+1)
	}
	if excl && n.ownerJobs > 0 {
		n.ownerJobs--
	}
}

// recountUsers counts every node's users and owner again from the jobs holding nodes: after
// a reconfigure, whose partitions' ExclusiveUser may differ from the one their jobs were
// counted under.
func (t *tables) recountUsers() {
	for _, n := range t.nodes {
		n.users, n.ownerJobs, n.owner = nil, 0, 0
	}
	for _, j := range t.jobs {
		if !j.countsOnNodes() {
			continue
		}
		for _, name := range j.Nodes {
			if n := t.nodes[name]; n != nil {
				t.holdUser(n, j, 1)
			}
		}
	}
}

// nodeOwner is scontrol show node's Owner: "user(uid)" while jobs keep n to their user, ""
// otherwise (shown as N/A).
func (c *Controller) nodeOwner(n *nodeEntry) string {
	if n.ownerJobs == 0 {
		return ""
	}
	return c.names.user(n.owner) + "(" + strconv.FormatUint(uint64(n.owner), 10) + ")"
}

// anyExclusiveUser says whether some partition has ExclusiveUser=YES.
func (t *tables) anyExclusiveUser() bool {
	for _, p := range t.parts {
		if p.conf.ExclusiveUser {
			return true
		}
	}
	return false
}

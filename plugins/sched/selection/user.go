package selection

import (
	"slices"

	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Nodes kept to one user (Slurm's node owner). A job with --exclusive=user, or in a
// partition with ExclusiveUser=YES, goes only to nodes where no other user's job runs, and
// while it runs there the node takes jobs of its user only (filter_by_node_owner). The CPUs
// it does not use stay free for them.

// servesUser says whether j may join the jobs holding f.
func (f *Free) servesUser(j *scheduler.Job) bool {
	if f.OwnerJobs > 0 && f.Owner != j.UserID {
		return false
	}
	if j.ExclusiveUser {
		for _, u := range f.users {
			if u != j.UserID {
				return false
			}
		}
	}
	return true
}

// bookUser adds (sign 1) or removes (sign -1) one job of user on f.
func (f *Free) bookUser(user uint32, exclusive bool, sign int) {
	if sign > 0 {
		f.users = append(f.users, user)
		if exclusive {
			f.OwnerJobs++
			f.Owner = user
		}
		return
	}
	if k := slices.Index(f.users, user); k >= 0 {
		f.users[k] = f.users[len(f.users)-1]
		f.users = f.users[:len(f.users)-1]
	}
	if exclusive && f.OwnerJobs > 0 {
		f.OwnerJobs--
	}
}

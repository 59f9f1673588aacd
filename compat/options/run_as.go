package options

import (
	"fmt"
	"os"
)

// IDResolver reads a user or a group as Slurm's uid_from_string and gid_from_string do (a
// name first, then a number that names an entry). This package cannot reach the user
// database (internal/userdb), so the commands that take --uid and --gid set Resolver to it
// before they parse; while it is nil every --uid and --gid value is invalid.
type IDResolver interface {
	UserID(s string) (uint32, bool)
	GroupID(s string) (uint32, bool)
}

// Resolver is the IDResolver --uid and --gid use.
var Resolver IDResolver

// applyRunAs is --uid and --gid (arg_set_uid, arg_set_gid): root only, checked when the
// option is read, then a user or group that exists. The job is then owned by that user
// (and group); sbatch sends them in the job description, srun and salloc also become them.
func (a *applier) applyRunAs(id, val string) error {
	if os.Getuid() != 0 {
		return cmdError(a.cmd, 255, fmt.Sprintf("--%s only permitted by root user", id))
	}
	var n uint32
	ok := false
	if Resolver != nil {
		if id == "uid" {
			n, ok = Resolver.UserID(val)
		} else {
			n, ok = Resolver.GroupID(val)
		}
	}
	if !ok {
		return cmdError(a.cmd, 255, fmt.Sprintf("Invalid --%s specification", id))
	}
	if id == "uid" {
		a.js.UID, a.js.UIDSet = n, true
	} else {
		a.js.GID, a.js.GIDSet = n, true
	}
	return nil
}

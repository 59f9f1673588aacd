package stepd

import (
	"fmt"
	"os"
	"os/user"
	"runtime"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cred is who the tasks run as.
type cred struct {
	uid, gid uint32
	groups   []uint32
	drop     bool // the supervisor is root and must switch to uid/gid for the user's work
}

// resolveCred checks the job's user against this node and this process. Root runs tasks as
// any user that exists; anyone else can run tasks only as itself.
func resolveCred(s *StepSpec) (cred, error) {
	c := cred{uid: s.UID, gid: s.GID, groups: s.Groups}
	u, err := user.LookupId(strconv.FormatUint(uint64(s.UID), 10))
	if err != nil {
		return c, fmt.Errorf("stepd: user id %d not found on node %s: %v", s.UID, nodeLabel(s), err)
	}
	if os.Geteuid() != 0 {
		if int(s.UID) != os.Geteuid() {
			return c, fmt.Errorf("stepd: cannot run job %d as uid %d: supervisor runs as uid %d, not root", s.JobID, s.UID, os.Geteuid())
		}
		return c, nil
	}
	c.drop = true
	if c.groups == nil {
		// Slurm calls initgroups() for the user when slurmd sent no group list.
		ids, err := u.GroupIds()
		if err != nil {
			return c, fmt.Errorf("stepd: groups of user %s (uid %d): %v", u.Username, s.UID, err)
		}
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil {
				c.groups = append(c.groups, uint32(g))
			}
		}
		if c.groups == nil {
			c.groups = []uint32{}
		}
	}
	return c, nil
}

func nodeLabel(s *StepSpec) string {
	if s.NodeName != "" {
		return s.NodeName
	}
	h, _ := os.Hostname()
	return h
}

// asUser runs fn with the job's credentials on a thread of its own, so files fn creates
// belong to the user and the user's permissions apply. The thread is changed with raw
// per-thread system calls and is never given back to the runtime (the goroutine exits locked
// to it, and Go then ends the thread), so no other goroutine ever runs with these
// credentials and nothing needs restoring.
func asUser(c cred, fn func() error) error {
	if !c.drop {
		return fn()
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: the thread dies with this goroutine.
		errc <- func() error {
			var gp unsafe.Pointer
			if len(c.groups) > 0 {
				gp = unsafe.Pointer(&c.groups[0])
			}
			if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, uintptr(len(c.groups)), uintptr(gp), 0); e != 0 {
				return fmt.Errorf("setgroups: %v", e)
			}
			keep := ^uintptr(0) // -1: leave unchanged
			if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, keep, uintptr(c.gid), keep); e != 0 {
				return fmt.Errorf("setegid(%d): %v", c.gid, e)
			}
			if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, keep, uintptr(c.uid), keep); e != 0 {
				return fmt.Errorf("seteuid(%d): %v", c.uid, e)
			}
			return fn()
		}()
	}()
	return <-errc
}

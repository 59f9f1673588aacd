package stepd

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/orbit-hpc/orbit/internal/userdb"
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
	u, err := lookupUser(s.UID)
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
		groups, err := lookupGroups(u)
		if err != nil {
			return c, fmt.Errorf("stepd: groups of user %s (uid %d): %v", u.name, s.UID, err)
		}
		c.groups = groups
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

// A supervisor of a wide step's shares (thousands of nodes of one emulating slurmd) starts
// them all as one user within moments: the user and group databases are read once for them,
// not once per share. An answer is reused for userCacheTTL only, so a long-lived process
// (tests, in-process daemons) sees changes to the databases as a new process would.
const userCacheTTL = 2 * time.Second

// cachedUser is one uid's lookup and, once asked for, its groups.
type cachedUser struct {
	at       time.Time
	name     string
	groupIDs func() ([]string, error) // the user's group list, as userdb finds it
	once     sync.Once
	groups   []uint32
	err      error
}

var userCache = struct {
	sync.Mutex
	m map[uint32]*cachedUser
}{m: map[uint32]*cachedUser{}}

// lookupUser looks uid up (internal/userdb: NSS users resolve whether or not slurmstepd was
// built with cgo), answered from the cache while fresh.
func lookupUser(uid uint32) (*cachedUser, error) {
	userCache.Lock()
	e := userCache.m[uid]
	userCache.Unlock()
	if e != nil && time.Since(e.at) < userCacheTTL {
		return e, nil
	}
	u, err := userdb.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return nil, err // a missing user is not remembered: it may be added any moment
	}
	e = &cachedUser{at: time.Now(), name: u.Username, groupIDs: func() ([]string, error) { return userdb.GroupIds(u) }}
	userCache.Lock()
	userCache.m[uid] = e
	userCache.Unlock()
	return e, nil
}

// lookupGroups is the user's group list (initgroups), looked up once per cache entry. The
// slice is shared: callers must not change it.
func lookupGroups(e *cachedUser) ([]uint32, error) {
	e.once.Do(func() {
		ids, err := e.groupIDs()
		if err != nil {
			e.err = err
			return
		}
		e.groups = []uint32{}
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil {
				e.groups = append(e.groups, uint32(g))
			}
		}
	})
	return e.groups, e.err
}

// PrefetchUser looks uid and its groups up in the background, so that Start finds them in
// the cache: slurmstepd calls it as soon as it knows the step's user, while it connects to
// srun. (A cgo lookup runs on a thread of its own, overlapping the network wait.)
func PrefetchUser(uid uint32) {
	go func() {
		if e, err := lookupUser(uid); err == nil {
			lookupGroups(e)
		}
	}()
}

package stepd

import (
	"errors"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The reaper owns waiting for every child of this process: once the process is a child
// subreaper, orphans of the tasks become its children too and must be reaped, and a
// wait for "any child" would steal the statuses os/exec or another waiter expects.
//
// Children are forked with the registry locked and registered before it is unlocked, and the
// reaper only peeks (WNOWAIT) before taking the lock and reaping, so an exit is never
// attributed to the wrong process even if its pid is reused at once.
var reg = struct {
	sync.Mutex
	waiters map[int]chan unix.WaitStatus
	running bool
	steps   int // steps supervised now, for the single-step orphan rule
	// groups counts the steps supervised now by StepSpec.Group, and live lists them, for
	// the rule's extension to the shares of one job step.
	groups map[string]int
	live   map[*Step]bool
}{waiters: map[int]chan unix.WaitStatus{}, groups: map[string]int{}, live: map[*Step]bool{}}

// addStep and dropStep keep the count of supervised steps (reg must be locked).
func addStep(s *Step) {
	reg.steps++
	reg.groups[s.spec.Group]++
	reg.live[s] = true
}

func dropStep(s *Step) {
	reg.steps--
	if reg.groups[s.spec.Group]--; reg.groups[s.spec.Group] <= 0 {
		delete(reg.groups, s.spec.Group)
	}
	delete(reg.live, s)
}

var subreaperOnce sync.Once
var subreaperErr error

// becomeSubreaper makes this process the child subreaper of its descendants.
func becomeSubreaper() error {
	subreaperOnce.Do(func() {
		subreaperErr = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	})
	return subreaperErr
}

// forkRegistered runs fork with the registry locked and registers the new pid; the returned
// channel receives its wait status (it is closed if the status was lost to another waiter).
func forkRegistered(fork func() (int, error)) (int, <-chan unix.WaitStatus, error) {
	reg.Lock()
	defer reg.Unlock()
	pid, err := fork()
	if err != nil {
		return 0, nil, err
	}
	ch := make(chan unix.WaitStatus, 1)
	reg.waiters[pid] = ch
	if !reg.running {
		reg.running = true
		go reaper()
	}
	return pid, ch, nil
}

// isRegistered reports whether pid is a child this package started and still waits for.
func isRegistered(pid int) bool {
	reg.Lock()
	defer reg.Unlock()
	_, ok := reg.waiters[pid]
	return ok
}

// siginfoPid is si_pid of a SIGCHLD siginfo_t: after three ints, the union is aligned to the
// pointer size, and si_pid comes first in it.
func siginfoPid(info *unix.Siginfo) int {
	ptr := unsafe.Sizeof(uintptr(0))
	off := (12 + ptr - 1) &^ (ptr - 1)
	b := (*[unsafe.Sizeof(unix.Siginfo{})]byte)(unsafe.Pointer(info))
	return int(*(*int32)(unsafe.Pointer(&b[off])))
}

// reaper waits for children until there are none left to wait for.
func reaper() {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		reg.Lock()
		if err != nil && recheckChildren() {
			// A child was forked (under the lock) after waitid found none: wait for it.
			reg.Unlock()
			continue
		}
		if errors.Is(err, unix.ECHILD) || err != nil {
			// No children at all: registered pids were reaped by someone else (os/exec in
			// the same process); say so rather than leave their waiters hanging.
			for pid, ch := range reg.waiters {
				close(ch)
				delete(reg.waiters, pid)
			}
			reg.running = false
			reg.Unlock()
			return
		}
		pid := siginfoPid(&info)
		var ws unix.WaitStatus
		// A task started stopped (StopAtExec) may have shown its tracing stop, taken since
		// by taskexec: nothing is reaped then, and a stop is no end.
		if got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err == nil && got == pid && !ws.Stopped() {
			if ch, ok := reg.waiters[pid]; ok {
				ch <- ws
				delete(reg.waiters, pid)
			}
		}
		reg.Unlock()
	}
}

// recheckChildren reports whether this process has a child now (reg locked, so none can be
// forked meanwhile). waitid's "no child" may be stale by the time the reaper holds the lock:
// another goroutine may have forked and registered one in between, and closing its waiter
// would report a task that runs on as lost.
func recheckChildren() bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil
	}
}

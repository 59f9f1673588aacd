package stepd

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// trackTree walks /proc, records the processes that belong to the step (see the package
// doc for the rules) and returns those still alive. fresh asks for a snapshot of /proc
// taken now (the end-of-step kill loop); otherwise a recent one serves (proc_snapshot.go).
func (s *Step) trackTree(fresh bool) []procInfo {
	since := time.Now()
	if !fresh {
		since = since.Add(-trackInterval / 2)
	}
	snap := snapshotSince(since)
	procs := snap.procs
	self := os.Getpid()
	reg.Lock()
	single := !s.spec.SharedSupervisor &&
		(reg.steps == 1 || s.spec.Group != "" && reg.groups[s.spec.Group] == reg.steps)
	reg.Unlock()
	// Orphans are the supervisor's children it did not start; they are found once per
	// snapshot, not once per step: a supervisor of thousands of shares has thousands of
	// children, and each share's walk going through them all would cost n² per tick.
	var orphans []int
	if single {
		orphans = snap.unregisteredChildren(self)
	}
	// Processes a sibling share already counts as its own stay the sibling's: this share's
	// end must not kill them while that node's tasks run on. Only orphans are checked.
	theirs := map[int]uint64{}
	if len(orphans) > 0 {
		reg.Lock()
		var siblings []*Step
		for st := range reg.live {
			if st != s {
				siblings = append(siblings, st)
			}
		}
		reg.Unlock()
		for _, sib := range siblings {
			sib.mu.Lock()
			for _, i := range orphans {
				if start, ok := sib.members[procs[i].pid]; ok {
					theirs[procs[i].pid] = start
				}
			}
			sib.mu.Unlock()
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	member := map[int]bool{}
	var queue []int
	seed := func(i int) {
		if procs[i].pid != self && !member[i] {
			member[i] = true
			queue = append(queue, i)
		}
	}
	for _, t := range s.tasks {
		if t.pid <= 0 {
			continue
		}
		if i, ok := snap.byPid[t.pid]; ok && (t.start == 0 || t.start == procs[i].start) {
			seed(i)
		}
		for _, i := range snap.bySid[t.pid] {
			seed(i)
		}
		for _, i := range snap.byPgid[t.pid] {
			seed(i)
		}
	}
	for pid, start := range s.members {
		if i, ok := snap.byPid[pid]; ok && procs[i].start == start {
			seed(i)
		}
	}
	for _, i := range orphans {
		if !isTheirs(theirs, procs[i]) {
			seed(i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, c := range snap.children[procs[i].pid] {
			seed(c)
		}
	}
	s.members = make(map[int]uint64, len(member))
	var live []procInfo
	for i := range member {
		p := procs[i]
		s.members[p.pid] = p.start
		if p.state != 'Z' && p.state != 'X' {
			live = append(live, p)
		}
	}
	return live
}

// isTheirs reports whether p is a process recorded (pid and start time) in theirs.
func isTheirs(theirs map[int]uint64, p procInfo) bool {
	start, ok := theirs[p.pid]
	return ok && start == p.start
}

// killRounds bounds the end-of-step kill loop; a process stuck in the kernel (state D) can
// outlive SIGKILL for a while, and the step must still end.
const killRounds = 100

// killTree sends SIGKILL to every process of the step until none is left.
func (s *Step) killTree() {
	for round := 0; round < killRounds; round++ {
		for _, t := range s.tasks {
			if t.pid > 0 {
				unix.Kill(-t.pid, syscall.SIGKILL)
			}
		}
		if round == 0 && s.nothingLeft() {
			s.mu.Lock()
			s.cleanupOK = true
			s.mu.Unlock()
			return
		}
		live := s.trackTree(true)
		if len(live) == 0 {
			s.mu.Lock()
			s.cleanupOK = true
			s.mu.Unlock()
			return
		}
		for _, p := range live {
			unix.Kill(p.pid, syscall.SIGKILL)
		}
		time.Sleep(time.Duration(min(round+1, 10)) * 10 * time.Millisecond)
	}
	fmt.Fprintf(os.Stderr, "%s: error: step %d.%s: processes survive SIGKILL\n", s.spec.logPrefix(), s.spec.JobID, s.spec.StepID)
}

// nothingLeft reports, without a walk of /proc, that the step left no process: every task
// was reaped, no process group of a task remains, no process the walks counted is alive, and
// the supervisor has no child it did not start. Every process a task started descends from
// it, and one whose ancestors died was reparented to the supervisor (the subreaper), so it
// would be such a child. A wide step's shares end in thousands: each would otherwise wait
// for a fresh walk. False means "look": the walk decides.
func (s *Step) nothingLeft() bool {
	if s.spec.SharedSupervisor {
		return false // its other children are not the step's, nor registered
	}
	s.mu.Lock()
	for _, t := range s.tasks {
		if t.pid > 0 && t.exit == nil {
			s.mu.Unlock()
			return false // still running (a kill after KillWait)
		}
	}
	members := make([]int, 0, len(s.members))
	for pid := range s.members {
		members = append(members, pid)
	}
	s.mu.Unlock()
	for _, t := range s.tasks {
		if t.pid > 0 && unix.Kill(-t.pid, 0) != unix.ESRCH {
			return false
		}
	}
	for _, pid := range members {
		if unix.Kill(pid, 0) != unix.ESRCH {
			return false
		}
	}
	return noStrayChildSince(time.Now())
}

// A wave of shares ending together (a wide step of `true`) would each read every thread's
// children list, itself as long as the tasks still running: n² work. A check begun after a
// share's own checks answers for it just as well (it needs "no stray child at some moment
// after"), so requests share one, as tree walks share /proc snapshots.
var strays struct {
	sync.Mutex
	cond    *sync.Cond
	running bool
	start   time.Time // when the last check began
	none    bool      // its answer
}

func init() { strays.cond = sync.NewCond(&strays.Mutex) }

// noStrayChildSince reports whether a check begun at or after t found that this process had
// no child this package did not start.
func noStrayChildSince(t time.Time) bool {
	strays.Lock()
	defer strays.Unlock()
	for {
		if !strays.start.IsZero() && !strays.start.Before(t) && !strays.running {
			return strays.none
		}
		if !strays.running {
			strays.running = true
			strays.Unlock()
			start := time.Now()
			// With reg locked nothing is forked or reaped meanwhile: every registered pid
			// is a child (alive or not yet reaped), so as many children as registered pids
			// means no other.
			reg.Lock()
			none := noChildRegisteredOrNot()
			if !none && len(reg.waiters) > 0 {
				kids, ok := countChildren()
				none = ok && kids == len(reg.waiters)
			}
			reg.Unlock()
			strays.Lock()
			strays.start, strays.none, strays.running = start, none, false
			strays.cond.Broadcast()
			continue
		}
		strays.cond.Wait()
	}
}

// noChildRegisteredOrNot reports whether this process has no child at all, alive or not,
// from waitid's ECHILD (reg locked). It answers the common case, every task reaped, without
// reading /proc: each /proc/self/task/*/children read leaves dentries under this process's
// /proc directory that the kernel walks again when slurmd reaps it, which cost more than the
// rest of a `true` job's supervision.
func noChildRegisteredOrNot() bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return errors.Is(err, unix.ECHILD)
	}
}

// countChildren counts this process's children from /proc/self/task/*/children (a child
// belongs to the thread that forked it, an orphan to any thread of the subreaper).
func countChildren() (int, bool) {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return 0, false
	}
	tids, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return 0, false
	}
	n := 0
	for _, tid := range tids {
		b, err := os.ReadFile("/proc/self/task/" + tid + "/children")
		if err != nil {
			if os.IsNotExist(err) {
				continue // the thread exited meanwhile; its children went to another
			}
			return 0, false
		}
		n += len(strings.Fields(string(b)))
	}
	return n, true
}

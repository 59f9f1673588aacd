package stepd

import (
	"fmt"
	"os"
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
	var registered map[int]bool
	if single {
		registered = make(map[int]bool, len(reg.waiters))
		for pid := range reg.waiters {
			registered[pid] = true
		}
	}
	var siblings []*Step
	if single {
		for st := range reg.live {
			if st != s {
				siblings = append(siblings, st)
			}
		}
	}
	reg.Unlock()
	// Processes a sibling share already counts as its own stay the sibling's: this share's
	// end must not kill them while that node's tasks run on.
	theirs := map[int]uint64{}
	for _, sib := range siblings {
		sib.mu.Lock()
		for pid, start := range sib.members {
			theirs[pid] = start
		}
		sib.mu.Unlock()
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
	if single {
		for _, i := range snap.children[self] {
			if p := procs[i]; !registered[p.pid] && !isTheirs(theirs, p) {
				seed(i)
			}
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

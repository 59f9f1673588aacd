package stepd

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// trackTree walks /proc, records the processes that belong to the step (see the package
// doc for the rules) and returns those still alive.
func (s *Step) trackTree() []procInfo {
	procs := allProcs()
	self := os.Getpid()
	roots := map[int]uint64{}
	for _, t := range s.tasks {
		if t.pid > 0 {
			roots[t.pid] = t.start
		}
	}
	reg.Lock()
	single := reg.steps == 1 && !s.spec.SharedSupervisor
	registered := make(map[int]bool, len(reg.waiters))
	for pid := range reg.waiters {
		registered[pid] = true
	}
	reg.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()
	children := map[int][]int{}
	member := map[int]bool{}
	var queue []int
	for i, p := range procs {
		if p.pid == self {
			continue
		}
		children[p.ppid] = append(children[p.ppid], i)
		start, isRoot := roots[p.pid]
		known, wasMember := s.members[p.pid]
		_, inSession := roots[p.sid]
		_, inGroup := roots[p.pgid]
		seed := (isRoot && (start == 0 || start == p.start)) ||
			inSession || inGroup ||
			(wasMember && known == p.start) ||
			(single && p.ppid == self && !registered[p.pid])
		if seed {
			member[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, c := range children[procs[i].pid] {
			if !member[c] {
				member[c] = true
				queue = append(queue, c)
			}
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
		live := s.trackTree()
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

package stepd

import (
	"sync"
	"time"
)

// One process may supervise many steps (slurmstepd for a wide step on an emulating slurmd:
// one step per hosted node). Each step's tree walk would read all of /proc for itself, which
// at thousands of steps costs far more than the tasks; instead the walks share snapshots of
// /proc, indexed once, and each step follows only its own processes in the index.
//
// A walk asks for a snapshot taken no earlier than some moment: the end-of-step kill loop
// for one begun after its request (it must see every process alive by then), the periodic
// walk for one at most trackInterval/2 old (it only remembers processes before they are
// orphaned: a snapshot that old is as good as walking that much earlier). Walks asking
// while a scan runs wait for it or for the next one, so a wave of ending steps costs a
// couple of scans, not one each.

// procSnapshot is /proc at one moment, indexed.
type procSnapshot struct {
	procs    []procInfo
	byPid    map[int]int   // pid → index
	children map[int][]int // ppid → indexes
	bySid    map[int][]int // session → indexes
	byPgid   map[int][]int // process group → indexes
}

func newSnapshot(procs []procInfo) *procSnapshot {
	s := &procSnapshot{procs: procs, byPid: make(map[int]int, len(procs)), children: map[int][]int{},
		bySid: map[int][]int{}, byPgid: map[int][]int{}}
	for i, p := range procs {
		s.byPid[p.pid] = i
		s.children[p.ppid] = append(s.children[p.ppid], i)
		s.bySid[p.sid] = append(s.bySid[p.sid], i)
		s.byPgid[p.pgid] = append(s.byPgid[p.pgid], i)
	}
	return s
}

var scans struct {
	sync.Mutex
	cond      *sync.Cond
	running   bool
	last      *procSnapshot
	lastStart time.Time
}

func init() { scans.cond = sync.NewCond(&scans.Mutex) }

// snapshotSince returns a snapshot of /proc whose scan began at or after t.
func snapshotSince(t time.Time) *procSnapshot {
	scans.Lock()
	defer scans.Unlock()
	for {
		if scans.last != nil && !scans.lastStart.Before(t) {
			return scans.last
		}
		if !scans.running {
			scans.running = true
			start := time.Now()
			scans.Unlock()
			snap := newSnapshot(allProcs())
			scans.Lock()
			scans.last, scans.lastStart, scans.running = snap, start, false
			scans.cond.Broadcast()
			continue
		}
		scans.cond.Wait()
	}
}

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

	orphansOnce sync.Once
	orphans     []int // children of this process it did not start (unregisteredChildren)
}

// unregisteredChildren are the indexes of self's children in the snapshot that this package
// did not start (orphans reparented to the subreaper), computed once per snapshot. A pid
// registered now was registered when the scan ran or forked after it (and so is not in
// the snapshot under that start time): either way it is not an orphan.
func (s *procSnapshot) unregisteredChildren(self int) []int {
	s.orphansOnce.Do(func() {
		reg.Lock()
		defer reg.Unlock()
		for _, i := range s.children[self] {
			if _, ok := reg.waiters[s.procs[i].pid]; !ok {
				s.orphans = append(s.orphans, i)
			}
		}
	})
	return s.orphans
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
	lastDur   time.Duration // how long the last scan took
}

// scanRest and maxScanWait pace back-to-back scans (snapshotSince).
const (
	scanRest    = 4
	maxScanWait = 50 * time.Millisecond
)

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
			// Back-to-back scans (a wave of shares ending, each asking for a scan begun
			// after its request) would keep a core reading /proc: the next one waits until
			// scanning has taken at most a quarter of the time since the last began, so
			// that more requests share it. A lone request after a quiet spell waits not at
			// all.
			wait := time.Until(scans.lastStart.Add(min(scanRest*scans.lastDur, maxScanWait)))
			scans.Unlock()
			if wait > 0 {
				time.Sleep(wait)
			}
			start := time.Now()
			snap := newSnapshot(allProcs())
			scans.Lock()
			scans.lastDur = time.Since(start)
			scans.last, scans.lastStart, scans.running = snap, start, false
			scans.cond.Broadcast()
			continue
		}
		scans.cond.Wait()
	}
}

package ctld

import "sync"

// stepTable numbers and tracks the live steps of running jobs. Steps are kept in memory only
// for now: after a controller restart step ids start again at 0 for a running job, and the
// steps still running on nodes are not known to the controller (scancel still reaches them:
// nodes kill every step of a terminated job).
type stepTable struct {
	mu   sync.Mutex
	next map[uint32]uint32              // job → next step id
	live map[uint32]map[uint32]string   // job → step id → node list
	meta map[uint32]map[uint32]stepMeta // job → step id → what squeue -s shows (step_info.go)
}

// create returns the job's next step id and records the step as live.
func (s *stepTable) create(job uint32, nodes string) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next == nil {
		s.next = map[uint32]uint32{}
		s.live = map[uint32]map[uint32]string{}
	}
	id := s.next[job]
	s.next[job] = id + 1
	if s.live[job] == nil {
		s.live[job] = map[uint32]string{}
	}
	s.live[job][id] = nodes
	return id
}

// complete forgets a step; false when it was not live.
func (s *stepTable) complete(job, step uint32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live[job][step]; !ok {
		return false
	}
	delete(s.live[job], step)
	delete(s.meta[job], step)
	return true
}

// forget drops everything about a job (it ended).
func (s *stepTable) forget(job uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.next, job)
	delete(s.live, job)
	delete(s.meta, job)
}

// liveCount is the number of live steps of job.
func (s *stepTable) liveCount(job uint32) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live[job])
}

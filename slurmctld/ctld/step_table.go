package ctld

import (
	"sync"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// stepTable numbers and tracks the live steps of running jobs. Steps are kept in memory only
// for now: after a controller restart step ids start again at 0 for a running job, and the
// steps still running on nodes are not known to the controller (scancel still reaches them:
// nodes kill every step of a terminated job).
type stepTable struct {
	mu   sync.Mutex
	next map[uint32]uint32              // job → next step id
	live map[uint32]map[uint32]string   // job → step id → node list
	meta map[uint32]map[uint32]stepMeta // job → step id → what squeue -s shows (step_info.go)
	// held are the CPUs each live step holds (step_layout.go); a step that overlaps holds
	// none. A step created by create alone (no placement) holds none either.
	held map[uint32]map[uint32]stepAlloc
}

// create returns the job's next step id and records the step as live.
func (s *stepTable) create(job uint32, nodes string) uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.createLocked(job, nodes)
}

func (s *stepTable) createLocked(job uint32, nodes string) uint32 {
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

// reserve creates a step of job where place puts it, given the CPUs the job's live steps
// hold on each node; checking and holding happen under one lock, so two steps created at
// once never take the same CPUs. place's error is returned and nothing is created. A job
// that has had limit steps (MaxStepCount) gets no more.
func (s *stepTable) reserve(job, limit uint32, place func(used map[string]uint32) (stepAlloc, error)) (uint32, stepAlloc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next[job] >= limit {
		return 0, stepAlloc{}, errStepLimit
	}
	var used map[string]uint32
	for _, a := range s.held[job] {
		if a.overlap {
			continue
		}
		if used == nil {
			used = map[string]uint32{}
		}
		for i, n := range a.nodes {
			used[n] += a.cpus[i]
		}
	}
	a, err := place(used)
	if err != nil {
		return 0, stepAlloc{}, err
	}
	id := s.createLocked(job, hostlist.Compress(a.nodes))
	if s.held == nil {
		s.held = map[uint32]map[uint32]stepAlloc{}
	}
	if s.held[job] == nil {
		s.held[job] = map[uint32]stepAlloc{}
	}
	s.held[job][id] = a
	return id, a, nil
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
	delete(s.held[job], step)
	return true
}

// forget drops everything about a job (it ended).
func (s *stepTable) forget(job uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.next, job)
	delete(s.live, job)
	delete(s.meta, job)
	delete(s.held, job)
}

// liveCount is the number of live steps of job.
func (s *stepTable) liveCount(job uint32) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live[job])
}

package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// stepLimit ends a step at its own time limit (minutes from the step's start here): srun
// --time in an allocation, changed later by scontrol update StepId=.
type stepLimit struct {
	mu      sync.Mutex
	start   time.Time
	timer   *time.Timer
	reached func(minutes uint32)
}

func newStepLimit(start time.Time, reached func(minutes uint32)) *stepLimit {
	return &stepLimit{start: start, reached: reached}
}

// set makes minutes the step's limit (0, NO_VAL or INFINITE: none); a limit already past
// ends the step now.
func (s *stepLimit) set(minutes uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if minutes == 0 || minutes == noVal || minutes == wireInfinite {
		return
	}
	left := time.Until(s.start.Add(time.Duration(minutes) * time.Minute))
	s.timer = time.AfterFunc(max(left, 0), func() { s.reached(minutes) })
}

func (s *stepLimit) stop() { s.set(0) }

// readStepLimit reads (and removes) the new limit slurmd left beside a share's state file.
func readStepLimit(live []*nodeRun) (uint32, bool) {
	for _, r := range live {
		path := stepdlaunch.TimeLimitPath(r.step.StatePath())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		os.Remove(path)
		n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32)
		if err != nil {
			continue
		}
		return uint32(n), true
	}
	return 0, false
}

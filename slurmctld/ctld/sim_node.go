package ctld

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// simNodes are the emulated nodes of a Sim: they take the launch agent's calls in place of
// slurmd (launch, terminate, signal), run no process, and end each batch job by reporting its
// completion to the controller's real completion handler, at its runtime or when the
// controller tells them to kill it (time limit: TIMEOUT, as slurmstepd reports it).
type simNodes struct {
	runtime map[uint32]int64     // job → how long its script runs once launched (<0: until killed)
	running map[uint32]simRunJob // jobs whose script runs on their batch host
	events  simEvents            // job ends and time-limit deadlines, earliest first
	started []SimStart           // launches since the last Cycle
	ended   []SimEnd             // ends since the last Advance
}

type simRunJob struct {
	host  string
	start int64
}

func (n *simNodes) init() {
	n.runtime = map[uint32]int64{}
	n.running = map[uint32]simRunJob{}
}

// The kinds of events: at equal times a script that ends by itself ends before the
// controller's time-limit check of the same second can kill it.
const (
	simEventEnd = iota
	simEventLimit
)

type simEvent struct {
	at   int64
	kind int
	job  uint32
}

type simEvents []simEvent

func (e simEvents) Len() int { return len(e) }
func (e simEvents) Less(a, b int) bool {
	if e[a].at != e[b].at {
		return e[a].at < e[b].at
	}
	if e[a].kind != e[b].kind {
		return e[a].kind < e[b].kind
	}
	return e[a].job < e[b].job
}
func (e simEvents) Swap(a, b int) { e[a], e[b] = e[b], e[a] }
func (e *simEvents) Push(x any)   { *e = append(*e, x.(simEvent)) }
func (e *simEvents) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}

// NextEvent is the earliest virtual time at which an emulated node ends a job or a running
// job reaches its time limit (plus OverTimeLimit); false when no job runs. Until then the
// controller is idle but for submits and its periodic cycles, so the caller may jump the
// clock there.
func (s *Sim) NextEvent() (int64, bool) {
	for s.nodes.events.Len() > 0 {
		e := s.nodes.events[0]
		if _, ok := s.nodes.running[e.job]; ok {
			return e.at, true
		}
		heap.Pop(&s.nodes.events) // the job ended otherwise
	}
	return 0, false
}

// Advance moves the clock to t, handling in time order every event due by then: an emulated
// node whose script ran its runtime reports the job's end (exit status 0), and at a job's
// time-limit deadline the controller's timer ends it TIMEOUT and its node reports the kill.
// It returns the ends the controller recorded. Then, at t, the MinJobAge purge runs.
func (s *Sim) Advance(t int64) ([]SimEnd, error) {
	for {
		at, ok := s.NextEvent()
		if !ok || at > t {
			break
		}
		e := heap.Pop(&s.nodes.events).(simEvent)
		s.setNow(e.at)
		switch e.kind {
		case simEventEnd:
			if err := s.nodes.report(s, e.job, &wire.BatchJobComplete{JobID: e.job}); err != nil {
				return nil, err
			}
		case simEventLimit:
			s.c.enforceTimeLimits()
			if err := s.drainAgent(); err != nil {
				return nil, err
			}
		}
	}
	s.setNow(t)
	s.c.purgeOldJobs()
	out := s.nodes.ended
	s.nodes.ended = nil
	return out, nil
}

// drainAgent delivers every call the controller queued for its nodes to the emulated nodes,
// until none is left (a report may queue more).
func (s *Sim) drainAgent() error {
	for {
		select {
		case t := <-s.c.agent:
			if err := s.deliver(t); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// deliver is one launch-agent call, answered by the emulated node.
func (s *Sim) deliver(t agentTask) error {
	c := s.c
	switch t.kind {
	case taskLaunch:
		c.mu.RLock()
		j := c.t.jobs[t.jobID]
		if j == nil || !j.state().IsRunning() || j.isInteractive() {
			c.mu.RUnlock()
			return nil
		}
		host, start, nodes := j.batchHost(), j.StartTime, slices.Clone(j.Nodes)
		limit := j.TimeLimit
		c.mu.RUnlock()
		if _, dup := s.nodes.running[t.jobID]; dup {
			return nil // slurmd starts a job at most once
		}
		s.nodes.running[t.jobID] = simRunJob{host: host, start: start}
		s.nodes.started = append(s.nodes.started, SimStart{JobID: t.jobID, Start: start, Nodes: nodes})
		if rt, ok := s.nodes.runtime[t.jobID]; !ok || rt >= 0 {
			heap.Push(&s.nodes.events, simEvent{at: start + max(rt, 0), kind: simEventEnd, job: t.jobID})
		}
		if limit != wire.Infinite && limit != wire.NoVal {
			over := int64(c.config().OverTimeLimit) * 60
			if c.config().OverTimeLimit == math.MaxUint16 { // UNLIMITED
				return nil
			}
			heap.Push(&s.nodes.events, simEvent{at: start + int64(limit)*60 + over, kind: simEventLimit, job: t.jobID})
		}
	case taskTerminate:
		nodes := c.takePending(t)
		r, ok := s.nodes.running[t.jobID]
		if !ok || !slices.Contains(nodes, r.host) {
			return nil
		}
		// slurmstepd signals the script (SIGTERM, then SIGKILL after KillWait); an emulated
		// script dies at once of the SIGTERM.
		const sigterm = 15
		return s.nodes.report(s, t.jobID, &wire.BatchJobComplete{JobID: t.jobID, WaitStatus: sigterm,
			TimedOut: t.timedOut, Cancelled: !t.timedOut})
	case taskSignal:
		c.takePending(t) // an emulated script ignores signals
	}
	return nil
}

// report sends the batch host's completion of job to the controller's handler and records
// the end it applied.
func (n *simNodes) report(s *Sim, job uint32, m *wire.BatchJobComplete) error {
	r, ok := n.running[job]
	if !ok {
		return fmt.Errorf("job %d does not run on an emulated node", job)
	}
	delete(n.running, job)
	delete(n.runtime, job)
	m.NodeName = r.host
	if _, err := s.c.handleBatchJobComplete(s.ctx, &wire.Request{Type: wire.MsgBatchJobComplete, Body: m, Identity: s.root}); err != nil {
		return fmt.Errorf("job %d completion: %v", job, err)
	}
	s.c.mu.RLock()
	j := s.c.t.jobs[job]
	var end SimEnd
	if j != nil {
		end = SimEnd{JobID: job, End: j.EndTime, State: j.state().Base().String()}
	}
	s.c.mu.RUnlock()
	if j == nil {
		return fmt.Errorf("job %d vanished at its completion", job)
	}
	n.ended = append(n.ended, end)
	return s.drainAgent()
}

// simJob copies a job record for Jobs.
func simJob(j *jobRecord) SimJob {
	return SimJob{
		JobID: j.JobID, UserID: j.UserID, Name: j.descStr(descName),
		State: j.state().Base().String(), Reason: states.Reason(j.Reason).String(),
		Partition: j.Partition, Priority: j.Priority, TimeLimit: j.TimeLimit,
		MinNodes: j.MinNodes, NumTasks: j.NumTasks,
		Submit: j.SubmitTime, Start: j.StartTime, End: j.EndTime, Nodes: slices.Clone(j.Nodes),
	}
}

func sortSimJobs(js []SimJob) {
	slices.SortFunc(js, func(a, b SimJob) int { return cmp.Compare(a.JobID, b.JobID) })
}

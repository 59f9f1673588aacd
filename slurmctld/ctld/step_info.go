package ctld

import (
	"slices"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// stepBatch is Slurm's SLURM_BATCH_SCRIPT step number: squeue -s lists a running batch
// job's script as step "batch".
const stepBatch uint32 = 0xfffffffb

// stepMeta is what squeue -s and scontrol show step print about a live srun step beyond
// its node list.
type stepMeta struct {
	name     string
	start    int64
	tasks    uint32
	cpus     uint32
	nodes    uint32
	srunHost string
	srunPid  uint32
	// timeLimit is the step's own limit (srun --time in an allocation), minutes; 0 none.
	timeLimit uint32
}

// stepCPUs is the CPUs a step holds: all of the job's CPUs on the step's nodes (cpusOnNode,
// one entry per step node). Slurm 22.05 gives a step the whole allocation on its nodes
// unless srun says --exact, which Orbit's srun does not take yet.
func stepCPUs(cpusOnNode []uint32) uint32 {
	var n uint32
	for _, c := range cpusOnNode {
		n += c
	}
	return n
}

// stepDist is the task distribution Slurm's srun asks for when none is given
// (launch.c): cyclic when there are no more tasks than nodes, else block.
func stepDist(tasks, nodes uint32) string {
	if tasks <= nodes {
		return "Cyclic"
	}
	return "Block"
}

// describe records a live step's details (called right after create).
func (s *stepTable) describe(job, step uint32, m stepMeta) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live[job][step]; !ok {
		return
	}
	if s.meta == nil {
		s.meta = map[uint32]map[uint32]stepMeta{}
	}
	if s.meta[job] == nil {
		s.meta[job] = map[uint32]stepMeta{}
	}
	s.meta[job][step] = m
}

// setTimeLimit changes a live step's own time limit (minutes; Infinite: none).
func (s *stepTable) setTimeLimit(job, step, minutes uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.meta[job][step]; ok {
		m.timeLimit = minutes
		s.meta[job][step] = m
	}
}

// liveStep is one live step as listed by steps.
type liveStep struct {
	id    uint32
	nodes string
	meta  stepMeta
}

// list returns job's live steps in step id order.
func (s *stepTable) list(job uint32) []liveStep {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []liveStep
	for id, nodes := range s.live[job] {
		out = append(out, liveStep{id: id, nodes: nodes, meta: s.meta[job][id]})
	}
	slices.SortFunc(out, func(a, b liveStep) int { return int64Cmp(int64(a.id), int64(b.id)) })
	return out
}

// isLive reports whether step of job is running, and its node list.
func (s *stepTable) isLive(job, step uint32) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nodes, ok := s.live[job][step]
	return nodes, ok
}

func int64Cmp(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// stepInfos lists the live steps of the jobs in infos for squeue -s and scontrol show step:
// every srun step of a running job, then its batch step when the job runs a batch script
// (Slurm lists the batch step as "batch" on the batch host, started with the job, with no
// CPUs of its own). A step's time limit is its own (srun --time in the allocation),
// UNLIMITED without one, as Slurm shows it. Called under c.mu's read lock.
func (c *Controller) stepInfos(infos []wire.JobInfo) []wire.StepInfo {
	var out []wire.StepInfo
	for i := range infos {
		ji := &infos[i]
		j := c.t.jobs[ji.JobID]
		if j == nil {
			continue
		}
		s := j.state()
		if !s.IsRunning() && !s.IsSuspended() {
			continue
		}
		base := wire.StepInfo{
			JobID: ji.JobID, ArrayJobID: ji.ArrayJobID, ArrayTaskID: ji.ArrayTaskID,
			Partition: ji.Partition, UserID: ji.UserID, UserName: ji.UserName, TimeLimit: wire.Infinite,
		}
		for _, st := range c.steps.list(ji.JobID) {
			si := base
			si.StepID, si.Name, si.NodeList = st.id, st.meta.name, st.nodes
			si.StartTime, si.NumTasks, si.NumCPUs = st.meta.start, st.meta.tasks, st.meta.cpus
			si.Dist, si.SrunHost, si.SrunPid = stepDist(st.meta.tasks, st.meta.nodes), st.meta.srunHost, st.meta.srunPid
			if st.meta.timeLimit != 0 {
				si.TimeLimit = st.meta.timeLimit
			}
			out = append(out, si)
		}
		if ji.BatchFlag && ji.BatchHost != "" {
			si := base
			si.StepID, si.Name, si.NodeList = stepBatch, "batch", ji.BatchHost
			si.StartTime, si.NumTasks = ji.StartTime, 1
			out = append(out, si)
		}
	}
	return out
}

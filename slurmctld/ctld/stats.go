package ctld

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// The controller's statistics, what sdiag prints (Slurm's REQUEST_STATS_INFO): RPC counts and
// handling times by message type and by user, collected by the wire server's Observer for
// every answered request; main scheduler cycle times; job counts. `sdiag -r` (operators
// only) starts a new statistics period.

// ctldStats is the statistics of the current period. The zero value is ready to use.
type ctldStats struct {
	mu    sync.Mutex
	since time.Time

	byType  map[string]*wire.RPCTypeStat
	typeSeq []string // message names in first-seen order, as Slurm lists them before sorting
	byUser  map[uint32]*wire.RPCUserStat
	userSeq []uint32

	cycleLast, cycleMax, cycleCount uint32
	cycleSum, depthSum              uint64
	queueLen                        uint32

	// base is the job table's event counts when the period began: sdiag shows the counts
	// since then (job_counts.go keeps them as records change; no scan of the table).
	base jobCounts
}

// registerStats installs the RPC observer and the sdiag endpoint.
func (c *Controller) registerStats() {
	// Recovered jobs were submitted before this controller started: known, not counted.
	c.stats.reset(c.now(), c.jobCounts())
	c.srv.Observe(c.stats.observe)
	c.srv.HandleRPC(wire.MsgStats, c.handleStats)
}

// slurmMsgIDs are Slurm 22.05's numbers of the messages Orbit serves (slurm_msg_type_t), so
// sdiag shows what Slurm's shows; Orbit's own messages show Orbit's number.
var slurmMsgIDs = map[string]uint32{
	"REQUEST_NODE_REGISTRATION_STATUS": 1001, "MESSAGE_NODE_REGISTRATION_STATUS": 1002,
	"REQUEST_RECONFIGURE": 1003, "REQUEST_SHUTDOWN": 1005, "REQUEST_PING": 1008,
	"REQUEST_BUILD_INFO": 2001, "REQUEST_JOB_INFO": 2003, "REQUEST_JOB_STEP_INFO": 2005,
	"REQUEST_NODE_INFO": 2007, "REQUEST_PARTITION_INFO": 2009, "REQUEST_JOB_INFO_SINGLE": 2021,
	"REQUEST_STATS_INFO": 2035, "REQUEST_UPDATE_JOB": 3001, "REQUEST_UPDATE_NODE": 3002,
	"REQUEST_UPDATE_PARTITION": 3005, "REQUEST_RESOURCE_ALLOCATION": 4001,
	"REQUEST_SUBMIT_BATCH_JOB": 4003, "REQUEST_BATCH_JOB_LAUNCH": 4005,
	"REQUEST_JOB_WILL_RUN": 4012, "REQUEST_JOB_ALLOCATION_INFO": 4014, "REQUEST_JOB_READY": 4019,
	"REQUEST_JOB_STEP_CREATE": 5001, "REQUEST_CANCEL_JOB_STEP": 5005,
	"REQUEST_STEP_COMPLETE": 5016, "REQUEST_COMPLETE_JOB_ALLOCATION": 5017,
	"REQUEST_COMPLETE_BATCH_SCRIPT": 5018, "REQUEST_JOB_REQUEUE": 5023, "REQUEST_KILL_JOB": 5032,
	"REQUEST_LAUNCH_TASKS": 6001, "REQUEST_SIGNAL_TASKS": 6004, "REQUEST_TERMINATE_JOB": 6011,
	"MESSAGE_EPILOG_COMPLETE": 6012, "REQUEST_COMPLETE_PROLOG": 6018,
}

// rpcName is the name sdiag shows for t: Slurm's request name where Orbit's differs.
func rpcName(t wire.MsgType) (string, uint32) {
	name := wire.Name(t)
	if !strings.Contains(name, "_") || name == "PING" {
		name = "REQUEST_" + name
	}
	if id, ok := slurmMsgIDs[name]; ok {
		return name, id
	}
	return name, uint32(t)
}

// observe counts one answered request (the wire server's Observer).
func (s *ctldStats) observe(req *wire.Request, took time.Duration, _ error) {
	us := uint64(took.Microseconds())
	name, id := rpcName(req.Type)
	var uid uint32
	switch {
	case req.Identity != nil:
		uid = req.Identity.UID
	case req.Peer != nil:
		uid = req.Peer.UID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byType == nil {
		s.byType, s.byUser = map[string]*wire.RPCTypeStat{}, map[uint32]*wire.RPCUserStat{}
	}
	ts := s.byType[name]
	if ts == nil {
		ts = &wire.RPCTypeStat{Name: name, ID: id}
		s.byType[name] = ts
		s.typeSeq = append(s.typeSeq, name)
	}
	ts.Count++
	ts.Time += us
	u := s.byUser[uid]
	if u == nil {
		u = &wire.RPCUserStat{UID: uid}
		s.byUser[uid] = u
		s.userSeq = append(s.userSeq, uid)
	}
	u.Count++
	u.Time += us
}

// cycle runs one main scheduler pass and records its time and depth: the pending jobs it
// looked at (every pending job the controller judged, so depth is the queue length).
func (s *ctldStats) cycle(c *Controller, pass func()) {
	queue := c.jobCounts().pending
	start := time.Now()
	pass()
	us := uint32(min(time.Since(start).Microseconds(), int64(^uint32(0)>>1)))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cycleLast = us
	s.cycleMax = max(s.cycleMax, us)
	s.cycleCount++
	s.cycleSum += uint64(us)
	s.depthSum += uint64(queue)
	s.queueLen = queue
}

// jobCounts is the job table's counts now (job_counts.go).
func (c *Controller) jobCounts() jobCounts {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.t.counts
}

// reset starts a new statistics period at now.
func (s *ctldStats) reset(now time.Time, counts jobCounts) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.since = now
	s.byType, s.typeSeq = map[string]*wire.RPCTypeStat{}, nil
	s.byUser, s.userSeq = map[uint32]*wire.RPCUserStat{}, nil
	s.cycleLast, s.cycleMax, s.cycleCount, s.cycleSum, s.depthSum, s.queueLen = 0, 0, 0, 0, 0, 0
	// Jobs already known stay known: a new period counts only what happens in it.
	s.base = counts
}

// handleStats serves sdiag: the statistics, or with Reset (operators only) a new period.
func (c *Controller) handleStats(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	r := req.Body.(*wire.StatsRequest)
	now := c.now()
	if r.Reset {
		if !c.privileged(id) {
			return nil, wire.NewError(wire.ErrnoAccessDenied)
		}
		c.stats.reset(now, c.jobCounts())
		c.bf.reset() // stats_backfill.go
		return nil, nil
	}
	rep := &wire.StatsReply{ReqTime: now.Unix(), JobStatesTime: now.Unix(),
		ServerThreads: uint32(c.srv.Active()), AgentQueueSize: uint32(len(c.agent))}
	counts := c.jobCounts()
	rep.JobsPending, rep.JobsRunning = counts.pending, counts.running

	c.stats.mu.Lock()
	s := &c.stats
	since := s.since.Unix()
	rep.DataSince = since
	ev := counts.since(s.base)
	rep.JobsSubmitted, rep.JobsStarted, rep.JobsCompleted = ev.submitted, ev.started, ev.completed
	rep.JobsCanceled, rep.JobsFailed = ev.canceled, ev.failed
	rep.SchedCycleLast, rep.SchedCycleMax, rep.SchedCycleCount = s.cycleLast, s.cycleMax, s.cycleCount
	rep.SchedCycleSum, rep.SchedCycleDepthSum, rep.SchedQueueLen = s.cycleSum, s.depthSum, s.queueLen
	if mins := (now.Unix() - since) / 60; mins > 0 {
		rep.SchedCyclesPerMin = uint32(int64(s.cycleCount) / mins)
	}
	for _, n := range s.typeSeq {
		rep.RPCsByType = append(rep.RPCsByType, *s.byType[n])
	}
	for _, u := range s.userSeq {
		rep.RPCsByUser = append(rep.RPCsByUser, *s.byUser[u])
	}
	c.stats.mu.Unlock()
	c.bf.fill(rep) // stats_backfill.go
	return rep, nil
}

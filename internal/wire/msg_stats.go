package wire

// Controller statistics: what sdiag asks of slurmctld (Slurm's REQUEST_STATS_INFO).

// StatsRequest asks for the controller's statistics; Reset (sdiag -r, admins only) clears
// them instead and is answered with MsgOK.
type StatsRequest struct {
	Reset bool `codec:"reset"`
}

// StatsReply is the controller's statistics since DataSince, as sdiag prints them. Times
// are Unix seconds; cycle and RPC times are microseconds, as in Slurm.
type StatsReply struct {
	ReqTime   int64 `codec:"req_time"`
	DataSince int64 `codec:"data_since"`

	ServerThreads  uint32 `codec:"server_threads"` // connections being served now
	AgentQueueSize uint32 `codec:"agent_queue_size"`
	AgentCount     uint32 `codec:"agent_count"`
	AgentThreads   uint32 `codec:"agent_threads"`
	DBDAgentQueue  uint32 `codec:"dbd_agent_queue"`

	JobsSubmitted uint32 `codec:"jobs_submitted"`
	JobsStarted   uint32 `codec:"jobs_started"`
	JobsCompleted uint32 `codec:"jobs_completed"`
	JobsCanceled  uint32 `codec:"jobs_canceled"`
	JobsFailed    uint32 `codec:"jobs_failed"`

	JobStatesTime int64  `codec:"job_states_time"`
	JobsPending   uint32 `codec:"jobs_pending"`
	JobsRunning   uint32 `codec:"jobs_running"`

	// Main scheduler (microseconds; depth is jobs looked at per cycle).
	SchedCycleLast     uint32 `codec:"sched_cycle_last"`
	SchedCycleMax      uint32 `codec:"sched_cycle_max"`
	SchedCycleCount    uint32 `codec:"sched_cycle_count"`
	SchedCycleSum      uint64 `codec:"sched_cycle_sum"`
	SchedCycleDepthSum uint64 `codec:"sched_cycle_depth_sum"`
	SchedCyclesPerMin  uint32 `codec:"sched_cycles_per_min"`
	SchedQueueLen      uint32 `codec:"sched_queue_len"`

	// Backfill: zeros until Orbit has a backfill scheduler.
	BfBackfilledJobs    uint32 `codec:"bf_backfilled_jobs"`
	BfLastBackfilled    uint32 `codec:"bf_last_backfilled"`
	BfBackfilledHetJobs uint32 `codec:"bf_backfilled_het_jobs"`
	BfCycleCount        uint32 `codec:"bf_cycle_count"`
	BfCycleSum          uint64 `codec:"bf_cycle_sum"`
	BfCycleLast         uint32 `codec:"bf_cycle_last"`
	BfCycleMax          uint32 `codec:"bf_cycle_max"`
	BfWhenLastCycle     int64  `codec:"bf_when_last_cycle"`
	BfLastDepth         uint32 `codec:"bf_last_depth"`
	BfLastDepthTry      uint32 `codec:"bf_last_depth_try"`
	BfDepthSum          uint64 `codec:"bf_depth_sum"`
	BfDepthTrySum       uint64 `codec:"bf_depth_try_sum"`
	BfQueueLen          uint32 `codec:"bf_queue_len"`
	BfQueueLenSum       uint64 `codec:"bf_queue_len_sum"`
	BfTableSize         uint32 `codec:"bf_table_size"`
	BfTableSizeSum      uint64 `codec:"bf_table_size_sum"`
	BfActive            bool   `codec:"bf_active"`

	RPCsByType []RPCTypeStat `codec:"rpcs_by_type"`
	RPCsByUser []RPCUserStat `codec:"rpcs_by_user"`
}

// RPCTypeStat is one message type's count and total handling time (microseconds). ID is
// Slurm's number for the message when it has one (what sdiag prints), else Orbit's.
type RPCTypeStat struct {
	Name  string `codec:"name"`
	ID    uint32 `codec:"id"`
	Count uint32 `codec:"count"`
	Time  uint64 `codec:"time"`
}

// RPCUserStat is one user's RPC count and total handling time (microseconds).
type RPCUserStat struct {
	UID   uint32 `codec:"uid"`
	Count uint32 `codec:"count"`
	Time  uint64 `codec:"time"`
}

func init() {
	Register(MsgStats, "REQUEST_STATS_INFO", func() any { return new(StatsRequest) })
	Register(MsgStatsReply, "RESPONSE_STATS_INFO", func() any { return new(StatsReply) })
}

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// ctime is slurm_ctime2's format: ctime(3) without the newline, local time.
func ctime(sec int64) string {
	return time.Unix(sec, 0).Format("Mon Jan _2 15:04:05 2006")
}

// lookupUser is uid_to_string_or_null: the user's name, "" when the uid has none.
func lookupUser(uid uint32) string {
	u, err := userdb.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return ""
	}
	return u.Username
}

// render is sdiag's report, line for line as Slurm 22.05's _print_stats prints it. Orbit
// has no DBD agent, no agent thread pool counters and no pending-RPC queue, so those lines
// show zeros and "No pending RPCs"; the gettimeofday latency is measured here, as Slurm's
// controller measures it.
func render(r *wire.StatsReply, userName func(uint32) string) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("*******************************************************\n")
	p("sdiag output at %s (%d)\n", ctime(r.ReqTime), r.ReqTime)
	p("Data since      %s (%d)\n", ctime(r.DataSince), r.DataSince)
	p("*******************************************************\n")
	p("Server thread count:  %d\n", r.ServerThreads)
	p("Agent queue size:     %d\n", r.AgentQueueSize)
	p("Agent count:          %d\n", r.AgentCount)
	p("Agent thread count:   %d\n", r.AgentThreads)
	p("DBD Agent queue size: %d\n\n", r.DBDAgentQueue)

	p("Jobs submitted: %d\n", r.JobsSubmitted)
	p("Jobs started:   %d\n", r.JobsStarted)
	p("Jobs completed: %d\n", r.JobsCompleted)
	p("Jobs canceled:  %d\n", r.JobsCanceled)
	p("Jobs failed:    %d\n\n", r.JobsFailed)

	p("Job states ts:  %s (%d)\n", ctime(r.JobStatesTime), r.JobStatesTime)
	p("Jobs pending:   %d\n", r.JobsPending)
	p("Jobs running:   %d\n", r.JobsRunning)

	p("\nMain schedule statistics (microseconds):\n")
	p("\tLast cycle:   %d\n", r.SchedCycleLast)
	p("\tMax cycle:    %d\n", r.SchedCycleMax)
	p("\tTotal cycles: %d\n", r.SchedCycleCount)
	if n := uint64(r.SchedCycleCount); n > 0 {
		p("\tMean cycle:   %d\n", uint32(r.SchedCycleSum/n))
		p("\tMean depth cycle:  %d\n", uint32(r.SchedCycleDepthSum/n))
	}
	if span := r.ReqTime - r.DataSince; span > 60 {
		p("\tCycles per minute: %d\n", uint32(int64(r.SchedCycleCount)/(span/60)))
	}
	p("\tLast queue length: %d\n", r.SchedQueueLen)

	if r.BfActive {
		p("\nBackfilling stats (WARNING: data obtained in the middle of backfilling execution.)\n")
	} else {
		p("\nBackfilling stats\n")
	}
	p("\tTotal backfilled jobs (since last slurm start): %d\n", r.BfBackfilledJobs)
	p("\tTotal backfilled jobs (since last stats cycle start): %d\n", r.BfLastBackfilled)
	p("\tTotal backfilled heterogeneous job components: %d\n", r.BfBackfilledHetJobs)
	p("\tTotal cycles: %d\n", r.BfCycleCount)
	if r.BfWhenLastCycle > 0 {
		p("\tLast cycle when: %s (%d)\n", ctime(r.BfWhenLastCycle), r.BfWhenLastCycle)
	} else {
		p("\tLast cycle when: N/A\n")
	}
	p("\tLast cycle: %d\n", r.BfCycleLast)
	p("\tMax cycle:  %d\n", r.BfCycleMax)
	bfN := uint64(r.BfCycleCount)
	if bfN > 0 {
		p("\tMean cycle: %d\n", r.BfCycleSum/bfN)
	}
	p("\tLast depth cycle: %d\n", r.BfLastDepth)
	p("\tLast depth cycle (try sched): %d\n", r.BfLastDepthTry)
	if bfN > 0 {
		p("\tDepth Mean: %d\n", uint32(r.BfDepthSum/bfN))
		p("\tDepth Mean (try depth): %d\n", uint32(r.BfDepthTrySum/bfN))
	}
	p("\tLast queue length: %d\n", r.BfQueueLen)
	if bfN > 0 {
		p("\tQueue length mean: %d\n", uint32(r.BfQueueLenSum/bfN))
	}
	p("\tLast table size: %d\n", r.BfTableSize)
	if bfN > 0 {
		p("\tMean table size: %d\n", uint32(r.BfTableSizeSum/bfN))
	}

	p("\nLatency for 1000 calls to gettimeofday(): %d microseconds\n", clockLatency())

	p("\nRemote Procedure Call statistics by message type\n")
	for _, t := range r.RPCsByType {
		p("\t%-40s(%5d) count:%-6d ave_time:%-6d total_time:%d\n", t.Name, t.ID, t.Count, ave(t.Time, t.Count), t.Time)
	}
	p("\nRemote Procedure Call statistics by user\n")
	for _, u := range r.RPCsByUser {
		name := userName(u.UID)
		if name == "" {
			name = strconv.FormatUint(uint64(u.UID), 10)
		}
		p("\t%-16s(%8d) count:%-6d ave_time:%-6d total_time:%d\n", name, u.UID, u.Count, ave(u.Time, u.Count), u.Time)
	}
	p("\nPending RPC statistics\n")
	p("\tNo pending RPCs\n")
	return b.String()
}

func ave(total uint64, count uint32) uint32 {
	if count == 0 {
		return 0
	}
	return uint32(total / uint64(count))
}

// clockLatency is the time 1000 reads of the clock take, in microseconds.
func clockLatency() int64 {
	start := time.Now()
	for range 1000 {
		_ = time.Now()
	}
	return time.Since(start).Microseconds()
}

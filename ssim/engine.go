package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/plugins/sched/backfill"
	"github.com/orbit-hpc/orbit/plugins/sched/builtin"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
)

// Engine runs placed jobs on a cluster in virtual time and says when each started and
// ended: ctldEngine (engine_ctld.go, the default) through the real controller,
// harnessEngine through plugins/scheduler's Harness (--engine harness, for comparison).
type Engine interface {
	Run(cl *Cluster, jobs []SimJob) (*Outcome, error)
}

// Record is one simulated job: its submit, start and end times (seconds from the trace's
// origin) and the nodes it held.
type Record struct {
	Job   *SimJob
	Start int64
	End   int64
	Nodes uint32
}

// Outcome is what an engine run produced.
type Outcome struct {
	// Records has one entry per job that ran, in start order.
	Records []Record
	// Unstarted counts jobs still pending when nothing was left to happen (a job the
	// scheduler never starts, e.g. on a partition that is down).
	Unstarted int
	// Rejected counts plan entries the verification refused (a correct plugin has none).
	Rejected int
	// Cycles counts scheduling cycles (Schedule calls).
	Cycles int
	// Refused counts jobs the controller's submit handler refused (the controller engine
	// only), with the first refusal's message.
	Refused    int
	RefusedWhy string
}

// NewScheduler returns the plugin SchedulerType names, configured by cfg. An empty type is
// Slurm's default, sched/backfill.
func NewScheduler(cfg scheduler.Config) (scheduler.Scheduler, error) {
	switch strings.ToLower(strings.TrimSpace(cfg.SchedulerType)) {
	case "sched/builtin":
		return builtin.New(cfg), nil
	case "sched/backfill", "":
		// Virtual time does not pass during a pass: the plugin's wall-clock limits
		// (bf_yield_interval, bf_max_time) must not split passes by the machine's speed.
		return backfill.NewClocked(cfg, func() time.Time { return time.Unix(0, 0) })
	}
	return nil, fmt.Errorf("SchedulerType=%s: ssim simulates sched/builtin and sched/backfill", cfg.SchedulerType)
}

// harnessEngine drives plugins/scheduler's Harness: the controller's side is the Harness
// (state, minimal verification, job ends at runtime or time limit), the scheduler's side is
// the real plugin code in-process.
//
// When it calls Schedule, as slurmctld does: at every submit and every job end (the
// event-driven main scheduler), and, while jobs wait and something changed since the last
// backfill pass, at the next bf_interval tick (a pass over an unchanged state plans the
// same as the last one, so the ticks in between are skipped); when the main pass stopped at
// default_queue_depth, again sched_interval later for a full pass. Slurm's backfill thread
// runs on a fixed period; here a pass due at an event runs at that event, up to bf_interval
// earlier than Slurm's timer would run it.
type harnessEngine struct{}

// Run simulates jobs, which must be in submit order.
func (harnessEngine) Run(cl *Cluster, jobs []SimJob) (*Outcome, error) {
	out := &Outcome{}
	if len(jobs) == 0 {
		return out, nil
	}
	sched, err := NewScheduler(cl.Config)
	if err != nil {
		return nil, err
	}
	params, _ := scheduler.ParseParams(cl.Config.SchedulerParameters)
	isBackfill := !strings.EqualFold(strings.TrimSpace(cl.Config.SchedulerType), "sched/builtin")
	state := scheduler.State{Seq: 1, Now: jobs[0].Submit, Config: cl.Config, Nodes: cl.Nodes, Partitions: cl.Partitions}
	h, err := scheduler.NewHarness(sched, state)
	if err != nil {
		return nil, fmt.Errorf("scheduler plugin refused the cluster: %v", err)
	}
	users := map[string]uint32{}
	byID := make(map[uint32]*SimJob, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		j.Seq = uint32(i + 1)
		byID[j.Seq] = j
		h.Runtime[j.Seq] = j.Runtime
	}
	const never = math.MaxInt64
	next, pending := 0, 0
	lastBF := int64(-1)
	dirty := false
	wake := int64(never)
	for {
		t := int64(never)
		if next < len(jobs) {
			t = jobs[next].Submit
		}
		if e, ok := h.NextEnd(); ok {
			t = min(t, e)
		}
		t = min(t, wake)
		if t == never {
			break
		}
		t = max(t, h.Now())
		ended, err := h.Advance(t)
		if err != nil {
			return nil, err
		}
		var submit []scheduler.Job
		for ; next < len(jobs) && jobs[next].Submit <= t; next++ {
			submit = append(submit, schedJob(&jobs[next], users))
		}
		if len(submit) > 0 {
			if err := h.Submit(submit...); err != nil {
				return nil, err
			}
			pending += len(submit)
		}
		before, rejected := len(h.Started), len(h.Rejected)
		plan, err := h.Cycle()
		if err != nil {
			return nil, fmt.Errorf("t=%d: scheduler: %v", t, err)
		}
		out.Cycles++
		out.Rejected += len(h.Rejected) - rejected
		for _, st := range h.Started[before:] {
			j := byID[st.JobID]
			run := j.Runtime
			if j.Limit != scheduler.Infinite {
				run = min(run, int64(j.Limit)*60)
			}
			out.Records = append(out.Records, Record{Job: j, Start: st.Time, End: st.Time + run, Nodes: uint32(len(st.Nodes))})
			pending--
		}
		// The same rule the backfill plugin applies to decide whether this call ran a pass.
		if isBackfill && params.BfInterval != -1 && (lastBF < 0 || t-lastBF >= int64(params.BfInterval)) {
			lastBF, dirty = t, false
		} else if len(ended) > 0 || len(submit) > 0 || len(h.Started) > before {
			dirty = true
		}
		wake = never
		if pending > 0 && dirty && isBackfill && params.BfInterval != -1 {
			wake = lastBF + int64(params.BfInterval)
		}
		if pending > 0 && plan.Stats.DepthReached != 0 && params.SchedInterval > 0 {
			wake = min(wake, t+int64(params.SchedInterval))
		}
	}
	out.Unstarted = pending
	return out, nil
}

// schedJob is a trace job as the controller would show it to the scheduler: pending and
// eligible from its submit, equal priority (so order is submit time, then id: FCFS), on
// whole nodes (--exclusive, one task per node), so node-seconds are what it holds.
func schedJob(j *SimJob, users map[string]uint32) scheduler.Job {
	uid, ok := users[j.User]
	if !ok {
		if n, err := strconv.ParseUint(j.User, 10, 32); err == nil {
			uid = uint32(n)
		} else {
			uid = uint32(100000 + len(users))
		}
		users[j.User] = uid
	}
	return scheduler.Job{
		ID: j.Seq, UserID: uid, Name: "ssim-" + j.ID, Partition: j.Partition,
		State: scheduler.JobPending, Priority: 1, Eligible: true,
		SubmitTime: j.Submit, EligibleTime: j.Submit, TimeLimit: j.Limit,
		MinNodes: j.NodeCount, MaxNodes: j.NodeCount, NumTasks: j.NodeCount, CPUsPerTask: 1,
		Exclusive: true,
	}
}

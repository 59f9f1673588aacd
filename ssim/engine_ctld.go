package main

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/scheduler"
	"github.com/orbit-hpc/orbit/slurmctld/ctld"
)

// simOrigin is the virtual Unix time of a trace's second 0. A recent time keeps every time
// the controller stores positive and plausible (0 means "not yet" for a start or end time);
// a whole hour makes backfill's bf_resolution slots (rounded Unix times) start at the
// trace's second 0, as the harness engine's do.
const simOrigin = 999_993_600

// ctldEngine drives the real controller (slurmctld/ctld's Sim) in virtual time: each trace
// job is submitted through the controller's submit handler at its submit time; the
// controller's eligibility, the real plugin's plan (sched/builtin or sched/backfill linked
// in-process), the controller's verification and apply path decide every start; emulated
// nodes end each job at its trace runtime through the controller's completion handler, or
// the controller's time-limit timer ends it TIMEOUT at its limit (plus OverTimeLimit); state
// goes to a real SQLite store in a temporary directory (on /dev/shm, where the store's fsync
// costs nothing). Nothing ticks: the clock jumps to the next submit, job end, time limit or
// due scheduler pass.
//
// When it runs a scheduling cycle: whenever the controller is woken (every submit and
// every job end, as slurmctld's event-driven main scheduler), and, while jobs wait and
// something changed since the last backfill pass, at the next bf_interval tick; when the
// main pass stopped at default_queue_depth, again sched_interval later. The periodic cycles
// slurmctld runs over an unchanged state are skipped: they plan the same as the last one.
// This is the harness engine's rule, so the two engines differ only in what the controller
// does that the harness does not.
type ctldEngine struct{}

// Run simulates jobs, which must be in submit order.
func (ctldEngine) Run(cl *Cluster, jobs []SimJob) (*Outcome, error) {
	out := &Outcome{}
	if len(jobs) == 0 {
		return out, nil
	}
	if cl.Conf == nil {
		return nil, fmt.Errorf("the controller engine needs the slurm.conf (ClusterOf)")
	}
	sched, err := NewScheduler(cl.Config)
	if err != nil {
		return nil, err
	}
	cfg := *cl.Conf
	cfg.SchedulerType = cl.Config.SchedulerType
	params, _ := scheduler.ParseParams(cfg.SchedulerParameters)
	isBackfill := !strings.EqualFold(strings.TrimSpace(cfg.SchedulerType), "sched/builtin")
	warn := &warnCounter{}
	sim, err := ctld.NewSim(&cfg, ctld.SimOptions{Scheduler: sched, Start: simOrigin + jobs[0].Submit, Logger: slog.New(warn)})
	if err != nil {
		return nil, fmt.Errorf("the controller refused the cluster: %v", err)
	}
	defer sim.Close()

	users := map[string]uint32{}
	byID := make(map[uint32]*SimJob, len(jobs))
	recOf := make(map[uint32]int, len(jobs)) // job id → index in out.Records
	const never = math.MaxInt64
	next, pending := 0, 0
	lastBF := int64(-1)
	dirty := false
	wake := int64(never)
	for {
		t := int64(never)
		if next < len(jobs) {
			t = simOrigin + jobs[next].Submit
		}
		if e, ok := sim.NextEvent(); ok {
			t = min(t, e)
		}
		t = min(t, wake)
		if t == never {
			break
		}
		t = max(t, sim.Now())
		ended, err := sim.Advance(t)
		if err != nil {
			return nil, err
		}
		for _, e := range ended {
			if i, ok := recOf[e.JobID]; ok {
				out.Records[i].End = e.End - simOrigin
				delete(recOf, e.JobID)
			}
		}
		submitted := 0
		for ; next < len(jobs) && simOrigin+jobs[next].Submit <= t; next++ {
			j := &jobs[next]
			uid := schedJob(j, users).UserID
			id, err := sim.Submit(jobDesc(j), uid, uid, j.Runtime, t)
			if err != nil {
				out.Refused++
				if out.RefusedWhy == "" {
					out.RefusedWhy = fmt.Sprintf("job %s: %v", j.ID, err)
				}
				continue
			}
			j.Seq = id
			byID[id] = j
			submitted++
		}
		pending += submitted
		starts, err := sim.Cycle(t)
		if err != nil {
			return nil, fmt.Errorf("t=%d: %v", t-simOrigin, err)
		}
		out.Cycles++
		for _, st := range starts {
			j := byID[st.JobID]
			if j == nil {
				continue
			}
			recOf[st.JobID] = len(out.Records)
			out.Records = append(out.Records, Record{Job: j, Start: st.Start - simOrigin, End: -1, Nodes: uint32(len(st.Nodes))})
			pending--
		}
		// The same rule the backfill plugin applies to decide whether this call ran a pass.
		if isBackfill && params.BfInterval != -1 && (lastBF < 0 || t-lastBF >= int64(params.BfInterval)) {
			lastBF, dirty = t, false
		} else if len(ended) > 0 || submitted > 0 || len(starts) > 0 {
			dirty = true
		}
		wake = never
		if pending > 0 && dirty && isBackfill && params.BfInterval != -1 {
			wake = lastBF + int64(params.BfInterval)
		}
		if pending > 0 && sim.DepthReached() && params.SchedInterval > 0 {
			wake = min(wake, t+int64(params.SchedInterval))
		}
		if sim.Wanted() { // the controller woke itself (an array task started; more follow)
			wake = min(wake, t)
		}
	}
	if len(recOf) > 0 {
		return nil, fmt.Errorf("%d started jobs never ended", len(recOf))
	}
	out.Unstarted = pending
	out.Rejected = warn.count("scheduler plan entry refused")
	if msg := warn.firstError(); msg != "" {
		return nil, fmt.Errorf("the controller: %s", msg)
	}
	return out, nil
}

// jobDesc is a trace job as sbatch would send it: `sbatch --exclusive -N n -n n -J ssim-ID
// [-p partition] [-t limit]`, one task per node on whole nodes, so node-seconds are what it
// holds. Without a requested time the controller applies the partition's DefaultTime or
// MaxTime, as it does for sbatch without -t.
func jobDesc(j *SimJob) *wire.JobDesc {
	limit := wire.NoVal
	if j.Limit != scheduler.Infinite {
		limit = j.Limit
	}
	return &wire.JobDesc{
		Name: "ssim-" + j.ID, Partition: j.Partition,
		MinNodes: j.NodeCount, MaxNodes: j.NodeCount, NumTasks: j.NodeCount, CPUsPerTask: 1,
		MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64,
		TimeLimit: limit, TimeMin: wire.NoVal, Priority: wire.NoVal,
		Shared: int32(jobspec.SharedNone), Requeue: -1, KillInvalid: -1,
		Script: "#!/bin/sh\n# ssim: trace job " + j.ID + "\n",
	}
}

// warnCounter is the simulated controller's log: it counts warnings by message (a refused
// plan entry is a warning) and keeps the first error.
type warnCounter struct {
	mu    sync.Mutex
	by    map[string]int
	first string
}

func (w *warnCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnCounter) Handle(_ context.Context, r slog.Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[string]int{}
	}
	w.by[r.Message]++
	if r.Level >= slog.LevelError && w.first == "" {
		var b strings.Builder
		b.WriteString(r.Message)
		r.Attrs(func(a slog.Attr) bool {
			fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
			return true
		})
		w.first = b.String()
	}
	return nil
}
func (w *warnCounter) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnCounter) WithGroup(string) slog.Handler      { return w }

func (w *warnCounter) count(msg string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.by[msg]
}

func (w *warnCounter) firstError() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

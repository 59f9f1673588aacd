package ctld

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Will-run tests: sbatch and srun --test-only (Slurm's REQUEST_JOB_WILL_RUN). The job is
// validated as a submission would be and placed read-only on the current tables; nothing is
// stored and no table changes, except that the job id the job would have had is used up
// (in memory only), as Slurm's job_allocate creates and then purges a record for the test.

// handleJobWillRun serves MsgJobWillRun: authenticate → validate (newJob, so the errors are
// a submission's) → place read-only → reply with when, where and with how many CPUs.
func (c *Controller) handleJobWillRun(_ context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	d := req.Body.(*wire.JobWillRunRequest).Job
	batch := d.Script != ""
	if !batch { // srun --test-only: an allocation has no script
		d.Script = interactivePlaceholder
	}
	now := c.now().Unix()
	// A batch job's -N0, which a submission refuses (job_submit.go), is tested as Slurm
	// tests it: with tasks given, as one node; without, as a job of no nodes that could
	// start now. srun --test-only -N0 is refused as its submission would be.
	noNodes := false
	if batch && d.MinNodes == 0 && (d.MaxNodes == 0 || d.MaxNodes == wire.NoVal) {
		if d.NumTasks == wire.NoVal || d.NumTasks == 0 {
			noNodes, d.Hold = true, true // held, the submission path takes -N0
		} else {
			d.MinNodes = 1
		}
	}
	j, err := c.newJob(&d, id, now)
	if err != nil {
		var we *wire.Error
		if errors.As(err, &we) && we.Errno == errnoNodeConfigUnavail {
			// Slurm finds these (memory, --tmp, CPUs per node no node has) while placing
			// the job, which a test does not do through the submission path: it answers as
			// for any job no node can hold, with no message.
			return nil, slurmErr(errnoNodeConfigUnavail)
		}
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Slurm creates the job record before it tests it, so a test uses up a job id even
	// when the job could never run; the id need not be durable, no job ever carries it.
	j.JobID = c.t.nextJobID
	c.t.nextJobID++
	if j.Priority != 0 {
		j.Priority = max(c.t.lowPrio-1, 1)
	}
	if noNodes {
		return &wire.JobWillRunReply{JobID: j.JobID, StartTime: now, Partition: j.Partition}, nil
	}
	part := c.t.parts[j.Partition]
	usable, at := c.t.resvPart(j, part, now) // resv_jobs.go
	if l := j.descStr(descReqNodes); l != "" && usable != nil {
		// Slurm's job_start_data tests a job that names nodes on those nodes alone: one
		// that needs more than it names cannot start (a submission would add others).
		named, _ := hostlist.Expand(l)
		only := *usable
		only.nodes = slices.DeleteFunc(slices.Clone(usable.nodes), func(n string) bool { return !slices.Contains(named, n) })
		usable = &only
	}
	start, a, ok := c.t.willRun(j, usable, c.trackMem, now)
	if !ok {
		return nil, slurmErr(errnoNodeConfigUnavail)
	}
	start = max(start, at)
	start += c.t.delayedStart(j, part)
	// A begin time in the future is the earliest start (job_start_data's start_res).
	start = max(start, j.EligibleTime)
	// Slurm reports the job's own CPU count (its total_cpus), not what placing it would
	// hold (whole cores on a node with several threads a core count more): the tasks' CPUs,
	// raised to --mincpus on each node unless -c was given. An exclusive job reports the CPUs
	// it would hold.
	cpus := j.requestedCPUs()
	if j.CPUsPerTask <= 1 {
		cpus = max(cpus, uint32(j.descUint(descMinCPUs))*max(j.MinNodes, 1))
	}
	if j.Exclusive {
		cpus = 0
		for _, n := range a.cpus {
			cpus += n
		}
	}
	return &wire.JobWillRunReply{
		JobID:     j.JobID,
		StartTime: start,
		ProcCnt:   cpus,
		NodeList:  hostlist.Compress(a.nodes),
		Partition: part.conf.Name,
	}, nil
}

// willRun says when and where j could start in partition p, considering only the jobs
// holding nodes now (select/cons_tres's will-run test): now when selectNodes finds room,
// otherwise the end of the running job after whose end (running jobs taken in order of end
// time) the job fits. It works on copies of the nodes and never changes t. A job that does
// not fit even on empty nodes never runs: ok is false.
func (t *tables) willRun(j *jobRecord, p *partEntry, trackMem bool, now int64) (start int64, a allocation, ok bool) {
	if p == nil || !t.fitsEver(j, p) {
		return 0, allocation{}, false
	}
	if a, ok := t.selectNodes(j, p, trackMem); ok {
		return now, a, true
	}
	future := t.sketch(nil)
	var running []*jobRecord
	for _, r := range t.jobs {
		if r.holdsNodes() {
			running = append(running, r)
		}
	}
	slices.SortFunc(running, func(x, y *jobRecord) int {
		if c := cmp.Compare(endEstimate(x, now), endEstimate(y, now)); c != 0 {
			return c
		}
		return cmp.Compare(x.JobID, y.JobID)
	})
	// As Slurm's _will_run_test: the jobs ending within willRunWindow of the first of a
	// group end together, and the job is tried after each group; it starts when the last
	// job of the group that made room ends.
	var first int64
	var last *jobRecord
	for i, r := range running {
		if !overlaps(r.Nodes, p.nodes) {
			continue // frees nothing this job could use
		}
		if last == nil {
			first = endEstimate(r, now)
		}
		future.release(r)
		last = r
		if i+1 < len(running) && endEstimate(running[i+1], now) <= first+willRunWindow {
			continue
		}
		if a, ok := future.selectNodes(j, p, trackMem); ok {
			end := endEstimate(last, now)
			if end <= now {
				end = now + 1
			}
			return end, a, true
		}
		last = nil
	}
	return 0, allocation{}, false
}

// willRunWindow is how close (seconds) the ends of running jobs must be for will-run to let
// them end together (Slurm's time_window).
const willRunWindow = 30

// endEstimate is when a running job will have ended at the latest: its end time, or, with
// no time limit, a year after its start (Slurm's end time for INFINITE).
func endEstimate(j *jobRecord, now int64) int64 {
	if j.EndTime == 0 {
		if j.StartTime == 0 {
			return now + yearSeconds
		}
		return j.StartTime + yearSeconds
	}
	return j.EndTime
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if inList(b, x) {
			return true
		}
	}
	return false
}

// delayedStart is the seconds Slurm's will-run answer adds for the pending jobs ahead of j
// (job_scheduler.c's _delayed_job_start_time): the CPU-minutes every pending job of the
// same partition with at least j's priority asks for (its CPUs, at least its nodes' worth,
// times its time limit) spread over the partition's CPUs.
func (t *tables) delayedStart(j *jobRecord, p *partEntry) int64 {
	nodes := uint32(len(p.nodes))
	cpusPerNode := uint32(1)
	if p.cpus > nodes && nodes > 0 {
		cpusPerNode = p.cpus / nodes
	}
	var cume uint64
	for _, q := range t.jobs {
		if !q.state().IsPending() || q.Partition != j.Partition || q.Priority < j.Priority || q.JobID == j.JobID {
			continue
		}
		size := max(q.NumTasks*q.CPUsPerTask, q.MinNodes*cpusPerNode)
		// Slurm multiplies in 32 bits, so an unlimited time limit wraps; the estimate it
		// prints is what users see, so Orbit wraps the same way.
		cume += uint64(size * q.TimeLimit)
	}
	if p.cpus == 0 {
		return 0
	}
	return int64(cume / uint64(p.cpus) * 60)
}

package ctld

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// Job dependencies (--dependency), evaluated from the job's request and the live tables at
// every scheduler pass and every job info, as Slurm's test_job_dependency does: a condition on
// a job that no longer exists (or never did) is satisfied and drops out of the list; the job
// waits with reason Dependency while any remains unfulfilled, and gets
// DependencyNeverSatisfied when it can no longer be met (or is cancelled then, with
// --kill-on-invalid-dep=yes).

// errnoDependency is ESLURM_DEPENDENCY.
const errnoDependency = 2038

func init() { errnoTexts[errnoDependency] = jobspec.ErrDependency }

// checkDependency validates a --dependency at submit.
func checkDependency(s string) error {
	if s == "" {
		return nil
	}
	if _, err := jobspec.ParseDependency(s); err != nil {
		return slurmErr(errnoDependency)
	}
	return nil
}

type depStatus uint8

const (
	depMet depStatus = iota
	depWaiting
	depFailed
)

// dependency evaluates j's dependency at now: the pending reason it imposes (WaitNoReason
// when met) and what scontrol prints as Dependency= ("" for (null)).
func (t *tables) dependency(j *jobRecord, now int64) (states.Reason, string) {
	dep := j.descStr(descDependency)
	if dep == "" {
		return states.WaitNoReason, ""
	}
	list, err := jobspec.ParseDependency(dep)
	if err != nil {
		return states.WaitNoReason, ""
	}
	var shown []string
	waiting, failed, met := 0, 0, 0
	for _, d := range list.Items {
		st, name := t.depItem(j, d, now)
		switch st {
		case depMet:
			met++
			continue
		case depWaiting:
			waiting++
			name += "(unfulfilled)"
		case depFailed:
			failed++
			name += "(failed)"
		}
		shown = append(shown, name)
	}
	sep := ","
	if list.Any {
		sep = "?"
		if met > 0 {
			return states.WaitNoReason, ""
		}
		if waiting > 0 {
			return states.WaitDependency, strings.Join(shown, sep)
		}
		return states.WaitDepInvalid, strings.Join(shown, sep)
	}
	switch {
	case failed > 0:
		return states.WaitDepInvalid, strings.Join(shown, sep)
	case waiting > 0:
		return states.WaitDependency, strings.Join(shown, sep)
	}
	return states.WaitNoReason, ""
}

// depItem evaluates one condition and names it as scontrol does ("afterok:12_*").
func (t *tables) depItem(j *jobRecord, d jobspec.Dependency, now int64) (depStatus, string) {
	if d.Type == "singleton" {
		name := j.descStr(descName)
		for _, o := range t.jobs {
			if o.JobID == j.JobID || o.UserID != j.UserID || o.descStr(descName) != name ||
				o.state().IsFinished() || (o.ArrayJobID != 0 && o.ArrayJobID == j.ArrayJobID) {
				continue
			}
			if !o.state().IsPending() || o.JobID < j.JobID {
				return depWaiting, "singleton"
			}
		}
		return depMet, "singleton"
	}
	jobStr, taskStr, isTask := strings.Cut(d.JobID, "_")
	n, _ := strconv.ParseUint(jobStr, 10, 32)
	id := uint32(n)
	task := wire.NoVal
	all := false
	switch {
	case isTask && taskStr == "*":
		all = true
	case isTask:
		v, _ := strconv.ParseUint(taskStr, 10, 32)
		task = uint32(v)
	}
	if base := t.jobs[id]; !isTask && base != nil && base.ArrayJobID == id {
		all = true // a bare array id means every task
	}
	if d.Type == "aftercorr" {
		all = false
		task = j.taskIndex()
	}
	name := d.Type + ":" + jobStr
	switch {
	case all || (d.Type == "aftercorr" && task == wire.NoVal):
		name += "_*"
	case isTask || d.Type == "aftercorr":
		name += "_" + strconv.FormatUint(uint64(task), 10)
	}
	if d.Minutes > 0 {
		name += "+" + strconv.Itoa(d.Minutes)
	}

	// The records the condition is about; pending array indices count as pending jobs.
	var targets []*jobRecord
	pending := 0
	for _, o := range t.jobs {
		switch {
		case all || d.Type == "aftercorr" && task == wire.NoVal:
			if o.ArrayJobID == id || (o.JobID == id && o.ArrayJobID == 0) {
				targets = append(targets, o)
			}
		case task != wire.NoVal:
			if o.ArrayJobID == id && o.isArrayRecord() {
				for _, x := range o.ArrayPending {
					if x == task {
						pending++
					}
				}
			} else if o.ArrayJobID == id && o.ArrayTaskID == task {
				targets = append(targets, o)
			}
		default:
			if o.JobID == id {
				targets = append(targets, o)
			}
		}
	}
	if len(targets) == 0 && pending == 0 {
		return depMet, name
	}
	finished, completed, started := 0, 0, 0
	var lastStart int64
	for _, o := range targets {
		s := o.state()
		if s.IsPending() {
			pending++
			continue
		}
		started++
		lastStart = max(lastStart, o.StartTime)
		if s.IsFinished() && !s.IsCompleting() {
			finished++
			if s.Base() == states.JobComplete {
				completed++
			}
		}
	}
	switch d.Type {
	case "after":
		if pending > 0 {
			return depWaiting, name
		}
		if d.Minutes > 0 && now < lastStart+int64(d.Minutes)*60 {
			return depWaiting, name
		}
		return depMet, name
	case "afterany", "afterburstbuffer", "expand":
		if pending > 0 || finished < started {
			return depWaiting, name
		}
		return depMet, name
	case "afterok", "aftercorr":
		if finished > completed {
			return depFailed, name
		}
		if pending > 0 || finished < started {
			return depWaiting, name
		}
		return depMet, name
	case "afternotok":
		if pending > 0 || finished < started {
			return depWaiting, name
		}
		if finished > completed {
			return depMet, name
		}
		return depFailed, name
	}
	return depMet, name
}

// killInvalidDep says whether a job whose dependency can never be met is cancelled
// (--kill-on-invalid-dep=yes).
func (c *Controller) killInvalidDep(j *jobRecord) bool {
	switch int32(j.descInt(descKillInvalid)) {
	case 1:
		return true
	case 2:
		return false
	}
	return false // DependencyParameters=kill_invalid_depend is not read yet
}

// cancelInvalidDeps cancels pending jobs whose dependency can never be met; they keep reason
// DependencyNeverSatisfied, as in Slurm.
func (c *Controller) cancelInvalidDeps(ids []uint32, now int64) {
	ends := make([]endJob, len(ids))
	for i, id := range ids {
		ends[i] = endJob{jobID: id, state: states.JobCancelled, reason: states.WaitDepInvalid, end: now}
	}
	c.endPending(ends, "jobs cancelled: dependency never satisfied")
}

// endPending applies ends to the jobs among them still pending, as one durable change, and
// logs what.
func (c *Controller) endPending(ends []endJob, what string) {
	var chs multi
	var ids []uint32
	c.mu.Lock()
	for _, e := range ends {
		if j := c.t.jobs[e.jobID]; j != nil && j.state().IsPending() {
			chs = append(chs, e)
			ids = append(ids, e.jobID)
		}
	}
	if len(chs) == 0 {
		c.mu.Unlock()
		return
	}
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err == nil {
		err = p.Wait(c.ctx)
	}
	if err != nil {
		c.log.Error("cannot end pending jobs", "what", what, "err", err)
		return
	}
	c.log.Info(what, "jobs", ids)
	c.wake()
}

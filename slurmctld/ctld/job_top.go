package ctld

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol top JOB_LIST (Slurm's job_set_top): the listed jobs take the highest priorities
// among themselves and their user's other pending jobs of the same partition, account and
// QOS, in the order listed; the priority they gain is taken from those other jobs, spread
// evenly, and both sides' nice values move by what their priorities moved, so the user's
// jobs change order without gaining on anyone else's. Operators may top any job; users
// their own only with SchedulerParameters=enable_user_top.

// handleTop serves MsgUpdateJob with JobActionTop.
func (c *Controller) handleTop(ctx context.Context, id *wire.Identity, r *wire.UpdateJobRequest) (any, error) {
	uid := uint32(0) // an operator's request may name anyone's jobs
	if !c.privileged(id) {
		if !strings.Contains(strings.ToLower(c.config().SchedulerParameters), "enable_user_top") {
			return updateReply(errnoAccessDenied), nil
		}
		uid = id.UID
	}
	c.mu.Lock()
	list, errno := c.t.topJobs(r.JobIDStr)
	if errno != 0 {
		c.mu.Unlock()
		return updateReply(errno), nil
	}
	changed, errno := c.t.setTop(list, uid)
	if len(changed) == 0 {
		c.mu.Unlock()
		return updateReply(errno), nil
	}
	var chs multi
	for _, j := range changed {
		chs = append(chs, replaceJob{rec: j})
	}
	p, err := c.apply(chs)
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "top not applied: %v", err)
	}
	if err := p.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.wake()
	return updateReply(errno), nil
}

// topJobs reads scontrol top's list as Slurm's job_set_top: each item a job id ("12",
// "12_*" for a whole array's record) or one task of an array ("12_3"); the first that is
// not a job makes the whole request ESLURM_INVALID_JOB_ID. Called with c.mu held.
func (t *tables) topJobs(s string) ([]*jobRecord, int32) {
	var list []*jobRecord
	for _, tok := range strings.Split(s, ",") {
		if tok == "" {
			continue
		}
		idStr, task, hasTask := strings.Cut(tok, "_")
		id, err := strconv.ParseUint(idStr, 10, 32)
		if err != nil || id == 0 {
			return nil, errnoInvalidJobID
		}
		var j *jobRecord
		switch {
		case !hasTask || task == "*":
			j = t.jobs[uint32(id)]
		default:
			n, err := strconv.ParseUint(task, 10, 32)
			if err != nil {
				return nil, errnoInvalidJobID
			}
			recs, _, arrayRec, found := t.arrayTargets(uint32(id), uint32(n))
			switch {
			case !found:
			case arrayRec != nil:
				j = arrayRec // a pending task is still the array's record, as in Slurm
			default:
				j = recs[0]
			}
		}
		if j == nil {
			return nil, errnoInvalidJobID
		}
		list = append(list, j)
	}
	if len(list) == 0 {
		return nil, errnoInvalidJobID
	}
	return list, 0
}

// setTop is Slurm's _set_top over the listed jobs, for a request of uid (0: an operator's).
// It returns copies of the jobs it changed, to install, and the errno to reply: a job of
// another user, or one asked for in several partitions, refuses the whole request; jobs not
// pending or held are passed over, and their error is the reply only when no job was left.
// Called with c.mu held.
func (t *tables) setTop(list []*jobRecord, uid uint32) (changed []*jobRecord, errno int32) {
	var top []*jobRecord
	var prios []uint32
	inTop := map[uint32]bool{}
	passed := int32(0)
	for _, j := range list {
		if j.UserID != uid && uid != 0 {
			return nil, errnoAccessDenied
		}
		if !j.state().IsPending() {
			passed = errnoJobNotPending
			continue
		}
		if strings.Contains(j.descStr(descPartition), ",") {
			return nil, errnoPartConfigUnavail
		}
		if j.Priority == 0 {
			passed = errnoJobHeld
			continue
		}
		if inTop[j.JobID] {
			continue
		}
		inTop[j.JobID] = true
		top = append(top, j)
		prios = append(prios, j.Priority)
	}
	if len(top) == 0 {
		return nil, passed
	}
	first := top[0]
	// The user's other pending jobs like the first one (priority 1 would be held if lowered).
	var others []*jobRecord
	for _, id := range t.sortedJobIDs() {
		o := t.jobs[id]
		if inTop[o.JobID] || !o.state().IsPending() || o.Priority <= 1 || o.UserID != first.UserID ||
			o.Partition != first.Partition || strings.Contains(o.descStr(descPartition), ",") ||
			o.descStr(descAccount) != first.descStr(descAccount) || o.descStr(descQOS) != first.descStr(descQOS) {
			continue
		}
		others = append(others, o)
		prios = append(prios, o.Priority)
	}
	slices.SortFunc(prios, func(a, b uint32) int { return int(int64(b) - int64(a)) })

	var total int64 // priority the listed jobs gained, taken back from the others
	last := uint32(wire.NoVal)
	for i, j := range top {
		next := prios[i]
		if last != wire.NoVal && next == last && last > 2 {
			next = last - 1 // never two alike, and never below 1
		}
		last = next
		delta := int64(next) - int64(j.Priority)
		n := j.clone()
		n.Priority = next
		// Slurm's nice is offset by 2^31, so its MIN(nice, delta) is the delta.
		n.editDesc(func(d *wire.JobDesc) { d.Nice = int32(int64(d.Nice) - min(int64(d.Nice)+1<<31, delta)) })
		total += min(int64(j.descInt(descNice))+1<<31, delta)
		changed = append(changed, n)
	}
	for k, o := range others {
		delta := total / int64(len(others)-k)
		next := uint32(int64(o.Priority) - delta)
		if next >= last {
			next = last - 1
			delta = int64(o.Priority) - int64(next)
		}
		n := o.clone()
		n.Priority = next
		n.editDesc(func(d *wire.JobDesc) { d.Nice = int32(int64(d.Nice) + delta) })
		total -= delta
		changed = append(changed, n)
	}
	return changed, 0
}

const errnoJobHeld = 2042 // ESLURM_JOB_HELD

func init() { errnoTexts[errnoJobHeld] = "Job is in held state, pending scheduler release" }

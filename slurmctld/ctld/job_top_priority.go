package ctld

import "github.com/orbit-hpc/orbit/compat/states"

// topPriority says whether the new allocation j (srun, salloc) is the one Slurm's allocate
// RPC would try to start at once (job_mgr.c's _top_priority): no other pending job that
// could run now outranks it in its partition, or in a partition sharing nodes with a higher
// PriorityTier (or the same tier and a higher priority). A job that is not on top is left
// to the scheduler, and srun and salloc say it is "queued and waiting for resources". Called
// under the lock; it walks the job table once, as Slurm walks its job list.
func (t *tables) topPriority(j *jobRecord, now int64) bool {
	if j.Priority == 0 {
		return false
	}
	p := t.parts[j.Partition]
	var pNodes map[string]struct{} // j's partition's nodes, built when another partition is met
	for _, o := range t.jobs {
		if o == j || !o.state().IsPending() || o.state().IsCompleting() {
			continue
		}
		if !runnableReason(states.Reason(o.Reason)) || o.EligibleTime > now {
			continue
		}
		if o.Partition == j.Partition {
			if o.Priority > j.Priority && t.independent(o, now) {
				return false
			}
			continue
		}
		op := t.parts[o.Partition]
		if p == nil || op == nil {
			continue
		}
		tier, oTier := p.conf.PriorityTier, op.conf.PriorityTier
		if oTier < tier || oTier == tier && o.Priority <= j.Priority || !t.independent(o, now) {
			continue
		}
		if pNodes == nil {
			pNodes = make(map[string]struct{}, len(p.nodes))
			for _, n := range p.nodes {
				pNodes[n] = struct{}{}
			}
		}
		for _, n := range op.nodes {
			if _, ok := pNodes[n]; ok {
				return false
			}
		}
	}
	return true
}

// independent says whether o's dependency, if any, is met (Slurm's job_independent).
func (t *tables) independent(o *jobRecord, now int64) bool {
	r, _ := t.dependency(o, now)
	return r == states.WaitNoReason
}

// runnableReason is false for the pending reasons Slurm's policy checks call blocking
// (acct_policy_job_runnable_state, misc_ and part_policy_job_runnable_state): such a job
// does not stand in a new allocation's way.
func runnableReason(r states.Reason) bool {
	switch {
	case r >= states.WaitQOSGrpCPU && r <= states.WaitAssocMaxSubJob:
		return false
	}
	switch r {
	case states.WaitAssocJobLimit, states.WaitAssocResourceLimit, states.WaitAssocTimeLimit,
		states.WaitQOSJobLimit, states.WaitQOSTimeLimit,
		states.FailAccount, states.FailQOS, states.WaitNodeNotAvail,
		states.WaitPartDown, states.WaitPartInactive, states.WaitPartNodeLimit,
		states.WaitPartTimeLimit, states.WaitQOSThres:
		return false
	}
	return true
}

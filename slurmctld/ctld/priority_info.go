package ctld

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// handlePriorityFactors serves MsgPriorityFactors (sprio): authenticate → filter → reply
// with the factors priority/multifactor computed for each pending job at its last
// calculation, as Slurm's priority_p_get_priority_factors_list: only pending jobs whose
// begin time (submit time with ACCRUE_ALWAYS) has come, never held ones (priority 0); an
// administrator's priority is sent as DirectPrio instead of factors. With priority/basic the
// list is empty (sprio refuses to run before asking).
func (c *Controller) handlePriorityFactors(_ context.Context, req *wire.Request) (any, error) {
	if _, err := identity(req); err != nil {
		return nil, err
	}
	r := req.Body.(*wire.PriorityFactorsRequest)
	rep := &wire.PriorityFactorsReply{PriorityType: c.config().PriorityType}
	if !c.multifactor() {
		return rep, nil
	}
	var parts []string
	for _, p := range strings.Split(r.Partitions, ",") {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	now := c.now().Unix()
	c.mu.RLock()
	defer c.mu.RUnlock()
	st := c.prio()
	for id, j := range c.t.jobs {
		if !j.state().IsPending() || j.Priority == 0 {
			continue
		}
		use := j.EligibleTime
		if c.config().Priority.Flags&conf.PriorityAccrueAlways != 0 {
			use = j.SubmitTime
		}
		if use == 0 || use > now {
			continue // not eligible yet
		}
		if len(r.JobIDs) > 0 && !slices.Contains(r.JobIDs, id) && !slices.Contains(r.JobIDs, j.ArrayJobID) {
			continue
		}
		if len(r.UserIDs) > 0 && !slices.Contains(r.UserIDs, j.UserID) {
			continue
		}
		if len(parts) > 0 && !slices.Contains(parts, j.Partition) {
			continue
		}
		pf := wire.PriorityFactors{JobID: id, UserID: j.UserID, Partition: j.Partition,
			Site: niceOffset, Nice: uint32(int64(niceOffset) + int64(int32(j.descInt(descNice))))}
		f, ok := st.factors[id]
		if st.direct[id] || !ok || st.computed[id] != j.Priority {
			// Slurm's direct_prio: the factors are not shown, the priority is. That is an
			// administrator's priority (set since the last pass noticed it, too), and a job
			// the controller has not computed yet (recovered, before the first pass).
			pf.DirectPrio = float64(j.Priority)
		} else {
			pf.Age, pf.Assoc, pf.FairShare, pf.JobSize, pf.Part, pf.QOS = f.age, f.assoc, f.fairShare, f.jobSize, f.part, f.qos
			pf.Nice = uint32(int64(niceOffset) + int64(f.nice))
		}
		rep.Factors = append(rep.Factors, pf)
	}
	slices.SortFunc(rep.Factors, func(a, b wire.PriorityFactors) int { return cmp.Compare(a.JobID, b.JobID) })
	return rep, nil
}

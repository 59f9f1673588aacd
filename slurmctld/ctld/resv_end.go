package ctld

import (
	"time"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// What happens to reservations with time (Slurm's job_resv_check). An active PURGE_COMP
// reservation that no job has named for its purge time is deleted. A reservation whose nodes
// were chosen for it (NodeCnt=), unless STATIC_ALLOC, trades a node that went DOWN or DRAIN
// for a usable one (Slurm's _validate_node_choice). At the end of its window a recurring
// reservation (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY) moves to its next window; any other
// is deleted once no job runs in it: a job running in one that is not FLEX ends TIMEOUT
// ResvOverRun minutes after the window (resv_overrun.go). A pending job that named a
// deleted reservation no longer names it and, unless the reservation had
// NO_HOLD_JOBS_AFTER_END, is held (RESV_DEL_HOLD, reason ReservationDeleted) until
// released, as in Slurm.

// tickResvs replaces the unusable nodes of reservations, runs ResvProlog for each that has
// started and ResvEpilog for each that has ended (resv_scripts.go), and ends every
// reservation whose window has passed. The limits loop calls it each second.
func (c *Controller) tickResvs() {
	now := c.now().Unix()
	c.mu.Lock()
	var chs multi
	var scripts []resvScript
	for _, r := range c.t.resvs {
		if r.EndTime > now && c.purgeIdle(r, now) {
			c.log.Info("reservation purged: idle for its PURGE_COMP time", "reservation", r.Name)
			chs = append(chs, changeResv{delete: r.Name})
			continue
		}
		if r.EndTime > now {
			n := c.t.replacedNodes(r, now)
			if n != nil {
				c.log.Info("reservation's unusable nodes replaced", "reservation", r.Name, "nodes", hostlist.Compress(n.Nodes))
			}
			if r.StartTime <= now && !r.PrologRan {
				if n == nil {
					n = r.clone()
				}
				n.PrologRan = true
				scripts = append(scripts, resvScript{"ResvProlog", r.Name})
			}
			if n != nil {
				chs = append(chs, changeResv{put: n})
			}
			continue
		}
		// The window has passed: whichever script has not run for it runs now.
		if !r.PrologRan {
			scripts = append(scripts, resvScript{"ResvProlog", r.Name})
		}
		if !r.EpilogRan {
			scripts = append(scripts, resvScript{"ResvEpilog", r.Name})
		}
		if r.recurs() {
			n := r.clone()
			n.StartTime, n.EndTime = nextWindow(r, now)
			n.PrologRan, n.EpilogRan = false, false
			chs = append(chs, changeResv{put: n})
			continue
		}
		if c.t.runsInResv(r.Name) {
			// Kept until its jobs end (resv_overrun.go); its scripts have run.
			if !r.PrologRan || !r.EpilogRan {
				n := r.clone()
				n.PrologRan, n.EpilogRan = true, true
				chs = append(chs, changeResv{put: n})
			}
			continue
		}
		chs = append(chs, changeResv{delete: r.Name})
		for _, j := range c.t.liveJobs() {
			if !j.state().IsPending() || j.descStr(descReservation) != r.Name {
				continue
			}
			n := j.clone()
			n.editDesc(func(d *wire.JobDesc) { d.Reservation = "" })
			if !r.has(wire.ResvNoHoldJobs) {
				n.Priority, n.AdminHold, n.PrioritySet = 0, true, false
				n.State |= uint32(states.JobResvDelHold)
				n.Reason = uint32(states.WaitResvDeleted)
				n.StateDesc = "Reservation " + r.Name + " was deleted"
			}
			chs = append(chs, replaceJob{rec: n})
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
		c.log.Error("cannot change reservations", "err", err)
		return
	}
	c.runResvScripts(scripts)
	c.wake()
}

// nextWindow is a recurring reservation's first window after now that keeps its length.
func nextWindow(r *resvRecord, now int64) (start, end int64) {
	length := r.EndTime - r.StartTime
	start = r.StartTime
	for start+length <= now {
		t := time.Unix(start, 0)
		switch {
		case r.has(wire.ResvHourly):
			t = t.Add(time.Hour)
		case r.has(wire.ResvWeekly):
			t = t.AddDate(0, 0, 7)
		case r.has(wire.ResvWeekday):
			t = t.AddDate(0, 0, 1)
			for t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
				t = t.AddDate(0, 0, 1)
			}
		case r.has(wire.ResvWeekend):
			t = t.AddDate(0, 0, 1)
			for t.Weekday() != time.Saturday && t.Weekday() != time.Sunday {
				t = t.AddDate(0, 0, 1)
			}
		default: // DAILY
			t = t.AddDate(0, 0, 1)
		}
		start = t.Unix()
	}
	return start, start + length
}

// replacedNodes is r with its nodes that are DOWN, DRAINED or not responding traded for
// usable ones of its partition, chosen as for NodeCnt= (fewer when fewer are free: those
// unusable are dropped all the same, as in Slurm); nil when r keeps its nodes: they are all
// usable, none can be had, or r's nodes were named (SPEC_NODES) or are STATIC_ALLOC.
func (t *tables) replacedNodes(r *resvRecord, now int64) *resvRecord {
	if len(r.Nodes) == 0 || r.has(wire.ResvSpecNodes|wire.ResvStatic) {
		return nil
	}
	var keep []string
	for _, n := range r.Nodes {
		if e := t.nodes[n]; e != nil && e.usable() {
			keep = append(keep, n)
		}
	}
	if len(keep) == len(r.Nodes) {
		return nil
	}
	part := t.parts[r.Partition]
	if part == nil {
		return nil
	}
	picked, ok := t.pickResvNodes(r, part, len(r.Nodes)-len(keep), now)
	if !ok {
		return nil
	}
	n := r.clone()
	n.Nodes = t.inNodeOrder(append(keep, picked...))
	return n
}

// purgeIdle says whether r is a PURGE_COMP reservation, active, that no job has named for its
// purge time, and keeps the time each went idle (memory only: after a restart the count
// starts again, as in Slurm, which does not save it either). Called with c.mu held.
func (c *Controller) purgeIdle(r *resvRecord, now int64) bool {
	if !r.has(wire.ResvPurgeComp) || !r.activeAt(now) || c.t.resvInUse(r.Name) {
		delete(c.resvIdle, r.Name)
		return false
	}
	since, ok := c.resvIdle[r.Name]
	if !ok {
		if c.resvIdle == nil {
			c.resvIdle = map[string]int64{}
		}
		c.resvIdle[r.Name] = now
		return false
	}
	return now-since >= int64(r.PurgeCompTime)
}

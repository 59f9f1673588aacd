package ctld

import (
	"fmt"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// What advance reservations mean for jobs, whoever schedules: a job may name one only if it
// admits the job's user or account; it waits with reason Reservation until its window
// opens; and no start the plugin proposes may use a node a reservation keeps from the job
// (verifyStart), as Slurm's job_test_resv decides.

// resvAccess is 0 when a job of uid and account may name reservation name ("" = none), else
// Slurm's errno refusing it. Called with c.mu held.
func (t *tables) resvAccess(name string, uid uint32, account string) int32 {
	if name == "" {
		return 0
	}
	r := t.resvs[name]
	switch {
	case r == nil:
		return errnoReservationInvalid
	case !resvAdmits(r, uid, account):
		return errnoResvAccess
	}
	return 0
}

// resvReason is why pending job j waits for its reservation whatever the resources: not
// started yet (Reservation), or gone (ReservationDeleted); WaitNoReason otherwise.
func (t *tables) resvReason(j *jobRecord, now int64) states.Reason {
	name := j.descStr(descReservation)
	if name == "" {
		return states.WaitNoReason
	}
	switch r := t.resvs[name]; {
	case r == nil:
		return states.WaitResvDeleted
	case now < r.StartTime && !r.has(wire.ResvFlex): // FLEX: not bound to its window
		return states.WaitReservation
	}
	return states.WaitNoReason
}

// runSecondsLimit is how long job j may run once started: its time limit, else its
// partition's MaxTime, else a year (Slurm's _get_job_duration for a job without either).
func (t *tables) runSecondsLimit(j *jobRecord, part *partEntry) int64 {
	lim := j.TimeLimit
	if (lim == wire.Infinite || lim == wire.NoVal) && part != nil {
		lim = part.conf.MaxTime
	}
	if lim == wire.Infinite || lim == wire.NoVal {
		return yearSeconds
	}
	return int64(lim) * 60
}

// resvBars returns why reservations keep job j from starting now on nodes in partition
// part, or nil: a node outside its own reservation, or one another reservation holds while
// the job would run. Called with c.mu held.
func (t *tables) resvBars(j *jobRecord, part *partEntry, nodes []string, now int64) error {
	return t.resvBarsIn(j, j.descStr(descReservation), part, nodes, now)
}

// resvBarsIn is resvBars for j running in reservation name ("" = none).
func (t *tables) resvBarsIn(j *jobRecord, name string, part *partEntry, nodes []string, now int64) error {
	if name == "" && len(t.resvs) == 0 {
		return nil
	}
	if name != "" {
		r := t.resvs[name]
		switch {
		case r == nil:
			return fmt.Errorf("reservation %s does not exist", name)
		case r.has(wire.ResvFlex):
			// Slurm's job_test_resv: "Job not bound to reservation nodes or time". It
			// returns there without barring other reservations' nodes too; Orbit still bars
			// them below, so a FLEX job cannot take another reservation's nodes.
		case !r.activeAt(now):
			return fmt.Errorf("reservation %s is not active", name)
		default:
			for _, n := range nodes {
				if !r.hasNode(n) {
					return fmt.Errorf("node %s is not in the job's reservation %s", n, name)
				}
			}
		}
	}
	end := now + t.runSecondsLimit(j, part)
	for _, r := range t.resvs {
		if r.Name == name || !r.overlaps(now, end) {
			continue
		}
		for _, n := range nodes {
			if r.hasNode(n) {
				return fmt.Errorf("node %s is held by reservation %s while the job would run", n, r.Name)
			}
		}
	}
	return nil
}

// resvPart is partition p as reservations leave it to job j for a will-run test: without
// the nodes another reservation holds while the job would run and, for a job in a
// reservation, with that reservation's nodes only; at is the earliest start they allow (its
// reservation's start). p itself when no reservation bears on j; nil when j's reservation is
// gone.
func (t *tables) resvPart(j *jobRecord, p *partEntry, now int64) (usable *partEntry, at int64) {
	name := j.descStr(descReservation)
	if p == nil || name == "" && len(t.resvs) == 0 {
		return p, now
	}
	at = now
	var own *resvRecord
	if name != "" {
		if own = t.resvs[name]; own == nil {
			return nil, now
		}
		if !own.has(wire.ResvFlex) {
			at = max(now, own.StartTime)
		}
	}
	end := at + t.runSecondsLimit(j, p)
	cp := *p
	cp.nodes, cp.cpus = nil, 0
	for _, n := range p.nodes {
		if own != nil && !own.has(wire.ResvFlex) && !own.hasNode(n) {
			continue
		}
		held := false
		for _, r := range t.resvs {
			if r != own && r.overlaps(at, end) && r.hasNode(n) {
				held = true
				break
			}
		}
		if !held {
			cp.nodes = append(cp.nodes, n)
			cp.cpus += t.nodes[n].cpus()
		}
	}
	return &cp, at
}

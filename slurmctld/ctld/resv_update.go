package ctld

import (
	"context"
	"slices"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// scontrol update reservation and scontrol delete reservation (Slurm's update_resv and
// delete_resv): operators only. An update changes what it names and checks the result as a
// create would (the window, overlaps, busy nodes); a delete refuses a reservation that a
// job not yet finished names.

// handleUpdateResv serves MsgUpdateResv.
func (c *Controller) handleUpdateResv(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	d := wire.ResvDesc(*req.Body.(*wire.UpdateResvRequest))
	if err := resvUnsupported(&d); err != nil {
		return nil, err
	}
	now := c.now().Unix()
	c.mu.Lock()
	old := c.t.resvs[d.Name]
	if old == nil {
		c.mu.Unlock()
		return nil, slurmErr(errnoReservationInvalid)
	}
	r, errno := c.t.updatedResv(old, &d, now)
	if errno != 0 {
		c.mu.Unlock()
		return nil, slurmErr(errno)
	}
	pend, err := c.apply(changeResv{put: r})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "reservation not updated: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("reservation updated", "reservation", r.String(), "uid", id.UID)
	c.wake()
	return &wire.OK{}, nil
}

// updatedResv is old with d's changes, checked. Called with c.mu held.
func (t *tables) updatedResv(old *resvRecord, d *wire.ResvDesc, now int64) (*resvRecord, int32) {
	r := old.clone()
	if d.Flags != wire.NoVal64 && d.Flags&wire.ResvSkip != 0 {
		// Skip: a recurring reservation's next window replaces the current one.
		if !r.recurs() {
			return nil, errnoResvNoSkip
		}
		r.StartTime, r.EndTime = nextWindow(r, r.EndTime)
	}
	if d.Flags != wire.NoVal64 {
		for _, p := range [][2]uint64{
			{wire.ResvMaint, wire.ResvNoMaint}, {wire.ResvDaily, wire.ResvNoDaily},
			{wire.ResvWeekly, wire.ResvNoWeekly}, {wire.ResvIgnoreJobs, wire.ResvNoIgnoreJobs},
			{wire.ResvPartNodes, wire.ResvNoPartNodes}, {wire.ResvWeekday, wire.ResvNoWeekday},
			{wire.ResvWeekend, wire.ResvNoWeekend}, {wire.ResvHourly, wire.ResvNoHourly},
			{wire.ResvPurgeComp, wire.ResvNoPurgeComp}, {wire.ResvStatic, wire.ResvNoStatic},
		} {
			if d.Flags&p[0] != 0 {
				r.Flags |= p[0]
			}
			if d.Flags&p[1] != 0 {
				r.Flags &^= p[0]
			}
		}
		r.Flags |= d.Flags & (wire.ResvOverlap | wire.ResvNoHoldJobs)
		if d.Flags&wire.ResvReplaceDown != 0 {
			if r.has(wire.ResvSpecNodes) {
				return nil, errnoNotSupported // only a NodeCnt reservation replaces nodes
			}
			r.Flags |= wire.ResvReplaceDown
		}
		if d.Flags&wire.ResvPurgeComp != 0 && d.PurgeCompTime != 0 && d.PurgeCompTime != wire.NoVal {
			r.PurgeCompTime = d.PurgeCompTime
		}
	}
	if d.Partition != "" {
		if t.parts[d.Partition] == nil {
			return nil, errnoInvalidPartitionName
		}
		r.Partition = d.Partition
	}
	if d.Users != "" {
		var errno int32
		if r.Users, r.UIDs, r.UsersNot, errno = updateResvUsers(r, d.Users); errno != 0 {
			return nil, errno
		}
	}
	if d.Accounts != "" {
		var errno int32
		if r.Accounts, r.AccountsNot, errno = updateResvAccounts(r, d.Accounts); errno != 0 {
			return nil, errno
		}
	}
	if len(r.Users) == 0 && len(r.Accounts) == 0 {
		return nil, errnoResvEmpty
	}
	if d.MaxStartDelay != wire.NoVal {
		r.MaxStartDelay = d.MaxStartDelay
	}
	// The window, as Slurm's update_resv computes it: a new start moves the end along only
	// when the reservation has a duration; a new end drops the duration; a duration (set,
	// added or taken away, in Slurm's unsigned arithmetic) counts from the start.
	if d.StartTime != 0 {
		switch {
		case r.StartTime <= now:
			return nil, errnoResvStarted
		case d.StartTime < now-60:
			return nil, errnoInvalidTimeValue
		}
		r.StartTime = d.StartTime
		if r.Duration != wire.NoVal {
			r.EndTime = r.StartTime + int64(r.Duration*60)
		}
	}
	if d.EndTime != 0 {
		if d.EndTime < now-60 {
			return nil, errnoInvalidTimeValue
		}
		r.EndTime, r.Duration = d.EndTime, wire.NoVal
	}
	switch {
	case d.Duration == wire.Infinite:
		r.Duration = yearSeconds / 60
		r.EndTime = r.StartTime + yearSeconds
	case d.Duration != wire.NoVal:
		switch {
		case d.Flags != wire.NoVal64 && d.Flags&wire.ResvDurPlus != 0:
			r.Duration += d.Duration
		case d.Flags != wire.NoVal64 && d.Flags&wire.ResvDurMinus != 0:
			r.Duration -= min(r.Duration, d.Duration)
		default:
			r.Duration = d.Duration
		}
		r.EndTime = max(r.StartTime+int64(r.Duration*60), now)
	}
	if r.StartTime >= r.EndTime {
		return nil, errnoInvalidTimeValue
	}
	newNodes := false
	switch {
	case d.NodeList != "":
		newNodes = true
		if strings.EqualFold(d.NodeList, "ALL") {
			r.Nodes = slices.Clone(t.nodeOrder)
			if p := t.parts[r.Partition]; p != nil && r.has(wire.ResvPartNodes) {
				r.Nodes = slices.Clone(p.nodes)
			} else {
				r.Flags |= wire.ResvAllNodes
			}
		} else {
			names, err := hostlist.Expand(d.NodeList)
			if err != nil || len(names) == 0 {
				return nil, errnoInvalidNodeName
			}
			for _, n := range names {
				if t.nodes[n] == nil {
					return nil, errnoInvalidNodeName
				}
			}
			r.Nodes = t.inNodeOrder(names)
			r.Flags &^= wire.ResvAllNodes | wire.ResvPartNodes
		}
		r.Flags |= wire.ResvSpecNodes
	case d.NodeCnt != 0 && d.NodeCnt != wire.NoVal && int(d.NodeCnt) != len(r.Nodes):
		newNodes = true
		want := int(d.NodeCnt)
		if want < len(r.Nodes) {
			r.Nodes = r.Nodes[:want]
		} else {
			part := t.parts[r.Partition]
			if part == nil {
				part = t.parts[t.defPart]
			}
			if part == nil {
				return nil, errnoDefaultPartNotSet
			}
			more, ok := t.pickResvNodes(r, part, want-len(r.Nodes), now)
			if !ok {
				return nil, errnoNodesBusy
			}
			r.Nodes = t.inNodeOrder(append(r.Nodes, more...))
		}
	}
	if !r.has(wire.ResvMaint|wire.ResvOverlap) && t.resvOverlaps(r, old.Name) {
		return nil, errnoResvOverlap
	}
	if newNodes && !r.has(wire.ResvIgnoreJobs|wire.ResvMaint) {
		var added []string
		for _, n := range r.Nodes {
			if !old.hasNode(n) {
				added = append(added, n)
			}
		}
		if t.jobsOverlap(added, r.StartTime, now) {
			return nil, errnoNodesBusy
		}
	}
	return r, 0
}

// updateResvUsers applies an update's Users= to r: "+a,+b" adds, "-a" removes, a plain
// list replaces (Slurm's _update_uid_list).
func updateResvUsers(r *resvRecord, list string) ([]string, []uint32, bool, int32) {
	if !strings.HasPrefix(list, "+") && !(strings.HasPrefix(list, "-") && !r.UsersNot && len(r.Users) > 0) {
		return parseResvUsers(list)
	}
	names, uids := slices.Clone(r.Users), slices.Clone(r.UIDs)
	for _, u := range strings.Split(list, ",") {
		if len(u) < 2 || (u[0] != '+' && u[0] != '-') {
			return nil, nil, false, errnoUserIDMissing
		}
		n, id, _, errno := parseResvUsers(u[1:])
		if errno != 0 {
			return nil, nil, false, errno
		}
		i := slices.Index(uids, id[0])
		switch {
		case u[0] == '+' && i < 0:
			names, uids = append(names, n[0]), append(uids, id[0])
		case u[0] == '-' && i < 0:
			return nil, nil, false, errnoUserIDMissing
		case u[0] == '-':
			names, uids = slices.Delete(names, i, i+1), slices.Delete(uids, i, i+1)
		}
	}
	return names, uids, r.UsersNot && len(uids) > 0, 0
}

// updateResvAccounts applies an update's Accounts= to r as updateResvUsers does users.
func updateResvAccounts(r *resvRecord, list string) ([]string, bool, int32) {
	if !strings.HasPrefix(list, "+") && !(strings.HasPrefix(list, "-") && !r.AccountsNot && len(r.Accounts) > 0) {
		return parseResvAccounts(list)
	}
	names := slices.Clone(r.Accounts)
	for _, a := range strings.Split(list, ",") {
		if len(a) < 2 || (a[0] != '+' && a[0] != '-') {
			return nil, false, errnoInvalidAccount
		}
		i := slices.Index(names, a[1:])
		switch {
		case a[0] == '+' && i < 0:
			names = append(names, a[1:])
		case a[0] == '-' && i < 0:
			return nil, false, errnoInvalidAccount
		case a[0] == '-':
			names = slices.Delete(names, i, i+1)
		}
	}
	return names, r.AccountsNot && len(names) > 0, 0
}

// handleDeleteResv serves MsgDeleteResv.
func (c *Controller) handleDeleteResv(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	name := req.Body.(*wire.DeleteResvRequest).Name
	c.mu.Lock()
	if c.t.resvs[name] == nil {
		c.mu.Unlock()
		return nil, slurmErr(errnoReservationInvalid)
	}
	if c.t.resvInUse(name) {
		c.mu.Unlock()
		return nil, slurmErr(errnoResvBusy)
	}
	pend, err := c.apply(changeResv{delete: name})
	c.mu.Unlock()
	if err != nil {
		return nil, wire.Errorf(wire.ErrnoSlurmError, "reservation not deleted: %v", err)
	}
	if err := pend.Wait(ctx); err != nil {
		return nil, durabilityError(err)
	}
	c.log.Info("reservation deleted", "reservation", name, "uid", id.UID)
	c.wake()
	return &wire.OK{}, nil
}

// resvInUse says whether a job not yet finished names reservation name (Slurm's
// _is_resv_used).
func (t *tables) resvInUse(name string) bool {
	for _, j := range t.liveJobs() {
		if j.descStr(descReservation) == name {
			return true
		}
	}
	return false
}

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
	if d.Features != "" {
		// Slurm chooses other nodes for the new features; Orbit keeps them only at creation.
		return nil, wire.Errorf(errnoNotSupported, "Features in a reservation update is not supported by Orbit yet")
	}
	var g resvGroupsEdit
	for range 3 { // the members are listed outside the lock, for the groups found under it
		c.mu.Lock()
		old := c.t.resvs[d.Name]
		c.mu.Unlock()
		if old == nil || d.Groups == "" {
			break
		}
		g = resvGroupsEdit{from: old.Groups, valid: true}
		if g.groups, g.valid = editResvGroups(old.Groups, d.Groups); g.valid && g.groups != "" {
			g.uids, g.valid = resvGroupUIDs(g.groups)
		}
		c.mu.Lock()
		same := c.t.resvs[d.Name] != nil && c.t.resvs[d.Name].Groups == g.from
		c.mu.Unlock()
		if same {
			break
		}
	}
	now := c.now().Unix()
	c.mu.Lock()
	old := c.t.resvs[d.Name]
	if old == nil {
		c.mu.Unlock()
		return nil, slurmErr(errnoReservationInvalid)
	}
	if d.Groups != "" && old.Groups != g.from {
		c.mu.Unlock()
		return nil, wire.Errorf(wire.ErrnoSlurmError, "reservation %s changed meanwhile; try again", d.Name)
	}
	r, errno := c.t.updatedResv(old, &d, g, now)
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

// resvGroupsEdit is a request's Groups= worked out before the lock is taken: for an update,
// the list it makes of the reservation's groups (from); the members of that list.
type resvGroupsEdit struct {
	from, groups string
	valid        bool // a valid expression, and some group in it known and not empty
	uids         []uint32
}

// updatedResv is old with d's changes, checked; g is d.Groups applied to old's groups.
// Called with c.mu held.
func (t *tables) updatedResv(old *resvRecord, d *wire.ResvDesc, g resvGroupsEdit, now int64) (*resvRecord, int32) {
	r := old.clone()
	if d.Flags != wire.NoVal64 && d.Flags&wire.ResvSkip != 0 {
		// Skip: a recurring reservation's next window replaces the current one.
		if !r.recurs() {
			return nil, errnoResvNoSkip
		}
		r.StartTime, r.EndTime = nextWindow(r, r.EndTime)
		r.PrologRan, r.EpilogRan = false, false // ResvProlog and ResvEpilog run for the new window
	}
	if d.Flags != wire.NoVal64 {
		for _, p := range [][2]uint64{
			{wire.ResvMaint, wire.ResvNoMaint}, {wire.ResvDaily, wire.ResvNoDaily},
			{wire.ResvWeekly, wire.ResvNoWeekly}, {wire.ResvIgnoreJobs, wire.ResvNoIgnoreJobs},
			{wire.ResvPartNodes, wire.ResvNoPartNodes}, {wire.ResvWeekday, wire.ResvNoWeekday},
			{wire.ResvWeekend, wire.ResvNoWeekend}, {wire.ResvHourly, wire.ResvNoHourly},
			{wire.ResvPurgeComp, wire.ResvNoPurgeComp}, {wire.ResvStatic, wire.ResvNoStatic},
			{wire.ResvMagnetic, wire.ResvNoMagnetic}, {wire.ResvFlex, wire.ResvNoFlex},
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
	if d.Accounts != "" {
		var errno int32
		if r.Accounts, r.AccountsNot, errno = updateResvAccounts(r, d.Accounts); errno != 0 {
			return nil, errno
		}
	}
	// Groups before users, as Slurm: a new group list sets the uids, an emptied one clears
	// them (the users' too).
	if d.Groups != "" {
		switch {
		case g.groups == "" && g.valid:
			r.Groups, r.UIDs = "", nil
		case !g.valid:
			return nil, errnoGroupIDMissing
		default:
			r.Groups, r.UIDs = g.groups, g.uids
		}
		r.UsersNot = false
	}
	if d.Users != "" {
		var errno int32
		if r.Users, r.UIDs, r.UsersNot, errno = updateResvUsers(r, d.Users); errno != 0 {
			return nil, errno
		}
	}
	if len(r.Users) > 0 && r.Groups != "" {
		return nil, errnoResvUserGroup
	}
	if len(r.Users) == 0 && len(r.Accounts) == 0 && r.Groups == "" {
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

// A Users= or Accounts= update (Slurm's _update_uid_list and _update_account_list): a list
// without + or - items replaces the reservation's list; otherwise "+x" adds x and "-x"
// removes it (a name not in the list is an error), plain names before the first + or -
// are ignored and after it are an error. A "-x" on an empty list starts a list of refused
// names instead; any other change leaves a list of admitted names, even where the list
// was one of refused names before (Slurm clears its "not" flag then).

// listEdit is one item of such an update.
type listEdit struct {
	op   byte // '+', '-', or 0 for a plain name
	name string
	uid  uint32 // a user's, once looked up
}

// effectiveOp is e's operation on a list of refused names (not), where -x adds x and +x
// removes it.
func (e listEdit) effectiveOp(not bool) byte {
	switch {
	case !not:
		return e.op
	case e.op == '-':
		return '+'
	case e.op == '+':
		return '-'
	}
	return e.op
}

// parseListEdit splits an update's list; modify says it adds or removes rather than sets.
func parseListEdit(list string) (edits []listEdit, modify, ok bool) {
	for _, tok := range splitNonEmpty(list) {
		switch tok[0] {
		case '+', '-':
			modify = true
			edits = append(edits, listEdit{op: tok[0], name: tok[1:]})
		default:
			if modify {
				return nil, false, false
			}
			edits = append(edits, listEdit{name: tok})
		}
	}
	return edits, modify, true
}

// applyListEdit applies edits (a modify list) to n current entries, through find (the
// index of an edit's entry, or -1), remove and add; false when an entry to remove is not
// there and strict (accounts; a user not there is passed over). It returns whether the
// list is now one of refused names.
func applyListEdit(n int, edits []listEdit, strict bool, find func(e listEdit) int, remove func(i int), add func(e listEdit)) (not, ok bool) {
	minus := slices.ContainsFunc(edits, func(e listEdit) bool { return e.op == '-' })
	not = n == 0 && minus
	for _, e := range edits {
		if e.effectiveOp(not) != '-' {
			continue
		}
		switch i := find(e); {
		case i >= 0:
			remove(i)
		case strict:
			return false, false
		}
	}
	for _, e := range edits {
		if e.effectiveOp(not) == '+' && find(e) < 0 {
			add(e)
		}
	}
	return not, true
}

// updateResvUsers applies an update's Users= to r.
func updateResvUsers(r *resvRecord, list string) ([]string, []uint32, bool, int32) {
	edits, modify, ok := parseListEdit(list)
	if !ok {
		return nil, nil, false, errnoUserIDMissing
	}
	if !modify {
		return parseResvUsers(list)
	}
	names, uids := slices.Clone(r.Users), slices.Clone(r.UIDs)
	for i, e := range edits {
		n, id, not, errno := parseResvUsers(e.name)
		if errno != 0 || not { // "--alice": Slurm looks up a user named "-alice"
			return nil, nil, false, errnoUserIDMissing
		}
		edits[i].name, edits[i].uid = n[0], id[0]
	}
	not, ok := applyListEdit(len(uids), edits, false, func(e listEdit) int { return slices.Index(uids, e.uid) },
		func(i int) {
			uids = slices.Delete(uids, i, i+1)
			if i < len(names) { // names are empty when the uids are Groups= members
				names = slices.Delete(names, i, i+1)
			}
		},
		func(e listEdit) { names, uids = append(names, e.name), append(uids, e.uid) })
	if !ok {
		return nil, nil, false, errnoUserIDMissing
	}
	return names, uids, not, 0
}

// updateResvAccounts applies an update's Accounts= to r.
func updateResvAccounts(r *resvRecord, list string) ([]string, bool, int32) {
	edits, modify, ok := parseListEdit(list)
	if !ok {
		return nil, false, errnoInvalidAccount
	}
	if !modify {
		return parseResvAccounts(list)
	}
	names := slices.Clone(r.Accounts)
	not, ok := applyListEdit(len(names), edits, true, func(e listEdit) int { return slices.Index(names, e.name) },
		func(i int) { names = slices.Delete(names, i, i+1) },
		func(e listEdit) { names = append(names, e.name) })
	if !ok {
		return nil, false, errnoInvalidAccount
	}
	return names, not, 0
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

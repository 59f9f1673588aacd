package ctld

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
	"github.com/orbit-hpc/orbit/internal/userdb"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/plugins/sched/selection"
)

// scontrol create reservation (Slurm's create_resv): operators only. The request is checked
// in Slurm's order, so the same mistake gets the same error; a reservation whose nodes are
// chosen here (NodeCnt=, or a partition's) takes the first usable nodes of the partition
// that no other reservation holds then, preferring those no running job would still hold.

const (
	errnoNodesBusy         = 2016 // ESLURM_NODES_BUSY
	errnoResvAccess        = 2052 // ESLURM_RESERVATION_ACCESS
	errnoInvalidTimeValue  = 2054 // ESLURM_INVALID_TIME_VALUE
	errnoResvBusy          = 2055 // ESLURM_RESERVATION_BUSY
	errnoResvOverlap       = 2058 // ESLURM_RESERVATION_OVERLAP
	errnoResvEmpty         = 2080 // ESLURM_RESERVATION_EMPTY
	errnoResvNameDup       = 2082 // ESLURM_RESERVATION_NAME_DUP
	errnoResvStarted       = 2104 // ESLURM_RSV_ALREADY_STARTED
	errnoResvNoSkip        = 2128 // ESLURM_RESERVATION_NO_SKIP
	errnoResvUserGroup     = 2129 // ESLURM_RESERVATION_USER_GROUP
	errnoInvalidAccount    = 2045 // ESLURM_INVALID_ACCOUNT
	maxResvDelay           = 600  // Slurm's MAX_RESV_DELAY: how far in the past a window may start
	yearSeconds            = 365 * 24 * 3600
	resvCreateFlagsAllowed = wire.ResvMaint | wire.ResvFlex | wire.ResvOverlap | wire.ResvIgnoreJobs |
		wire.ResvHourly | wire.ResvDaily | wire.ResvWeekday | wire.ResvWeekend | wire.ResvWeekly |
		wire.ResvStatic | wire.ResvAnyNodes | wire.ResvPartNodes | wire.ResvFirstCores |
		wire.ResvTimeFloat | wire.ResvPurgeComp | wire.ResvReplace | wire.ResvReplaceDown |
		wire.ResvNoHoldJobs | wire.ResvMagnetic
	// resvFlagsUnsupported are the flags whose behaviour Orbit does not have: a reservation
	// asking for one is refused by name rather than made without it.
	resvFlagsUnsupported = wire.ResvAnyNodes | wire.ResvFirstCores |
		wire.ResvTimeFloat | wire.ResvReplace
)

func init() {
	errnoTexts[errnoNodesBusy] = "Requested nodes are busy"
	errnoTexts[errnoResvAccess] = "Access denied to requested reservation"
	errnoTexts[errnoInvalidTimeValue] = "Invalid time specified"
	errnoTexts[errnoResvBusy] = "Requested reservation is in use"
	errnoTexts[errnoResvOverlap] = "Requested reservation overlaps with another reservation"
	errnoTexts[errnoResvEmpty] = "Reservation request lacks users, groups or accounts"
	errnoTexts[errnoResvNameDup] = "Duplicate reservation name"
	errnoTexts[errnoResvStarted] = "Reservation already started"
	errnoTexts[errnoResvNoSkip] = "Reservation given is not skipable, try deleting instead"
	errnoTexts[errnoResvUserGroup] = "Reservations can't have users and groups specified, only one or the other"
	errnoTexts[errnoInvalidAccount] = "Invalid account or account/partition combination specified"
}

// resvUnsupported refuses by name what a request asks that Orbit's reservations cannot hold.
func resvUnsupported(d *wire.ResvDesc) error {
	var what string
	switch {
	case d.Flags != wire.NoVal64 && d.Flags&resvFlagsUnsupported != 0:
		what = "reservation flags " + resvFlagNames(d.Flags&resvFlagsUnsupported)
	case d.CoreCnt != "":
		what = "CoreCnt"
	case d.Licenses != "":
		what = "Licenses"
	case d.BurstBuffer != "":
		what = "BurstBuffer"
	case strings.ContainsAny(d.Features, "()*"):
		what = "Features with counts or parentheses"
	case d.Watts != wire.NoVal && d.Watts != 0:
		what = "Watts"
	case d.MaxStartDelay != wire.NoVal && d.MaxStartDelay != 0:
		what = "MaxStartDelay" // jobs outside let onto its idle nodes until then: not done
	default:
		return nil
	}
	return wire.Errorf(errnoNotSupported, "%s in reservations is not supported by Orbit yet", what)
}

// resvFlagNames names flag bits for a message.
func resvFlagNames(f uint64) string {
	names := map[uint64]string{wire.ResvAnyNodes: "ANY_NODES",
		wire.ResvFirstCores: "FIRST_CORES", wire.ResvTimeFloat: "TIME_FLOAT", wire.ResvReplace: "REPLACE"}
	var out []string
	for bit := uint64(1); bit != 0; bit <<= 1 {
		if f&bit != 0 && names[bit] != "" {
			out = append(out, names[bit])
		}
	}
	return strings.Join(out, ",")
}

// handleCreateResv serves MsgCreateResv.
func (c *Controller) handleCreateResv(ctx context.Context, req *wire.Request) (any, error) {
	id, err := identity(req)
	if err != nil {
		return nil, err
	}
	if !c.privileged(id) {
		return nil, slurmErr(errnoAccessDenied)
	}
	d := *req.Body.(*wire.ResvDesc)
	if err := resvUnsupported(&d); err != nil {
		return nil, err
	}
	var groups resvGroupsEdit
	if d.Groups != "" { // outside the lock: it may list every user
		groups.groups = d.Groups
		groups.uids, groups.valid = resvGroupUIDs(d.Groups)
	}
	now := c.now().Unix()
	c.mu.Lock()
	r, suffix, errno := c.t.newResv(&d, groups, now)
	var pend interface{ Wait(context.Context) error }
	switch {
	case errno != 0 && suffix == 0:
		c.mu.Unlock()
		return nil, slurmErr(errno)
	case errno != 0:
		// The name counter moved before the request failed, as Slurm's top_suffix does.
		if p, err := c.apply(changeResv{suffix: suffix}); err == nil {
			pend = p
		}
	default:
		p, err := c.apply(changeResv{put: r, suffix: suffix})
		if err != nil {
			c.mu.Unlock()
			return nil, wire.Errorf(wire.ErrnoSlurmError, "reservation not created: %v", err)
		}
		pend = p
	}
	c.mu.Unlock()
	if pend != nil {
		if err := pend.Wait(ctx); err != nil {
			return nil, durabilityError(err)
		}
	}
	if errno != 0 {
		return nil, slurmErr(errno)
	}
	c.log.Info("reservation created", "reservation", r.Name, "nodes", hostlist.Compress(r.Nodes), "uid", id.UID)
	c.wake()
	return &wire.CreateResvReply{Name: r.Name}, nil
}

// newResv checks a create request against the tables and builds its record. suffix is the
// name counter's new value when the request got as far as taking one (0 otherwise).
// groups holds the members of d.Groups (resvGroupUIDs). Called with c.mu held.
func (t *tables) newResv(d *wire.ResvDesc, groups resvGroupsEdit, now int64) (r *resvRecord, suffix uint32, errno int32) {
	flags := uint64(0)
	if d.Flags != wire.NoVal64 {
		flags = d.Flags & resvCreateFlagsAllowed
	}
	start, end := d.StartTime, d.EndTime
	if start == 0 {
		start = now
	} else if start < now-maxResvDelay {
		return nil, 0, errnoInvalidTimeValue
	}
	switch {
	case end != 0:
		if end < now-maxResvDelay {
			return nil, 0, errnoInvalidTimeValue
		}
	case d.Duration == wire.Infinite:
		end = start + yearSeconds
	case d.Duration != wire.NoVal && d.Duration != 0:
		end = start + int64(d.Duration)*60
	default:
		end = int64(wire.Infinite)
	}
	if flags&wire.ResvReplaceDown != 0 && d.NodeList != "" {
		return nil, 0, errnoInvalidNodeName // REPLACE_DOWN goes with NodeCnt=
	}
	var part *partEntry
	if d.Partition != "" {
		if part = t.parts[d.Partition]; part == nil {
			return nil, 0, errnoInvalidPartitionName
		}
	} else if flags&wire.ResvPartNodes != 0 {
		return nil, 0, errnoInvalidPartitionName
	}
	if flags&wire.ResvPartNodes != 0 && !strings.EqualFold(d.NodeList, "ALL") {
		return nil, 0, errnoInvalidNodeName
	}
	switch {
	case d.Users != "" && d.Groups != "":
		return nil, 0, errnoResvUserGroup
	case d.Accounts == "" && d.Users == "" && d.Groups == "":
		return nil, 0, errnoResvEmpty
	}
	r = &resvRecord{StartTime: start, EndTime: end, Duration: d.Duration, Partition: d.Partition, MaxStartDelay: d.MaxStartDelay, PurgeCompTime: 300,
		Features: d.Features}
	if d.MaxStartDelay == wire.NoVal {
		r.MaxStartDelay = 0
	}
	if d.PurgeCompTime != 0 && d.PurgeCompTime != wire.NoVal {
		r.PurgeCompTime = d.PurgeCompTime
	}
	if d.Accounts != "" {
		if r.Accounts, r.AccountsNot, errno = parseResvAccounts(d.Accounts); errno != 0 {
			return nil, 0, errno
		}
	}
	if d.Users != "" {
		if r.Users, r.UIDs, r.UsersNot, errno = parseResvUsers(d.Users); errno != 0 {
			return nil, 0, errno
		}
	}
	if d.Groups != "" {
		if !groups.valid {
			return nil, 0, errnoGroupIDMissing
		}
		r.Groups, r.UIDs = d.Groups, groups.uids
	}
	switch {
	case d.NodeList != "":
		flags |= wire.ResvSpecNodes
		var nodes []string
		if strings.EqualFold(d.NodeList, "ALL") {
			if part != nil && flags&wire.ResvPartNodes != 0 {
				nodes = slices.Clone(part.nodes)
			} else {
				flags = flags&^wire.ResvPartNodes | wire.ResvAllNodes
				nodes = slices.Clone(t.nodeOrder)
			}
		} else {
			flags &^= wire.ResvPartNodes
			names, err := hostlist.Expand(d.NodeList)
			if err != nil || len(names) == 0 {
				return nil, 0, errnoInvalidNodeName
			}
			for _, n := range names {
				if t.nodes[n] == nil {
					return nil, 0, errnoInvalidNodeName
				}
			}
			nodes = t.inNodeOrder(names)
		}
		r.Nodes, r.Flags = nodes, flags
		if flags&(wire.ResvMaint|wire.ResvOverlap) == 0 && t.resvOverlaps(r, "") {
			return nil, 0, errnoResvOverlap
		}
		if flags&(wire.ResvIgnoreJobs|wire.ResvMaint) == 0 && t.jobsOverlap(r.Nodes, start, now) {
			return nil, 0, errnoNodesBusy
		}
	case d.NodeCnt != 0 && d.NodeCnt != wire.NoVal:
		flags &^= wire.ResvPartNodes
		if part == nil {
			if part = t.parts[t.defPart]; part == nil {
				return nil, 0, errnoDefaultPartNotSet
			}
			r.Partition = part.conf.Name
		}
		r.Flags = flags
		if errno := t.checkResvFeatures(d.Features); errno != 0 {
			return nil, 0, errno // checked only where they choose the nodes, as in Slurm
		}
		if r.Features != "" && t.resvFeatureNodes(r, part) < int(d.NodeCnt) {
			return nil, 0, errnoNodeConfigUnavail // too few nodes have the features at all
		}
		nodes, ok := t.pickResvNodes(r, part, int(d.NodeCnt), now)
		if !ok {
			return nil, 0, errnoNodesBusy
		}
		r.Nodes = nodes
	default:
		return nil, 0, errnoInvalidNodeName
	}
	suffix = t.resvSuffix + 1
	if d.Name != "" {
		if t.resvs[d.Name] != nil {
			return nil, suffix, errnoResvNameDup
		}
		r.Name = d.Name
	} else {
		key := r.Accounts
		if len(r.Users) > 0 {
			key = r.Users
		}
		if len(key) == 0 {
			key = splitNonEmpty(r.Groups)
		}
		for t.resvs[key[0]+"_"+strconv.FormatUint(uint64(suffix), 10)] != nil {
			suffix++
		}
		r.Name = key[0] + "_" + strconv.FormatUint(uint64(suffix), 10)
	}
	r.Seq = t.resvSeq
	return r, suffix, 0
}

// inNodeOrder is names in configuration order, without repeats.
func (t *tables) inNodeOrder(names []string) []string {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	out := make([]string, 0, len(want))
	for _, n := range t.nodeOrder {
		if want[n] {
			out = append(out, n)
		}
	}
	return out
}

// resvOverlaps says whether another reservation (not skip, not MAINT or OVERLAP) holds one
// of r's nodes in a window that meets r's (Slurm's _resv_overlap).
func (t *tables) resvOverlaps(r *resvRecord, skip string) bool {
	for _, o := range t.resvs {
		if o.Name == skip || o.Name == r.Name || o.has(wire.ResvMaint|wire.ResvOverlap) || !o.overlaps(r.StartTime, r.EndTime) {
			continue
		}
		for _, n := range r.Nodes {
			if o.hasNode(n) {
				return true
			}
		}
	}
	return false
}

// jobsOverlap says whether a job running on one of nodes is expected to run past start
// (Slurm's _job_overlap): it would keep a node the reservation wants.
func (t *tables) jobsOverlap(nodes []string, start, now int64) bool {
	for _, n := range nodes {
		for _, j := range t.jobsOnNode(n) {
			if j.expectedEnd(now) > start {
				return true
			}
		}
	}
	return false
}

// expectedEnd is when running job j will be over at the latest: its start plus its time
// limit, a year on for a job without one (Slurm's end_time for it), now if it overran.
func (j *jobRecord) expectedEnd(now int64) int64 {
	if j.TimeLimit == wire.Infinite || j.TimeLimit == wire.NoVal {
		return max(j.StartTime+yearSeconds, now)
	}
	return max(j.StartTime+int64(j.TimeLimit)*60, now)
}

// pickResvNodes chooses up to n nodes of part for r (NodeCnt=), as Slurm's _select_nodes
// does: from the usable nodes no overlapping reservation holds, fewer than n when fewer are
// left ("Reducing requested node count"), those no running job would still hold at r's start
// first, and busy ones only with IGNORE_JOBS; each in configuration order. A MAINT or
// OVERLAP reservation finding none there may take reserved nodes, and a MAINT one down nodes
// too. False when there is none to take.
func (t *tables) pickResvNodes(r *resvRecord, part *partEntry, n int, now int64) ([]string, bool) {
	held := func(name string) bool {
		for _, o := range t.resvs {
			if o.Name != r.Name && o.overlaps(r.StartTime, r.EndTime) && o.hasNode(name) {
				return true
			}
		}
		return false
	}
	tiers := []func(e *nodeEntry, name string) bool{
		func(e *nodeEntry, name string) bool { return e.usable() && !held(name) },
	}
	if r.has(wire.ResvMaint | wire.ResvOverlap) {
		tiers = append(tiers, func(e *nodeEntry, _ string) bool { return e.usable() })
	}
	if r.has(wire.ResvMaint) {
		tiers = append(tiers, func(*nodeEntry, string) bool { return true })
	}
	for _, ok := range tiers {
		var free, busy []string
		for _, name := range part.nodes {
			e := t.nodes[name]
			switch {
			case e == nil || !ok(e, name) || r.hasNode(name): // r's own: an update adds others
			case !r.featuresMatch(e):
			case t.jobsOverlap([]string{name}, r.StartTime, now):
				busy = append(busy, name)
			default:
				free = append(free, name)
			}
		}
		k := min(n, len(free)+len(busy))
		switch {
		case k == 0:
		case len(free) >= k:
			return free[:k], true
		case r.has(wire.ResvIgnoreJobs):
			return t.inNodeOrder(append(free, busy[:k-len(free)]...)), true
		}
	}
	return nil, false
}

// parseResvUsers resolves a Users= list: names (or uids), each with a leading - to refuse
// rather than admit it; all of one kind (Slurm's _build_uid_list).
func parseResvUsers(list string) (names []string, uids []uint32, not bool, errno int32) {
	for i, u := range strings.Split(list, ",") {
		neg := strings.HasPrefix(u, "-")
		u = strings.TrimPrefix(u, "-")
		if i == 0 {
			not = neg
		} else if neg != not || u == "" {
			return nil, nil, false, errnoUserIDMissing
		}
		pw, err := userdb.Lookup(u)
		if err != nil {
			if pw, err = userdb.LookupId(u); err != nil {
				return nil, nil, false, errnoUserIDMissing
			}
		}
		uid, _ := strconv.ParseUint(pw.Uid, 10, 32)
		if !slices.Contains(uids, uint32(uid)) {
			names, uids = append(names, pw.Username), append(uids, uint32(uid))
		}
	}
	return names, uids, not, 0
}

// parseResvAccounts splits an Accounts= list, each with a leading - to refuse it. Orbit
// keeps no association database, so any account name is taken, as Slurm takes it without
// accounting.
func parseResvAccounts(list string) (names []string, not bool, errno int32) {
	for i, a := range strings.Split(list, ",") {
		neg := strings.HasPrefix(a, "-")
		a = strings.TrimPrefix(a, "-")
		if i == 0 {
			not = neg
		} else if neg != not {
			return nil, false, errnoInvalidAccount
		}
		if a == "" {
			return nil, false, errnoInvalidAccount
		}
		if !slices.Contains(names, a) {
			names = append(names, a)
		}
	}
	return names, not, 0
}

// resvAdmits says whether r lets a job of uid and account run in it (Slurm's
// _valid_job_access_resv without associations): the user must pass the user list (when
// there is one) and the account the account list (when there is one). A job without an
// account fails a list that admits accounts.
func resvAdmits(r *resvRecord, uid uint32, account string) bool {
	userGood := len(r.UIDs) == 0 || r.UsersNot
	if slices.Contains(r.UIDs, uid) {
		userGood = !r.UsersNot
	}
	if !userGood {
		return false
	}
	if len(r.UIDs) > 0 && len(r.Accounts) == 0 {
		return true
	}
	acctGood := len(r.Accounts) == 0 || r.AccountsNot
	if account != "" && slices.Contains(r.Accounts, account) {
		acctGood = !r.AccountsNot
	}
	return acctGood
}

// String is for logs.
func (r *resvRecord) String() string {
	return fmt.Sprintf("%s[%d-%d %s]", r.Name, r.StartTime, r.EndTime, hostlist.Compress(r.Nodes))
}

// checkResvFeatures is Features= checked as a job's --constraint is, less the bracketed
// matching OR Slurm refuses for reservations: every feature must be some node's.
func (t *tables) checkResvFeatures(features string) int32 {
	if strings.TrimSpace(features) == "" {
		return 0
	}
	if strings.ContainsAny(features, "[]") {
		return errnoInvalidFeature
	}
	if err := t.checkFeatures(features); err != nil { // job_submit_checks.go
		return errnoInvalidFeature
	}
	return 0
}

// featuresMatch says whether node e has the (active) features r's nodes are chosen by.
func (r *resvRecord) featuresMatch(e *nodeEntry) bool {
	if r.Features == "" {
		return true
	}
	c, err := selection.ParseConstraint(r.Features)
	return err == nil && c.MatchesSome(e.activeFeatures())
}

// resvFeatureNodes counts the nodes of part with r's features, whatever holds them.
func (t *tables) resvFeatureNodes(r *resvRecord, part *partEntry) int {
	n := 0
	for _, name := range part.nodes {
		if e := t.nodes[name]; e != nil && r.featuresMatch(e) {
			n++
		}
	}
	return n
}

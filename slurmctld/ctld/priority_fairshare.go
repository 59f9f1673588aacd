package ctld

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orbit-hpc/orbit/conf"
)

// priority/multifactor's fair-share factor, from the usage the embedded accounting records.
//
// Slurm computes fair-share over the associations slurmdbd holds; without slurmdbd it gives
// every job a fair-share factor of 0 and ignores PriorityWeightAge too (priority_multifactor.c
// init). Orbit's embedded accounting (AccountingStorageType=accounting_storage/orbit, or
// .../slurmdbd, which selects the same store) stands in for slurmdbd, with one association per
// user directly under root, each with the default share of 1: there is no sacctmgr to make
// accounts. Over that tree:
//
//   - Usage (Slurm's usage_raw) is CPU-seconds: the CPUs a job holds times the seconds it runs
//     (its billing TRES without TRESBillingWeights), decayed by PriorityDecayHalfLife with
//     Slurm's per-second factor 1 − 0.693/half-life, and zeroed at each
//     PriorityUsageResetPeriod boundary. A running job's usage is added each scheduling pass,
//     an ended job's last stretch before it leaves memory, each second counted once.
//   - Fair Tree (the default): every user's level fair-share is S/U, its share of the shares
//     (1/users) over its share of root's usage; users are ranked by it, highest first, ties
//     sharing a rank, and a user's factor is rank / users (fair_tree.c). A user with no usage
//     ranks first.
//   - PriorityFlags=NO_FAIR_TREE (or DEPTH_OBLIVIOUS, the same for users directly under root):
//     the classic 2^(−(U/S)/FairShareDampeningFactor).
//
// The users are those with a job in the controller's memory and those with recorded usage.
// Usage is saved in StateSaveLocation every PriorityCalcPeriod (Slurm's assoc_usage and
// last_decay_ran files), so a restart loses at most one period of it.

// fairShareUsageFile is the file in StateSaveLocation holding the decayed usage.
const fairShareUsageFile = "fairshare_usage.json"

// slurmDecayLn2 is the ln 2 Slurm's decay factor uses (1 − 0.693/half-life per second).
const slurmDecayLn2 = 0.693

// fairShareState is priority/multifactor's fair-share memory. Guarded by c.mu.
type fairShareState struct {
	usage     map[uint32]float64 // uid → decayed usage, CPU-seconds
	counted   map[uint32]int64   // job id → the time up to which its run is in usage
	factor    map[uint32]float64 // uid → fair-share factor as of the last calculation
	lastDecay int64              // when usage was last decayed (Slurm's g_last_ran); 0 = not yet
	lastReset int64              // the last PriorityUsageResetPeriod boundary applied
}

// fairShareSnapshot is fairShareUsageFile's content.
type fairShareSnapshot struct {
	Time      int64              `json:"time"`       // usage is decayed and counted up to here
	LastReset int64              `json:"last_reset"` // as fairShareState.lastReset
	Usage     map[string]float64 `json:"usage"`      // uid (decimal) → usage, CPU-seconds
}

func newFairShareState() fairShareState {
	return fairShareState{usage: map[uint32]float64{}, counted: map[uint32]int64{}, factor: map[uint32]float64{}}
}

// fairShareOn says whether jobs get a fair-share factor: priority/multifactor with the
// embedded accounting, whose usage it is.
func (c *Controller) fairShareOn() bool {
	return c.multifactor() && c.config().AccountingEnabled()
}

// usageDecayFactor is the per-second decay of usage, 1 with PriorityDecayHalfLife=0.
func usageDecayFactor(halfLife uint32) float64 {
	if halfLife == 0 {
		return 1
	}
	return 1 - slurmDecayLn2/float64(halfLife)
}

// decayedSpan is the usage, valued at now, of one CPU busy over [from, to]: each second
// t counts decay^(now−t). It is exact however the span is cut up, so usage does not depend
// on how often passes run.
func decayedSpan(from, to, now int64, decay float64) float64 {
	if to <= from {
		return 0
	}
	if decay >= 1 || decay <= 0 {
		return float64(to - from)
	}
	k := -math.Log(decay)
	return (math.Exp(-k*float64(now-to)) - math.Exp(-k*float64(now-from))) / k
}

// accrueJobUsage adds to its user's usage the part of j's run not yet counted, up to now (or
// to its end or suspension), valued at now: usage must already be decayed to now. Called with
// c.mu held.
func (c *Controller) accrueJobUsage(j *jobRecord, now int64, decay float64) {
	if j.StartTime == 0 {
		return
	}
	fs := &c.fairShare
	var end int64
	switch st := j.state(); {
	case st.IsFinished(), st.IsPending(): // a pending job that has a start was requeued
		end = j.EndTime
	case st.IsSuspended():
		end = j.SuspendTime
	default:
		end = now
	}
	end = min(end, now)
	counted := fs.counted[j.JobID]
	from := max(j.StartTime, counted)
	if end <= from {
		if from > counted {
			fs.counted[j.JobID] = from
		}
		return
	}
	var cpus float64
	for _, n := range j.CPUsPerNode {
		cpus += float64(n)
	}
	fs.usage[j.UserID] += cpus * decayedSpan(from, end, now, decay)
	fs.counted[j.JobID] = end
}

// decayUsageTo decays every user's usage from the last time to now. Called with c.mu held.
func (c *Controller) decayUsageTo(now int64, decay float64) {
	fs := &c.fairShare
	if fs.lastDecay != 0 && now > fs.lastDecay && decay < 1 {
		f := max(math.Pow(decay, float64(now-fs.lastDecay)), math.SmallestNonzeroFloat64)
		for uid, u := range fs.usage {
			fs.usage[uid] = u * f
		}
	}
	if now > fs.lastDecay {
		fs.lastDecay = now
	}
}

// accrueUsage brings usage up to now: decays it since the last time, applies a
// PriorityUsageResetPeriod boundary that has passed, and adds every job's run since. Called
// with c.mu held, before each scheduling pass.
func (c *Controller) accrueUsage(now int64) {
	fs := &c.fairShare
	pc := c.config().Priority
	decay := usageDecayFactor(pc.DecayHalfLife)
	c.decayUsageTo(now, decay)
	if fs.lastReset == 0 {
		fs.lastReset = now
	}
	if next := nextUsageReset(pc.UsageResetPeriod, fs.lastReset, time.Local); next != 0 && now >= next {
		clear(fs.usage)
		fs.lastReset = now
		// What ran before the boundary is gone with it; counting resumes from now.
		for _, j := range c.t.jobs {
			if j.StartTime != 0 {
				fs.counted[j.JobID] = max(fs.counted[j.JobID], now)
			}
		}
	}
	for _, j := range c.t.jobs {
		c.accrueJobUsage(j, now, decay)
	}
}

// forgetJobUsage accrues the last of a job's usage as it leaves memory (MinJobAge) and drops
// what fair-share kept for it. Called with c.mu held.
func (c *Controller) forgetJobUsage(j *jobRecord, now int64) {
	if !c.fairShareOn() {
		return
	}
	decay := usageDecayFactor(c.config().Priority.DecayHalfLife)
	c.decayUsageTo(now, decay)
	c.accrueJobUsage(j, now, decay)
	delete(c.fairShare.counted, j.JobID)
}

// nextUsageReset is the first PriorityUsageResetPeriod boundary after last (local time), as
// Slurm's _next_reset: midnight, Sunday midnight, the first of a month, of a quarter or of a
// year. 0 when usage is never reset on a schedule (NONE, and NOW, which resets at start).
func nextUsageReset(period string, last int64, loc *time.Location) int64 {
	t := time.Unix(last, 0).In(loc)
	y, m, d := t.Date()
	switch period {
	case "DAILY":
		return time.Date(y, m, d+1, 0, 0, 0, 0, loc).Unix()
	case "WEEKLY":
		return time.Date(y, m, d+7-int(t.Weekday()), 0, 0, 0, 0, loc).Unix()
	case "MONTHLY":
		return time.Date(y, m+1, 1, 0, 0, 0, 0, loc).Unix()
	case "QUARTERLY":
		return time.Date(y, (m-1)/3*3+4, 1, 0, 0, 0, 0, loc).Unix()
	case "YEARLY":
		return time.Date(y+1, 1, 1, 0, 0, 0, 0, loc).Unix()
	}
	return 0
}

// calcFairShare recomputes every user's fair-share factor from usage (Slurm's decay thread
// does it every PriorityCalcPeriod), for the users known and also those given (a job being
// submitted is not in the tables yet). Called with c.mu held.
func (c *Controller) calcFairShare(also ...uint32) {
	fs := &c.fairShare
	users := map[uint32]bool{}
	for _, uid := range also {
		users[uid] = true
	}
	for uid := range fs.usage {
		users[uid] = true
	}
	for _, j := range c.t.jobs {
		users[j.UserID] = true
	}
	pc := c.config().Priority
	damp := cmp.Or(c.admin.dampening(), pc.FairShareDampeningFactor) // scontrol fsdampeningfactor
	fs.factor = fairShareFactors(fs.usage, users, pc.Flags&conf.PriorityFairTree != 0, damp)
}

// fairShareFactors computes each user's factor for users that all sit directly under root
// with one share each: Fair Tree's rank / users, or the classic 2^(−(U/S)/damp).
func fairShareFactors(usage map[uint32]float64, users map[uint32]bool, fairTree bool, damp uint16) map[uint32]float64 {
	out := make(map[uint32]float64, len(users))
	n := len(users)
	if n == 0 {
		return out
	}
	var total float64
	for uid := range users {
		total += usage[uid]
	}
	share := 1 / float64(n)
	norm := func(uid uint32) float64 { // usage_efctv: the user's part of root's usage
		if total <= 0 {
			return 0
		}
		return usage[uid] / total
	}
	if !fairTree {
		d := float64(max(damp, 1))
		for uid := range users {
			out[uid] = math.Pow(2, -(norm(uid)/share)/d)
		}
		return out
	}
	type level struct {
		uid uint32
		fs  float64 // S/U; +Inf without usage
	}
	lv := make([]level, 0, n)
	for uid := range users {
		u := norm(uid)
		f := math.Inf(1)
		if u > 0 {
			f = share / u
		}
		lv = append(lv, level{uid, f})
	}
	slices.SortFunc(lv, func(a, b level) int {
		switch {
		case a.fs > b.fs:
			return -1
		case a.fs < b.fs:
			return 1
		}
		return int(a.uid) - int(b.uid)
	})
	rank, next := n, n
	for i, l := range lv {
		if i == 0 || l.fs != lv[i-1].fs {
			rank = next
		}
		out[l.uid] = float64(rank) / float64(n)
		next--
	}
	return out
}

// fairShareFactor is uid's factor for a job's priority, computing the factors anew when the
// user is new since the last calculation. Called with c.mu held.
func (c *Controller) fairShareFactor(uid uint32) float64 {
	f, ok := c.fairShare.factor[uid]
	if !ok {
		c.calcFairShare(uid)
		f = c.fairShare.factor[uid]
	}
	return f
}

// usageToSave returns the usage to save, or nil when nothing is saved (no fair-share, or
// a simulation). Called with c.mu held.
func (c *Controller) usageToSave() *fairShareSnapshot {
	fs := &c.fairShare
	if !c.fairShareOn() || c.manual {
		return nil
	}
	s := &fairShareSnapshot{Time: fs.lastDecay, LastReset: fs.lastReset, Usage: make(map[string]float64, len(fs.usage))}
	for uid, u := range fs.usage {
		if !math.IsInf(u, 0) && !math.IsNaN(u) {
			s.Usage[strconv.FormatUint(uint64(uid), 10)] = u
		}
	}
	return s
}

// saveFairShare writes s to StateSaveLocation, replacing the last one whole (write, fsync,
// rename), so a crash leaves the old file or the new one.
func (c *Controller) saveFairShare(s *fairShareSnapshot) {
	if s == nil {
		return
	}
	b, err := json.Marshal(s)
	if err == nil {
		err = writeFileAtomic(filepath.Join(c.config().StateSaveLocation, fairShareUsageFile), b)
	}
	if err != nil {
		c.log.Error("cannot save fair-share usage", "err", err)
	}
}

// writeFileAtomic writes b to path through a temporary file in the same directory.
func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// loadFairShare reads the saved usage after recovery: every recovered job counts as counted
// up to the save, since its run before then is in the saved usage. A missing file is a first
// start (every recovered job's run is counted anew); an unreadable one is logged and
// ignored, as Slurm starts over when assoc_usage cannot be read.
// PriorityUsageResetPeriod=NOW resets usage at every start. Called before serving.
func (c *Controller) loadFairShare() {
	fs := &c.fairShare
	path := filepath.Join(c.config().StateSaveLocation, fairShareUsageFile)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return
	case err != nil:
		c.log.Error("cannot read fair-share usage; starting with none", "path", path, "err", err)
		return
	}
	s, usage, err := parseFairShareSnapshot(b)
	if err != nil {
		c.log.Error("cannot read fair-share usage; starting with none", "path", path, "err", err)
		return
	}
	fs.usage, fs.lastDecay, fs.lastReset = usage, s.Time, s.LastReset
	for id, j := range c.t.jobs {
		if j.StartTime != 0 {
			fs.counted[id] = max(j.StartTime, s.Time)
		}
	}
	if strings.EqualFold(c.config().Priority.UsageResetPeriod, "NOW") {
		clear(fs.usage)
	}
}

// parseFairShareSnapshot decodes a saved usage file, refusing anything that is not one: an
// unknown field, a uid that is not a 32-bit number, a negative or non-finite usage, a
// negative time.
func parseFairShareSnapshot(b []byte) (*fairShareSnapshot, map[uint32]float64, error) {
	var s fairShareSnapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", fairShareUsageFile, err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("%s: trailing data after the usage", fairShareUsageFile)
	}
	if s.Time < 0 || s.LastReset < 0 {
		return nil, nil, fmt.Errorf("%s: negative time", fairShareUsageFile)
	}
	usage := make(map[uint32]float64, len(s.Usage))
	for k, u := range s.Usage {
		uid, err := strconv.ParseUint(k, 10, 32)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: bad uid %q", fairShareUsageFile, k)
		}
		if u < 0 || math.IsInf(u, 0) || math.IsNaN(u) {
			return nil, nil, fmt.Errorf("%s: bad usage %v for uid %d", fairShareUsageFile, u, uid)
		}
		usage[uint32(uid)] = u
	}
	return &s, usage, nil
}

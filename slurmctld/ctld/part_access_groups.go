package ctld

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/userdb"
)

// Partitions' AllowGroups need each user's groups. Slurm rebuilds every partition's allowed
// uids on reconfigure and every GroupUpdateTime seconds; Orbit keeps, per user, the groups
// the user belongs to (primary and supplementary) and per group name its gid, for as long.
// Lookups read /etc/passwd and /etc/group or ask NSS, so they never run under the state
// lock: the submit and update handlers load the requesting user before taking it, and the
// scheduling cycle has a missing user loaded in the background (then wakes itself).

// userGroups is that cache. Its own mutex guards it; it is never taken around a lookup.
type userGroups struct {
	mu      sync.Mutex
	ttl     time.Duration
	users   map[uint32]groupsEntry // uid → the gids the user is in
	groups  map[string]groupsEntry // group name → its gid (one entry; none if unknown)
	loading map[uint32]bool        // background loads under way
}

type groupsEntry struct {
	gids []uint32
	at   time.Time
}

func newUserGroups(ttl time.Duration) *userGroups {
	if ttl <= 0 {
		ttl = 600 * time.Second
	}
	return &userGroups{ttl: ttl, users: map[uint32]groupsEntry{}, groups: map[string]groupsEntry{}, loading: map[uint32]bool{}}
}

// load looks up uid's groups and the gids of names unless fresh entries are cached.
func (g *userGroups) load(uid uint32, names []string, now time.Time) {
	g.mu.Lock()
	_, haveUser := g.fresh(g.users, uid, now)
	var missing []string
	for _, n := range names {
		if _, ok := g.freshGroup(n, now); !ok {
			missing = append(missing, n)
		}
	}
	g.mu.Unlock()
	var gids []uint32
	if !haveUser {
		gids = lookupUserGIDs(uid)
	}
	resolved := map[string]groupsEntry{}
	for _, n := range missing {
		e := groupsEntry{at: now}
		if gr, err := userdb.LookupGroup(n); err == nil {
			if id, err := strconv.ParseUint(gr.Gid, 10, 32); err == nil {
				e.gids = []uint32{uint32(id)}
			}
		}
		resolved[n] = e
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !haveUser {
		g.users[uid] = groupsEntry{gids: gids, at: now}
	}
	for n, e := range resolved {
		g.groups[n] = e
	}
}

// loadInBackground loads uid as load does, once at a time per user, then calls done.
func (g *userGroups) loadInBackground(uid uint32, names []string, now time.Time, done func()) {
	g.mu.Lock()
	if g.loading[uid] {
		g.mu.Unlock()
		return
	}
	g.loading[uid] = true
	g.mu.Unlock()
	go func() {
		g.load(uid, names, now)
		g.mu.Lock()
		delete(g.loading, uid)
		g.mu.Unlock()
		done()
	}()
}

// inAny says whether uid belongs to one of the comma-separated groups in allow; known is
// false when the user or one of the groups has not been looked up (or has gone stale).
func (g *userGroups) inAny(uid uint32, allow string, now time.Time) (in, known bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	mine, ok := g.fresh(g.users, uid, now)
	if !ok {
		return false, false
	}
	for _, n := range strings.Split(allow, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		gid, ok := g.freshGroup(n, now)
		if !ok {
			return false, false
		}
		for _, id := range gid {
			for _, m := range mine {
				if id == m {
					return true, true
				}
			}
		}
	}
	return false, true
}

// reset drops everything and keeps entries for ttl from now on: reconfigure re-reads users
// and groups, as Slurm does.
func (g *userGroups) reset(ttl time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ttl = ttl
	g.users, g.groups = map[uint32]groupsEntry{}, map[string]groupsEntry{}
}

func (g *userGroups) fresh(m map[uint32]groupsEntry, uid uint32, now time.Time) ([]uint32, bool) {
	e, ok := m[uid]
	if !ok || now.Sub(e.at) >= g.ttl || now.Before(e.at) {
		return nil, false
	}
	return e.gids, true
}

func (g *userGroups) freshGroup(name string, now time.Time) ([]uint32, bool) {
	e, ok := g.groups[name]
	if !ok || now.Sub(e.at) >= g.ttl || now.Before(e.at) {
		return nil, false
	}
	return e.gids, true
}

// lookupUserGIDs is the gids uid belongs to: its primary group and its supplementary ones.
// A user the system does not know belongs to none.
func lookupUserGIDs(uid uint32) []uint32 {
	u, err := userdb.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return nil
	}
	ids, err := userdb.GroupIds(u)
	if err != nil {
		ids = []string{u.Gid}
	}
	out := make([]uint32, 0, len(ids))
	for _, s := range ids {
		if id, err := strconv.ParseUint(s, 10, 32); err == nil {
			out = append(out, uint32(id))
		}
	}
	return out
}

// allowGroupNames is every group some partition's AllowGroups names.
func allowGroupNames(parts []*conf.Partition) []string {
	var names []string
	seen := map[string]bool{}
	for _, p := range parts {
		for _, n := range strings.Split(p.AllowGroups, ",") {
			if n = strings.TrimSpace(n); n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names
}

// groupUpdateTime is GroupUpdateTime: how long users' groups are kept (0: until
// reconfigure, as Slurm then never refreshes them on its own).
func groupUpdateTime(cfg *conf.Config) time.Duration {
	v, _ := cfg.Get("GroupUpdateTime")
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 0:
		return 600 * time.Second
	case n == 0:
		return 100 * 365 * 24 * time.Hour
	}
	return time.Duration(n) * time.Second
}

// partGroupNames is every group some partition's AllowGroups names now (scontrol update
// may have changed them). Called with c.mu held.
func (t *tables) partGroupNames() []string {
	parts := make([]*conf.Partition, 0, len(t.partOrder))
	for _, name := range t.partOrder {
		parts = append(parts, t.parts[name].conf)
	}
	return allowGroupNames(parts)
}

// loadOwnerGroups looks up the groups of job id's user (an array's or a task's alike) when
// some partition has AllowGroups, so an update checks the job against them.
func (c *Controller) loadOwnerGroups(id uint32, now int64) {
	c.mu.RLock()
	names := c.t.partGroupNames()
	var uid uint32
	j := c.t.jobs[id]
	if j != nil {
		uid = j.UserID
	}
	c.mu.RUnlock()
	if len(names) > 0 && j != nil && !c.slurmUser(uid) {
		c.groups.load(uid, names, time.Unix(now, 0))
	}
}

package userdb

import (
	"os"
	"os/user"
	"strconv"
	"strings"
)

// resolver is one lookup policy: os/user, then, when getent is set, getent on a miss. The
// exported functions use the build's policy; tests build resolvers of their own.
type resolver struct {
	getent getentFunc // nil: os/user's answer is final
	// nsswitch is the NSS configuration that says whether /etc/group holds every group
	// ("" is /etc/nsswitch.conf).
	nsswitch string
}

// standard is the build's policy: getent only where os/user cannot reach NSS itself.
func standard() resolver {
	if nssFallback {
		return resolver{getent: runGetent}
	}
	return resolver{}
}

// Lookup finds a user by name, as getpwnam does.
func Lookup(name string) (*user.User, error) { return standard().lookup(name) }

// LookupId finds a user by decimal uid, as getpwuid does.
func LookupId(uid string) (*user.User, error) { return standard().lookupID(uid) }

// LookupGroup finds a group by name, as getgrnam does.
func LookupGroup(name string) (*user.Group, error) { return standard().lookupGroup(name) }

// LookupGroupId finds a group by decimal gid, as getgrgid does.
func LookupGroupId(gid string) (*user.Group, error) { return standard().lookupGroupID(gid) }

// GroupIds lists the gids of u's groups, its primary group first, as getgrouplist does.
func GroupIds(u *user.User) ([]string, error) { return standard().groupIDs(u) }

// Current is the user running this process: the entry of its real uid. Unlike os/user's
// Current without cgo, it never makes a user up from $USER and $HOME, which may disagree
// with the uid (after su, in a batch step); without an entry it fails, as getpwuid does.
func Current() (*user.User, error) { return LookupId(strconv.Itoa(os.Getuid())) }

func (r resolver) lookup(name string) (*user.User, error) {
	u, err := user.Lookup(name)
	if err == nil || r.getent == nil || !getentName(name) {
		return u, err
	}
	line, found, gerr := r.getent("passwd", name)
	if gerr != nil || !found {
		return nil, missOr(err, user.UnknownUserError(name), found, gerr)
	}
	p, perr := parsePasswd(line)
	if perr != nil {
		return nil, getentError("passwd", name, perr)
	}
	if p.Username != name {
		// Not the entry asked for; getent answered another question (cannot happen for
		// names getentName accepts, but the caller must never get someone else).
		return nil, user.UnknownUserError(name)
	}
	return p, nil
}

func (r resolver) lookupID(uid string) (*user.User, error) {
	u, err := user.LookupId(uid)
	if err == nil || r.getent == nil || !getentID(uid) {
		return u, err
	}
	n, _ := strconv.Atoi(uid)
	line, found, gerr := r.getent("passwd", uid)
	if gerr != nil || !found {
		return nil, missOr(err, user.UnknownUserIdError(n), found, gerr)
	}
	p, perr := parsePasswd(line)
	if perr != nil {
		return nil, getentError("passwd", uid, perr)
	}
	if p.Uid != uid {
		return nil, user.UnknownUserIdError(n)
	}
	return p, nil
}

func (r resolver) lookupGroup(name string) (*user.Group, error) {
	g, err := user.LookupGroup(name)
	if err == nil || r.getent == nil || !getentName(name) {
		return g, err
	}
	line, found, gerr := r.getent("group", name)
	if gerr != nil || !found {
		return nil, missOr(err, user.UnknownGroupError(name), found, gerr)
	}
	p, _, perr := parseGroup(line)
	if perr != nil {
		return nil, getentError("group", name, perr)
	}
	if p.Name != name {
		return nil, user.UnknownGroupError(name)
	}
	return p, nil
}

func (r resolver) lookupGroupID(gid string) (*user.Group, error) {
	g, err := user.LookupGroupId(gid)
	if err == nil || r.getent == nil || !getentID(gid) {
		return g, err
	}
	line, found, gerr := r.getent("group", gid)
	if gerr != nil || !found {
		return nil, missOr(err, user.UnknownGroupIdError(gid), found, gerr)
	}
	p, _, perr := parseGroup(line)
	if perr != nil {
		return nil, getentError("group", gid, perr)
	}
	if p.Gid != gid {
		return nil, user.UnknownGroupIdError(gid)
	}
	return p, nil
}

// groupIDs: a user os/user finds locally gets os/user's list when /etc/group is the whole
// group database (nsswitch.conf's group sources are files and systemd only); otherwise, and
// for a user only NSS knows, NSS's list (getent initgroups), since /etc/group cannot know
// memberships a directory service holds.
func (r resolver) groupIDs(u *user.User) ([]string, error) {
	ids, err := u.GroupIds()
	if r.getent == nil || !getentName(u.Username) {
		return ids, err
	}
	if _, lerr := user.Lookup(u.Username); lerr == nil && err == nil && localGroups(r.nsswitch) {
		return ids, nil
	}
	line, found, gerr := r.getent("initgroups", u.Username)
	if gerr != nil || !found {
		if err == nil {
			return ids, nil
		}
		return nil, missOr(err, user.UnknownUserError(u.Username), found, gerr)
	}
	gids, perr := parseInitgroups(line, u.Username)
	if perr != nil {
		return nil, getentError("initgroups", u.Username, perr)
	}
	out := []string{u.Gid}
	for _, g := range gids {
		if g != u.Gid {
			out = append(out, g)
		}
	}
	return out, nil
}

// missOr is a failed fallback's error: the miss when getent says the key does not exist,
// otherwise (no getent on this host, or it failed) os/user's own error, since getent could
// not add anything to it.
func missOr(osErr, miss error, found bool, getentErr error) error {
	if getentErr == nil && !found {
		return miss
	}
	return osErr
}

// localGroups says whether the group database is /etc/group alone: the "group:" line of
// nsswitch (default /etc/nsswitch.conf) names no source but files and systemd (whose
// dynamic groups are services', not users'). Without the file glibc reads files only.
func localGroups(nsswitch string) bool {
	if nsswitch == "" {
		nsswitch = "/etc/nsswitch.conf"
	}
	b, err := os.ReadFile(nsswitch)
	if err != nil {
		return true
	}
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		db, sources, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(db) != "group" {
			continue
		}
		for _, src := range strings.Fields(sources) {
			switch {
			case strings.HasPrefix(src, "["): // an action ([NOTFOUND=return]), not a source
			case src == "files" || src == "systemd":
			default:
				return false
			}
		}
		return true
	}
	return true
}

package userdb

import (
	"fmt"
	"os/user"
	"slices"
	"strconv"
	"strings"
)

// GroupMembers lists the uids of a group's members in the order Slurm's slurmctld finds them
// for a reservation's Groups= (_get_group_members): the members every group of the same
// gid lists (root left out there), then every user whose primary group it is (root
// included), each uid once. Members NSS cannot resolve are skipped. It fails for an unknown
// group and for a group nobody is in, which Slurm refuses alike. The order matters to the
// caller: Slurm ends its list at uid 0, so whoever follows root there is left out.
func GroupMembers(name string) ([]uint32, error) {
	r := standard()
	return groupMembers(name, memberSource{group: r.lookupGroup, user: r.lookup, enum: enumerate, getent: runGetent})
}

// memberSource is where groupMembers looks: the build's lookups, or a test's listings.
type memberSource struct {
	group  func(name string) (*user.Group, error)
	user   func(name string) (*user.User, error)
	enum   func(db string) (string, error)
	getent getentFunc
}

// enumerate runs `getent DB`: every entry NSS enumerates (on sites that disabled LDAP or
// SSSD enumeration, only the local ones).
func enumerate(db string) (string, error) {
	out, _, err := runGetent(db, "")
	return out, err
}

func groupMembers(name string, src memberSource) ([]uint32, error) {
	g, err := src.group(name)
	if err != nil {
		return nil, err
	}
	var uids []uint32
	add := func(uid string) {
		n, err := strconv.ParseUint(uid, 10, 32)
		if err == nil && !slices.Contains(uids, uint32(n)) {
			uids = append(uids, uint32(n))
		}
	}
	groups, err := src.enum("group")
	if err != nil {
		return nil, fmt.Errorf("cannot list groups: %v", err)
	}
	named := false
	for line := range strings.Lines(groups) {
		f := strings.Split(strings.TrimRight(line, "\n"), ":")
		if len(f) != 4 || f[2] != g.Gid {
			continue
		}
		named = named || f[0] == name
		if f[3] == "" {
			continue
		}
		for _, m := range strings.Split(f[3], ",") {
			if u, err := src.user(m); err == nil && u.Uid != "0" {
				add(u.Uid)
			}
		}
	}
	if !named && getentName(name) {
		// A group NSS does not enumerate (LDAP without enumeration) still lists its members.
		if line, found, err := src.getent("group", name); err == nil && found {
			if _, members, err := parseGroup(line); err == nil {
				for _, m := range members {
					if u, err := src.user(m); err == nil && u.Uid != "0" {
						add(u.Uid)
					}
				}
			}
		}
	}
	users, err := src.enum("passwd")
	if err != nil {
		return nil, fmt.Errorf("cannot list users: %v", err)
	}
	for line := range strings.Lines(users) {
		f := strings.Split(strings.TrimRight(line, "\n"), ":")
		if len(f) == 7 && f[3] == g.Gid {
			add(f[2])
		}
	}
	if len(uids) == 0 {
		return nil, user.UnknownGroupError(name + " (no members)")
	}
	return uids, nil
}

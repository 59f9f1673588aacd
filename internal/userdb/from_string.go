package userdb

import (
	"strconv"
	"strings"
)

// UIDFromString is Slurm's uid_from_string, how every command reads a user given by the
// user (-u, --uid): a user name, or else a number as C's strtol reads it (leading blanks and
// a sign allowed, 0 to INT_MAX, nothing after it) that is the uid of an existing user.
func UIDFromString(s string) (uint32, bool) {
	if u, err := Lookup(s); err == nil {
		id, err := strconv.ParseUint(u.Uid, 10, 32)
		return uint32(id), err == nil
	}
	id, ok := strtolID(s)
	if !ok {
		return 0, false
	}
	if _, err := LookupId(strconv.FormatUint(uint64(id), 10)); err != nil {
		return 0, false
	}
	return id, true
}

// GIDFromString is Slurm's gid_from_string: a group name, or else a number (read as
// UIDFromString reads one) that is the gid of an existing group.
func GIDFromString(s string) (uint32, bool) {
	if g, err := LookupGroup(s); err == nil {
		id, err := strconv.ParseUint(g.Gid, 10, 32)
		return uint32(id), err == nil
	}
	id, ok := strtolID(s)
	if !ok {
		return 0, false
	}
	if _, err := LookupGroupId(strconv.FormatUint(uint64(id), 10)); err != nil {
		return 0, false
	}
	return id, true
}

// strtolID reads s as strtol(s, &end, 10) followed by uid.c's checks: something read,
// nothing left, 0 <= value <= INT_MAX.
func strtolID(s string) (uint32, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(t, 10, 31)
	if err != nil || (neg && n != 0) {
		return 0, false
	}
	return uint32(n), true
}

// SlurmIDs reads users and groups with UIDFromString and GIDFromString (the resolver
// compat/options takes for --uid and --gid).
type SlurmIDs struct{}

// UserID is UIDFromString.
func (SlurmIDs) UserID(s string) (uint32, bool) { return UIDFromString(s) }

// GroupID is GIDFromString.
func (SlurmIDs) GroupID(s string) (uint32, bool) { return GIDFromString(s) }

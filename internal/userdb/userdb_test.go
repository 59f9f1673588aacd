package userdb

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Users and groups that only the stand-in getent knows. Their ids are far above what a
// test machine's /etc/passwd holds.
const (
	nssUser  = "orbitnssuser"
	nssUID   = "3999001"
	nssGroup = "orbitnssgroup"
	nssGID   = "3999002"
)

// standInGetent puts a getent script first in PATH and returns the file it logs each call
// to. A user that exists only behind NSS (LDAP, SSSD) needs an NSS module configured in
// /etc/nsswitch.conf, which a test cannot set up on this machine; the stand-in answers as
// glibc's getent does for such a user (the same line formats, exit status 2 for a key it
// does not know), so the test exercises everything on Orbit's side of that process.
func standInGetent(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	if script == "" {
		script = `case "$1 $2" in
"passwd ` + nssUser + `"|"passwd ` + nssUID + `") echo '` + nssUser + `:*:` + nssUID + `:` + nssGID + `:NSS User,,,:/home/` + nssUser + `:/bin/sh' ;;
"group ` + nssGroup + `"|"group ` + nssGID + `") echo '` + nssGroup + `:*:` + nssGID + `:` + nssUser + `' ;;
"initgroups ` + nssUser + `") printf '%-21s 3999003 ` + nssGID + `\n' ` + nssUser + ` ;;
*) exit 2 ;;
esac`
	}
	body := "#!/bin/sh\necho \"$@\" >> '" + log + "'\n" + script + "\n"
	if err := os.WriteFile(filepath.Join(dir, "getent"), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func calls(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// fallback is the policy of a build without cgo, whatever this test binary was built with.
var fallback = resolver{getent: runGetent}

func TestFallbackFindsNSSOnlyUsersAndGroups(t *testing.T) {
	log := standInGetent(t, "")
	u, err := fallback.lookup(nssUser)
	if err != nil {
		t.Fatal(err)
	}
	if u.Username != nssUser || u.Uid != nssUID || u.Gid != nssGID || u.Name != "NSS User" || u.HomeDir != "/home/"+nssUser {
		t.Errorf("lookup(%s) = %+v", nssUser, *u)
	}
	if u, err := fallback.lookupID(nssUID); err != nil || u.Username != nssUser {
		t.Errorf("lookupID(%s) = %v, %v", nssUID, u, err)
	}
	if g, err := fallback.lookupGroup(nssGroup); err != nil || g.Gid != nssGID {
		t.Errorf("lookupGroup(%s) = %v, %v", nssGroup, g, err)
	}
	if g, err := fallback.lookupGroupID(nssGID); err != nil || g.Name != nssGroup {
		t.Errorf("lookupGroupID(%s) = %v, %v", nssGID, g, err)
	}
	ids, err := fallback.groupIDs(u)
	if want := []string{nssGID, "3999003"}; err != nil || !slices.Equal(ids, want) {
		t.Errorf("groupIDs = %q, %v; want %q (primary first, once)", ids, err, want)
	}
	want := []string{"passwd " + nssUser, "passwd " + nssUID, "group " + nssGroup, "group " + nssGID, "initgroups " + nssUser}
	if got := calls(t, log); !slices.Equal(got, want) {
		t.Errorf("getent calls %q, want one per lookup: %q", got, want)
	}
}

func TestLocalUserSpawnsNothing(t *testing.T) {
	log := standInGetent(t, "")
	local, err := user.LookupId("0") // root: every machine's /etc/passwd has it
	if err != nil {
		t.Fatal(err)
	}
	// /etc/group as the whole group database, whatever this machine's nsswitch.conf says
	// (TestLocalUserRemoteGroups covers the other case).
	conf := filepath.Join(t.TempDir(), "nsswitch.conf")
	if err := os.WriteFile(conf, []byte("group: files\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	filesOnly := resolver{getent: runGetent, nsswitch: conf}
	for _, r := range []resolver{filesOnly, standard()} {
		if u, err := r.lookup(local.Username); err != nil || u.Uid != "0" {
			t.Errorf("lookup(%s) = %v, %v", local.Username, u, err)
		}
		if u, err := r.lookupID("0"); err != nil || u.Username != local.Username {
			t.Errorf("lookupID(0) = %v, %v", u, err)
		}
		if g, err := r.lookupGroupID(local.Gid); err != nil {
			t.Errorf("lookupGroupID(%s) = %v, %v", local.Gid, g, err)
		} else if _, err := r.lookupGroup(g.Name); err != nil {
			t.Errorf("lookupGroup(%s): %v", g.Name, err)
		}
		if ids, err := r.groupIDs(local); err != nil || len(ids) == 0 || ids[0] != local.Gid {
			t.Errorf("groupIDs(%s) = %q, %v", local.Username, ids, err)
		}
	}
	if got := calls(t, log); len(got) != 0 {
		t.Errorf("a local user ran getent: %q", got)
	}
}

// TestLocalUserRemoteGroups: a user of /etc/passwd gets NSS's group list (getent
// initgroups) when nsswitch.conf names a remote group source (sss, ldap), and /etc/group's
// when it names files and systemd only.
func TestLocalUserRemoteGroups(t *testing.T) {
	local, err := user.LookupId("0")
	if err != nil {
		t.Fatal(err)
	}
	log := standInGetent(t, `case "$1 $2" in
"initgroups `+local.Username+`") printf '%-21s 3999004\n' `+local.Username+` ;;
*) exit 2 ;;
esac`)
	dir := t.TempDir()
	for _, tc := range []struct {
		conf   string
		remote bool
	}{
		{"passwd: files\ngroup:  files sss # sssd\n", true},
		{"group: files [NOTFOUND=return] ldap\n", true},
		{"# group: ldap\ngroup:          files systemd\n", false},
		{"passwd: files ldap\n", false}, // no group line: glibc's default, files
	} {
		conf := filepath.Join(dir, "nsswitch.conf")
		if err := os.WriteFile(conf, []byte(tc.conf), 0o644); err != nil {
			t.Fatal(err)
		}
		before := len(calls(t, log))
		r := resolver{getent: runGetent, nsswitch: conf}
		ids, err := r.groupIDs(local)
		if err != nil || len(ids) == 0 || ids[0] != local.Gid {
			t.Fatalf("%q: groupIDs = %q, %v", tc.conf, ids, err)
		}
		asked := len(calls(t, log)) > before
		if asked != tc.remote || tc.remote != slices.Contains(ids, "3999004") {
			t.Errorf("%q: getent asked %v, ids %q; want NSS's list only with a remote source", tc.conf, asked, ids)
		}
	}
}

// TestUnknownUserError: a name nobody knows fails with os/user's own error, whose text is
// what it has always been, after exactly one getent.
func TestUnknownUserError(t *testing.T) {
	log := standInGetent(t, "")
	_, osErr := user.Lookup("orbitnosuch")
	if osErr == nil {
		t.Fatal("orbitnosuch exists on this machine")
	}
	for _, c := range []struct {
		name string
		err  func() error
		want error
	}{
		{"user", func() error { _, err := fallback.lookup("orbitnosuch"); return err }, user.UnknownUserError("orbitnosuch")},
		{"uid", func() error { _, err := fallback.lookupID("3999999"); return err }, user.UnknownUserIdError(3999999)},
		{"group", func() error { _, err := fallback.lookupGroup("orbitnosuch"); return err }, user.UnknownGroupError("orbitnosuch")},
		{"gid", func() error { _, err := fallback.lookupGroupID("3999999"); return err }, user.UnknownGroupIdError("3999999")},
	} {
		err := c.err()
		if err == nil || err.Error() != c.want.Error() || !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := fallback.lookup("orbitnosuch"); err.Error() != osErr.Error() {
		t.Errorf("error text %q, os/user's is %q", err, osErr)
	}
	if got := calls(t, log); len(got) != 5 {
		t.Errorf("getent calls %q, want one per miss", got)
	}
}

// TestBuildPolicy: the exported functions consult getent exactly in builds whose os/user
// cannot reach NSS; a cgo build's os/user already asked NSS (which does not know the
// stand-in's user) and must not spawn anything.
func TestBuildPolicy(t *testing.T) {
	log := standInGetent(t, "")
	u, err := Lookup(nssUser)
	if nssFallback {
		if err != nil || u.Uid != nssUID {
			t.Errorf("Lookup(%s) = %v, %v", nssUser, u, err)
		}
	} else {
		if err == nil {
			t.Errorf("a cgo build found %s, which only the stand-in getent knows", nssUser)
		}
		if got := calls(t, log); len(got) != 0 {
			t.Errorf("a cgo build ran getent: %q", got)
		}
	}
}

func TestNumericNamesNeverReachGetent(t *testing.T) {
	// glibc's getent reads an all-digit key as a uid; a lookup by name must not get the
	// entry of that uid instead.
	log := standInGetent(t, "")
	if _, err := fallback.lookup(nssUID); err == nil {
		t.Errorf("lookup(%s) by name succeeded", nssUID)
	}
	if _, err := fallback.lookupID("x" + nssUID); err == nil {
		t.Error("lookupID of a non-number succeeded")
	}
	if got := calls(t, log); len(got) != 0 {
		t.Errorf("getent calls %q", got)
	}
}

func TestGetentTroubles(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir()) // no getent anywhere: os/user's answer stands
		_, err := fallback.lookup("orbitnosuch")
		if err == nil || err.Error() != user.UnknownUserError("orbitnosuch").Error() {
			t.Errorf("got %v", err)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		standInGetent(t, `echo 'not a passwd line'`)
		_, err := fallback.lookup("orbitnosuch")
		if err == nil || !strings.Contains(err.Error(), "getent passwd orbitnosuch") {
			t.Errorf("got %v, want an error naming getent", err)
		}
	})
	t.Run("someone else", func(t *testing.T) {
		standInGetent(t, `echo 'other:x:1:1::/:/bin/sh'`)
		if u, err := fallback.lookup("orbitnosuch"); err == nil {
			t.Errorf("got %+v for another name", *u)
		}
		if u, err := fallback.lookupID("3999999"); err == nil {
			t.Errorf("got %+v for another uid", *u)
		}
	})
	t.Run("failing", func(t *testing.T) {
		standInGetent(t, `exit 1`)
		_, err := fallback.lookup("orbitnosuch")
		if err == nil || err.Error() != user.UnknownUserError("orbitnosuch").Error() {
			t.Errorf("got %v", err)
		}
	})
}

func TestCurrent(t *testing.T) {
	u, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if u.Uid != strconv.Itoa(os.Getuid()) {
		t.Errorf("Current().Uid = %s, want %d", u.Uid, os.Getuid())
	}
}

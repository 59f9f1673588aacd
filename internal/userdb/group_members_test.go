package userdb

import (
	"errors"
	"os/user"
	"slices"
	"testing"
)

// TestGroupMembers_RealGroups asks this machine's NSS, as slurmctld does: a group made
// here for the test would need root and would outlive a failed run, so it reads a group
// every system has (root's) and one none has.
func TestGroupMembers_RealGroups(t *testing.T) {
	// root is a member of no group by gr_mem, but its primary group is gid 0.
	uids, err := GroupMembers("root")
	if err != nil {
		t.Fatalf("GroupMembers(root): %v", err)
	}
	if !slices.Contains(uids, 0) {
		t.Errorf("GroupMembers(root) = %v, want uid 0 (its primary group)", uids)
	}
	if _, err := GroupMembers("no-such-group-orbit"); err == nil {
		t.Error("GroupMembers of an unknown group succeeded")
	}
}

// TestGroupMembers_Listing runs on fixed group and passwd listings: members of every group
// with the gid, root left out of member lists, primary-group users, each uid once.
func TestGroupMembers_Listing(t *testing.T) {
	groups := "staff:x:50:alice,root,bob\nstaff2:x:50:carol,alice\nother:x:60:dave\nempty:x:70:\n"
	passwd := "root:x:0:0::/root:/bin/sh\nalice:x:1001:100::/h:/bin/sh\nbob:x:1002:100::/h:/bin/sh\n" +
		"carol:x:1003:100::/h:/bin/sh\ndave:x:1004:100::/h:/bin/sh\nerin:x:1005:50::/h:/bin/sh\n"
	enum := func(db string) (string, error) {
		if db == "group" {
			return groups, nil
		}
		return passwd, nil
	}
	lookupUser := map[string]string{"alice": "1001", "bob": "1002", "carol": "1003", "dave": "1004", "root": "0"}
	lookup := func(name string) (*user.User, error) {
		if uid, ok := lookupUser[name]; ok {
			return &user.User{Username: name, Uid: uid}, nil
		}
		return nil, user.UnknownUserError(name)
	}
	lookupGroup := func(name string) (*user.Group, error) {
		switch name {
		case "staff":
			return &user.Group{Name: name, Gid: "50"}, nil
		case "empty":
			return &user.Group{Name: name, Gid: "70"}, nil
		}
		return nil, user.UnknownGroupError(name)
	}
	noGetent := func(db, key string) (string, bool, error) { return "", false, errors.New("not here") }
	src := memberSource{group: lookupGroup, user: lookup, enum: enum, getent: noGetent}
	uids, err := groupMembers("staff", src)
	if err != nil {
		t.Fatal(err)
	}
	if want := []uint32{1001, 1002, 1003, 1005}; !slices.Equal(uids, want) {
		t.Errorf("members of staff = %v, want %v", uids, want)
	}
	if _, err := groupMembers("empty", src); err == nil {
		t.Error("a group without members was accepted")
	}
}

package userdb

import (
	"strings"
	"testing"
)

func TestParsePasswd(t *testing.T) {
	u, err := parsePasswd("alice:x:40001:40002:Alice Liddell,Room 1,,:/home/alice:/bin/bash\n")
	if err != nil {
		t.Fatal(err)
	}
	if u.Username != "alice" || u.Uid != "40001" || u.Gid != "40002" || u.Name != "Alice Liddell" || u.HomeDir != "/home/alice" {
		t.Errorf("parsed %+v", *u)
	}
	for _, bad := range []string{
		"",
		"\n",
		"alice:x:1:2:g:/h",                       // six fields
		"alice:x:1:2:g:/h:/s:extra",              // eight
		":x:1:2:g:/h:/s",                         // no name
		"alice:x:-1:2:g:/h:/s",                   // signed uid
		"alice:x:+1:2:g:/h:/s",                   // signed uid
		"alice:x: 1:2:g:/h:/s",                   // blank in uid
		"alice:x:01:2:g:/h:/s",                   // not canonical: could not be the uid asked for
		"alice:x:4294967296:2:g:/h:/s",           // over 32 bits
		"alice:x:1:abc:g:/h:/s",                  // bad gid
		"alice:x:1:2:g:/h:/s\nbob:x:3:4:g:/h:/s", // two entries
		"alice:x:1:2:g:/h:/s\x00",
	} {
		if u, err := parsePasswd(bad); err == nil {
			t.Errorf("parsePasswd(%q) = %+v, want an error", bad, *u)
		}
	}
}

func TestParseGroup(t *testing.T) {
	g, members, err := parseGroup("physics:*:40002:alice,bob\n")
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "physics" || g.Gid != "40002" || strings.Join(members, ",") != "alice,bob" {
		t.Errorf("parsed %+v %q", *g, members)
	}
	if _, members, err := parseGroup("empty:x:7:"); err != nil || len(members) != 0 {
		t.Errorf("a group without members: %q, %v", members, err)
	}
	for _, bad := range []string{"", "physics:x:40002", "physics:x:40002:a:b", ":x:1:", "g:x:x:", "g:x:1:\ng:x:2:"} {
		if g, _, err := parseGroup(bad); err == nil {
			t.Errorf("parseGroup(%q) = %+v, want an error", bad, *g)
		}
	}
}

func TestParseInitgroups(t *testing.T) {
	// glibc pads the name to 21 columns and writes " %ld" per group.
	gids, err := parseInitgroups("alice                 40002 40003\n", "alice")
	if err != nil || strings.Join(gids, ",") != "40002,40003" {
		t.Errorf("got %q, %v", gids, err)
	}
	if gids, err := parseInitgroups("root                 \n", "root"); err != nil || len(gids) != 0 {
		t.Errorf("no groups: got %q, %v", gids, err)
	}
	for _, bad := range []string{"", "bob 1 2", "alice 1 x", "alice -1", "alice 1\nalice 2"} {
		if gids, err := parseInitgroups(bad, "alice"); err == nil {
			t.Errorf("parseInitgroups(%q) = %q, want an error", bad, gids)
		}
	}
}

func TestGetentKeys(t *testing.T) {
	for key, want := range map[string]bool{"alice": true, "a1": true, "1a": true, "+": true,
		"": false, "-alice": false, "1000": false, " +7": false, "a:b": false, "a\nb": false} {
		if got := getentName(key); got != want {
			t.Errorf("getentName(%q) = %v, want %v", key, got, want)
		}
	}
	for key, want := range map[string]bool{"0": true, "40001": true, "4294967295": true,
		"": false, "01": false, "+1": false, "-1": false, " 1": false, "4294967296": false, "x": false} {
		if got := getentID(key); got != want {
			t.Errorf("getentID(%q) = %v, want %v", key, got, want)
		}
	}
}

// FuzzParsePasswd: any answer getent could print is either refused or read into an entry
// whose fields are exactly the line's.
func FuzzParsePasswd(f *testing.F) {
	for _, s := range []string{"alice:x:40001:40002:Alice,,,:/home/alice:/bin/bash\n", "root:x:0:0:root:/root:/bin/bash",
		"a:x:1:2::/:", ":::::::", "a:x:99999999999:1:g:/h:/s", "a:x:1:2:g:/h:/s\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parsePasswd(s)
		if err != nil {
			return
		}
		line := strings.TrimSuffix(s, "\n")
		fields := strings.Split(line, ":")
		if u.Username == "" || fields[0] != u.Username || fields[2] != u.Uid || fields[3] != u.Gid || fields[5] != u.HomeDir {
			t.Fatalf("parsePasswd(%q) = %+v", s, *u)
		}
		if !getentID(u.Uid) || !getentID(u.Gid) || strings.ContainsAny(line, "\n\x00") {
			t.Fatalf("parsePasswd(%q) accepted %+v", s, *u)
		}
	})
}

func FuzzParseGroup(f *testing.F) {
	for _, s := range []string{"physics:*:40002:alice,bob\n", "g:x:0:", "g:x:1:,,", "::::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, members, err := parseGroup(s)
		if err != nil {
			return
		}
		fields := strings.Split(strings.TrimSuffix(s, "\n"), ":")
		if g.Name == "" || fields[0] != g.Name || fields[2] != g.Gid || !getentID(g.Gid) || strings.Join(members, ",") != fields[3] {
			t.Fatalf("parseGroup(%q) = %+v %q", s, *g, members)
		}
	})
}

func FuzzParseInitgroups(f *testing.F) {
	for _, s := range []string{"alice                 40002 40003\n", "root                 ", "alice", "alice 1  2"} {
		f.Add(s, "alice")
	}
	f.Fuzz(func(t *testing.T, s, name string) {
		gids, err := parseInitgroups(s, name)
		if err != nil {
			return
		}
		if !strings.HasPrefix(s, name) {
			t.Fatalf("parseInitgroups(%q, %q) accepted another user's answer", s, name)
		}
		for _, g := range gids {
			if !getentID(g) {
				t.Fatalf("parseInitgroups(%q) gave gid %q", s, g)
			}
		}
	})
}

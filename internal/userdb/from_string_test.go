package userdb

import "testing"

// TestStrtolID pins uid_from_string's reading of a number (C's strtol, then 0..INT_MAX and
// nothing left over).
func TestStrtolID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint32
		ok   bool
	}{
		{"0", 0, true}, {"1000", 1000, true}, {" 1000", 1000, true}, {"\t+7", 7, true},
		{"-0", 0, true}, {"2147483647", 2147483647, true},
		{"", 0, false}, {" ", 0, false}, {"-1", 0, false}, {"2147483648", 0, false},
		{"12x", 0, false}, {"1000 ", 0, false}, {"++1", 0, false}, {"+-1", 0, false}, {"x", 0, false},
	} {
		if got, ok := strtolID(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("strtolID(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestIDFromString resolves root (in every passwd and group file) by name and by number,
// and refuses a number no entry has.
func TestIDFromString(t *testing.T) {
	if id, ok := UIDFromString("root"); !ok || id != 0 {
		t.Errorf("UIDFromString(root) = %d, %v", id, ok)
	}
	if id, ok := UIDFromString(" +0"); !ok || id != 0 {
		t.Errorf("UIDFromString(' +0') = %d, %v", id, ok)
	}
	if _, ok := UIDFromString("2147483000"); ok {
		t.Error("UIDFromString accepted a uid no user has")
	}
	if id, ok := GIDFromString("root"); !ok || id != 0 {
		t.Errorf("GIDFromString(root) = %d, %v", id, ok)
	}
	if _, ok := GIDFromString("no-such-group-orbit"); ok {
		t.Error("GIDFromString accepted an unknown group name")
	}
}

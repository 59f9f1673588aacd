package selection

import "testing"

func TestParseConstraint(t *testing.T) {
	for _, c := range []struct {
		s         string
		feats     []string
		alt       string
		ok, match bool
	}{
		{"a&b", []string{"a", "b"}, "", true, true},
		{"a&b", []string{"a"}, "", true, false},
		{"a|b", []string{"b"}, "", true, true},
		{"a&b|c", []string{"c"}, "", true, true},
		{"[a|b]", []string{"b"}, "b", true, true},
		{"[a|b]&c", []string{"b"}, "b", true, false},
		{"a&(b|c)", nil, "", false, false},
		{"a*2", nil, "", false, false},
		{"a||b", nil, "", false, false},
		{"[a|b", nil, "", false, false},
	} {
		k, err := ParseConstraint(c.s)
		if (err == nil) != c.ok {
			t.Errorf("%q: err %v", c.s, err)
			continue
		}
		if err == nil && k.matches(c.feats, c.alt) != c.match {
			t.Errorf("%q on %v (alt %q): match %v", c.s, c.feats, c.alt, !c.match)
		}
	}
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"a&b", "a|b", "[a|b]&c", "", "[[", "a&&", "|"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraint(s)
		if err != nil {
			return
		}
		c.matches([]string{"a"}, "")
	})
}

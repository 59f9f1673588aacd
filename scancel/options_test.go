package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseIDs(t *testing.T) {
	cases := []struct {
		in   string
		want string // targets, space-separated; "" = invalid
	}{
		{"12", "12"}, {"12_3", "12_3"}, {"12.4", "12.4"}, {"12_3.1", "12_3.1"}, {"12_*", "12_*"},
		{"12_[1-3,7]", "12_1 12_2 12_3 12_7"}, {"1,2_5,3.0", "1 2_5 3.0"}, {"7+1", "7"},
		{"abc", ""}, {"1.2.3", ""}, {"1_a", ""}, {"0", ""}, {"12_[1-3", ""}, {"12_[1]x", ""},
		{"4.x", ""}, {"-3", ""},
	}
	for _, c := range cases {
		got, _, err := parseIDs([]string{c.in})
		var parts []string
		for _, g := range got {
			parts = append(parts, g.String())
		}
		if (c.want == "") != (err != nil) || strings.Join(parts, " ") != c.want {
			t.Errorf("parseIDs(%q) = %q, %v; want %q", c.in, parts, err, c.want)
		}
	}
}

func TestParseSignal(t *testing.T) {
	for in, want := range map[string]uint16{"9": 9, "KILL": 9, "sigusr1": 10, "TERM": 15, "99": 99, " 10 ": 10} {
		if got, ok := parseSignal(in); !ok || got != want {
			t.Errorf("parseSignal(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"FOO", "0", "", "9x"} {
		if _, ok := parseSignal(in); ok {
			t.Errorf("parseSignal(%q) accepted", in)
		}
	}
}

func TestParseArgs_Errors(t *testing.T) {
	env := func(string) (string, bool) { return "", false }
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"scancel"}, "scancel: error: No job identification provided\n"},
		{[]string{"scancel", "4.x"}, "scancel: error: Invalid job id 4.x\n"},
		{[]string{"scancel", "-s", "0", "4"}, "Unknown job signal: 0\n"},
		{[]string{"scancel", "-t", "bogus", "4"}, "Invalid job state specified: bogus\nValid job states are PENDING, RUNNING, and SUSPENDED\n"},
		{[]string{"scancel", "--bogus"}, "scancel: unrecognized option '--bogus'\nTry \"scancel --help\" for more information\n"},
		{[]string{"scancel", "--n=x"}, "scancel: option '--n=x' is ambiguous; possibilities: '--name' '--nodelist'\nTry \"scancel --help\" for more information\n"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		p, code := parseArgs(c.args, env, &stderr)
		if p != nil || code != 1 || stderr.String() != c.err {
			t.Errorf("%q: code %d, stderr %q; want 1, %q", c.args, code, stderr.String(), c.err)
		}
	}
}

func FuzzParseIDs(f *testing.F) {
	for _, s := range []string{"12", "12_3", "abc", "1.2.3", "_", "4294967294", "1_4294967295", "3_[1-5]", "1,2,,3", "5_*.2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tgs, _, err := parseIDs([]string{s})
		if err != nil {
			return
		}
		for _, tg := range tgs {
			// What parses prints back as an id scancel accepts again, naming the same thing.
			back, _, err := parseIDs([]string{tg.String()})
			if err != nil || len(back) != 1 || back[0] != tg || tg.id == 0 {
				t.Fatalf("parseIDs(%q) gave %v; round trip %v %v", s, tg, back, err)
			}
		}
	})
}

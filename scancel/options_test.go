package main

import (
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

func TestParseTarget(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" = invalid
	}{
		{"12", "12"}, {"12_3", "12_3"}, {"abc", ""}, {"1.2.3", ""}, {"1_a", ""}, {"0", ""}, {"12_", ""},
	}
	for _, c := range cases {
		got, ok := parseTarget(c.in)
		if (c.want == "") == ok || (ok && got.String() != c.want) {
			t.Errorf("parseTarget(%q) = %v, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestParseSignal(t *testing.T) {
	for in, want := range map[string]int32{"9": 9, "KILL": 9, "sigusr1": 10, "TERM": 15} {
		if got, ok := parseSignal(in); !ok || got != want {
			t.Errorf("parseSignal(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"FOO", "0", "-1", ""} {
		if _, ok := parseSignal(in); ok {
			t.Errorf("parseSignal(%q) accepted", in)
		}
	}
}

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"12", "12_3", "abc", "1.2.3", "_", "4294967294", "1_4294967295"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, ok := parseTarget(s)
		if !ok {
			return
		}
		// What parses prints back as a job id scancel accepts again, naming the same job.
		back, ok2 := parseTarget(tg.String())
		if !ok2 || back != tg || tg.id == 0 || tg.id >= wire.NoVal {
			t.Fatalf("parseTarget(%q) = %v; round trip %v %v", s, tg, back, ok2)
		}
	})
}

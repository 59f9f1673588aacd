package conf

import (
	"slices"
	"testing"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// TestExpandRange_MatchesHostlist checks the fast path against hostlist.Expand on the shapes
// it takes, and that it declines the shapes it leaves to hostlist.
func TestExpandRange_MatchesHostlist(t *testing.T) {
	for _, expr := range []string{
		"cn[00000-19999]", "n[1-10]", "gpu[1-4,7,9-10]", "a[9-11]", "a[009-11]", "x[0]",
		"rack1[1-3]", "cn-r1[001-100]", "a.b_c[1-2]", "n[1,1,2]", "n[5-5]", "n[0-65535]",
	} {
		got, ok := expandRange([]string{"stale"}, expr)
		if !ok {
			t.Errorf("expandRange(%q) declined", expr)
			continue
		}
		want, err := hostlist.Expand(expr)
		if err != nil {
			t.Fatalf("hostlist.Expand(%q): %v", expr, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("expandRange(%q) = %d names %.5q..., hostlist gives %d names %.5q...", expr, len(got), got, len(want), want)
		}
	}
	for _, expr := range []string{
		"[1-3]", "n[1-3]x", "n[1-3],m", "a b[1-2]", "\x00[0]", "r[1-2]n[1-2]", "n[3-1]", "n[ 1-3]", "n[+1-3]", "n[1-3", "n[]",
		"n[0-65536]", "n[1-2-3]", "n[,1]", "n[1,]", "n", "n[1-]", "n[-1]",
	} {
		if got, ok := expandRange(nil, expr); ok {
			t.Errorf("expandRange(%q) = %q, want it left to hostlist", expr, got)
		}
	}
}

// FuzzExpandRange: whatever the fast path accepts, hostlist.Expand accepts too and expands to
// the same names in the same order; it never panics.
func FuzzExpandRange(f *testing.F) {
	for _, s := range []string{"cn[00000-19999]", "n[1-10]", "g[1-4,7]", "a[009-11]", "[1-3]", "n[3-1]",
		"n[1-3]x", "r[1-2]n[1-2]", "n[ 1]", "n[0-65536]", "n[18446744073709551615]", "n[999999999999999999]", "\x00[0]", "cn-r1[001-100]", "-[1-2]", "a-[1-2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		got, ok := expandRange(nil, expr)
		if !ok {
			return
		}
		want, err := hostlist.Expand(expr)
		if err != nil {
			t.Fatalf("expandRange(%q) accepted what hostlist refuses: %v", expr, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("expandRange(%q) = %q, hostlist gives %q", expr, got, want)
		}
	})
}

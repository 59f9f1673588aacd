package hostlist

import (
	"slices"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"n[8-10]", "n[01-10],m5", "rack[0-1]_blade[2,3]", "a[1-2][3-4]", "gpu[1-2]-ib", "a[1-",
	"[1-3]", "a[3-1]", "a[1,,2]", "a,,b c\td", "n9,n10,n010", "n1,n1,n01", "x[ 1]",
	"n99999999999999999999999", "a[0-18446744073709551615]", "a[1],]", "a[1[2]", "[", "",
	"a[x]b[1-2]c[3]", "a[1-5],a[3-8]", "b2,a1,b1,a2", "\xe9a1,ea1", "a[0-65535]b[1]",
}

// plain reports whether every name would read back as itself when written in a hostlist:
// no brackets, separators or other white space (Slurm's prefix comparison skips white space,
// so "n\r0,n0" prints as "n\r[0,0]"), and a numeric suffix that fits in 64 bits.
func plain(names []string) bool {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "[], \t\n\v\f\r\x00") {
			return false
		}
		if hr := newHostname(n); hr.host(hr.lo) != n {
			return false
		}
	}
	return true
}

// smallNumbers reports whether every numeric suffix is below 2^31.
func smallNumbers(names []string) bool {
	for _, n := range names {
		if hr := newHostname(n); !hr.single && hr.lo >= 1<<31 {
			return false
		}
	}
	return true
}

// FuzzExpand checks that no input panics or hangs, and that compressing the names of a valid
// list gives a list that expands back to the same names.
func FuzzExpand(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		hl, err := Parse(expr)
		if err != nil {
			return
		}
		_ = hl.Ranged()
		if hl.Count() > 5000 || hl.Count() < 0 {
			return
		}
		names := hl.Hosts()
		if !plain(names) || !smallNumbers(names) {
			// Slurm's arithmetic wraps for huge numbers: "18446744073709551615,0" compresses
			// to "[18446744073709551615]", and since it compares numbers through a C int,
			// "20000000000,0" sorts to "[20000000000]". Orbit does the same.
			return
		}
		back, err := Expand(Compress(names))
		if err != nil || !slices.Equal(back, names) {
			t.Fatalf("Expand(Compress(%q)) = %q, %v", names, back, err)
		}
		// Sorting has no such round trip: Slurm's merge of overlapping ranges can drop a
		// host ("00,0-10,0-10" sorts to "[0,0-1,…,10]"), and Orbit does as Slurm does.
		// FuzzSort and testsuite/hostlist check the sort itself.
		if _, err := Expand(CompressSorted(names)); err != nil {
			t.Fatalf("Expand(CompressSorted(%q)): %v", names, err)
		}
	})
}

// FuzzCompress checks that any list of names compresses without panicking and, for names a
// hostlist can hold, reads back unchanged.
func FuzzCompress(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(strings.ReplaceAll(s, ",", "\n"))
	}
	f.Add("n10\nn9\nn09\nn010\nn8")
	f.Fuzz(func(t *testing.T, list string) {
		names := strings.Split(list, "\n")
		if len(names) > 2000 {
			return
		}
		c := Compress(names)
		_ = CompressSorted(names)
		_ = Uniq(names)
		if !plain(names) || !smallNumbers(names) {
			return
		}
		back, err := Expand(c)
		if err != nil || !slices.Equal(back, names) {
			t.Fatalf("Expand(Compress(%q)) = %q, %v", names, back, err)
		}
	})
}

// slowCoalesce is a deliberately naive model of how Slurm coalesces overlapping ranges after a
// sort (rescan from the end after every split, delete one slot at a time), kept to check that
// the faster Sort makes the same list.
func (hl *Hostlist) slowCoalesce() {
	for i := len(hl.hr) - 1; i > 0; i-- {
		n := intersect(hl.hr[i-1], hl.hr[i])
		if n == nil {
			continue
		}
		hprev, hnext := hl.hr[i-1], hl.hr[i]
		j := i
		if n.hi < hprev.hi {
			hnext.hi = hprev.hi
		}
		hprev.hi = n.lo
		hnext.lo = n.hi
		freed := false
		if hprev.empty() {
			hl.deleteRange(i)
			freed = true
		}
		for n.lo <= n.hi {
			one := &hostrange{prefix: n.prefix, lo: n.lo, hi: n.lo, width: n.width}
			if n.lo > hprev.hi {
				hl.insertRange(one, j)
				j++
			}
			if !freed && n.lo < hnext.lo {
				hl.insertRange(one, j)
				j++
			}
			if n.lo == ^uint64(0) {
				break
			}
			n.lo++
		}
		i = len(hl.hr)
	}
	for i := len(hl.hr) - 1; i > 0; i-- {
		prev, next := hl.hr[i-1], hl.hr[i]
		if prev.hi == next.lo-1 && prefixCmp(prev, next) == 0 && widthCombine(prev, next) {
			prev.hi = next.hi
			hl.deleteRange(i)
		}
	}
}

// FuzzSort checks that Sort gives the same list as the literal port of Slurm's algorithm.
func FuzzSort(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("a[1-5],a[3-8],a[2-9],a4,a[01-05],b1,a[1-5]")
	f.Add("n[1-10],n[5-15],n[3-12],n[7-20],n[1-3]")
	f.Fuzz(func(t *testing.T, expr string) {
		fast, err := Parse(expr)
		if err != nil || len(fast.hr) > 2000 {
			return
		}
		slow, _ := Parse(expr)
		fast.Sort()
		if len(slow.hr) > 1 {
			msort(slow.hr, rangeCmp)
			slow.slowCoalesce()
		}
		if a, b := fast.Ranged(), slow.Ranged(); a != b {
			t.Fatalf("Sort(%q) = %q, literal port gives %q", expr, a, b)
		}
	})
}

package hostlist

import (
	"math"
	"strings"
)

// Hostlist is an ordered list of host names kept as ranges, Slurm's hostlist_t. The zero value
// is an empty list ready to use. It is not safe for concurrent use.
type Hostlist struct {
	hr []*hostrange
	// nhosts is Slurm's host count, a C int: it wraps past 2^31 and counts a full 2^64
	// range as 0, and `scontrol show hostnames` prints exactly this many names.
	nhosts int32
	// Diagnostics holds the error lines Slurm logs while parsing (without the "scontrol:
	// error: " prefix). Slurm may log them even for an expression it finally accepts.
	Diagnostics []string
}

// Count returns the number of hosts, as hostlist_count does.
func (hl *Hostlist) Count() int { return int(hl.nhosts) }

// pushRange appends hr, merging it into the last range when it continues it.
func (hl *Hostlist) pushRange(hr hostrange) {
	hl.nhosts = int32(uint64(int64(hl.nhosts)) + hr.count())
	if n := len(hl.hr); n > 0 {
		tail := hl.hr[n-1]
		if tail.hi == hr.lo-1 && prefixCmp(tail, &hr) == 0 && widthCombine(tail, &hr) {
			tail.hi = hr.hi
			return
		}
	}
	c := hr // copied so that hr itself stays on the stack when it is merged
	hl.hr = append(hl.hr, &c)
}

// PushHost appends one host name without interpreting brackets or separators: a numeric
// suffix is split off so that neighbouring names compress (hostlist_push_host).
func (hl *Hostlist) PushHost(name string) {
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i] // C strings end at NUL
	}
	hl.pushRange(newHostname(name))
}

// newHostname splits a host name into prefix and numeric suffix (hostname_create). A suffix
// too large for 64 bits saturates to 18446744073709551615, as strtoul does.
func newHostname(name string) hostrange {
	idx := len(name) - 1
	for idx >= 0 && isDigit(name[idx]) {
		idx--
	}
	if idx == len(name)-1 {
		return hostrange{prefix: name, single: true}
	}
	suffix := name[idx+1:]
	num, _, _ := strtoul(suffix)
	return hostrange{prefix: name[:idx+1], lo: num, hi: num, width: len(suffix)}
}

// Push appends every host of expr, as hostlist_push does.
func (hl *Hostlist) Push(expr string) error {
	n, err := Parse(expr)
	if n != nil {
		hl.Diagnostics = append(hl.Diagnostics, n.Diagnostics...)
	}
	if err != nil {
		return err
	}
	for _, hr := range n.hr {
		hl.pushRange(*hr)
	}
	return nil
}

// Each calls f with every host name in order, the way `scontrol show hostnames` shifts them off
// the list, until f returns false. It does not change hl.
func (hl *Hostlist) Each(f func(name string) bool) {
	left := hl.nhosts
	for _, r := range hl.hr {
		if left <= 0 {
			return
		}
		hr := *r
		for left > 0 {
			name := hr.host(hr.lo)
			if limit := len(hr.prefix) + hr.width + 15; !hr.single && len(name) > limit {
				// Slurm prints into a buffer sized for the range's width; a width narrowed
				// by a wrapped merge ("18446744073709551615,0") cuts the name short.
				name = name[:limit]
			}
			left--
			if hr.single {
				hr.lo = 1
			} else {
				hr.lo++
			}
			if !f(name) {
				return
			}
			if hr.empty() {
				break
			}
		}
	}
	// Slurm dereferences a missing range here (and crashes) when its count wrapped; Orbit
	// just stops.
}

// Hosts returns every host name in order.
func (hl *Hostlist) Hosts() []string {
	out := make([]string, 0, min(max(hl.nhosts, 0), MaxExpand))
	hl.Each(func(name string) bool {
		out = append(out, name)
		return true
	})
	return out
}

// Nth returns the host at index n (from 0), as hostlist_nth does.
func (hl *Hostlist) Nth(n int) (string, bool) {
	if n < 0 || n >= hl.Count() {
		return "", false
	}
	var count uint64
	for _, hr := range hl.hr {
		c := hr.count()
		if uint64(n) < count+c {
			return hr.host(hr.lo + uint64(n) - count), true
		}
		count += c
	}
	return "", false
}

// Ranged returns the compressed form, as hostlist_ranged_string prints it: runs of ranges
// with one prefix share a bracket, `n[1-3,7],m5`.
func (hl *Hostlist) Ranged() string {
	var b []byte
	for i := 0; i < len(hl.hr); {
		if i > 0 {
			b = append(b, ',')
		}
		b, i = hl.appendBracketed(b, i)
	}
	return string(b)
}

func (hl *Hostlist) next(i int) *hostrange {
	if i+1 < len(hl.hr) {
		return hl.hr[i+1]
	}
	return nil
}

func (hl *Hostlist) appendBracketed(b []byte, i int) ([]byte, int) {
	start := i
	h := hl.hr[i]
	bracket := h.count() > 1 || withinRange(h, hl.next(i))
	b = append(b, h.prefix...)
	if bracket {
		b = append(b, '[')
	}
	for {
		if i > start {
			b = append(b, ',')
		}
		if r := hl.hr[i]; !r.single {
			b = appendPadded(b, r.lo, r.width)
			if r.lo < r.hi {
				b = append(b, '-')
				b = appendPadded(b, r.hi, r.width)
			}
		}
		i++
		if i >= len(hl.hr) || !withinRange(hl.hr[i], hl.hr[i-1]) {
			break
		}
	}
	if bracket {
		b = append(b, ']')
	}
	return b, i
}

func (hl *Hostlist) insertRange(hr *hostrange, n int) {
	if n > len(hl.hr) {
		return
	}
	hl.hr = append(hl.hr, nil)
	copy(hl.hr[n+1:], hl.hr[n:])
	hl.hr[n] = hr.copy()
}

func (hl *Hostlist) deleteRange(n int) {
	hl.hr = append(hl.hr[:n], hl.hr[n+1:]...)
}

// Sort orders the ranges as hostlist_sort does (prefix in natural order, then number) and
// merges overlapping and adjacent ranges. It keeps duplicates, and its merging reproduces
// Slurm's quirks: `a[1-5],a3` sorts to `a[1-3,3-5]`.
func (hl *Hostlist) Sort() {
	if len(hl.hr) <= 1 {
		return
	}
	msort(hl.hr, rangeCmp)
	hl.coalesce()
}

// coalesce splits intersecting neighbours so duplicates stand alone (hostlist_coalesce),
// then collapses adjacent ranges.
//
// Slurm rescans from the end of the list after each intersection it splits. Testing a pair
// that does not intersect changes nothing, so resuming just past the ranges that changed
// finds the same pairs in the same order without the quadratic rescan.
func (hl *Hostlist) coalesce() {
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
		// When hprev is left empty Slurm deletes slot i, which is hnext, and then keeps
		// reading hnext. glibc hands the freed memory straight back for the host range
		// each step below creates, so hnext.lo reads as that range's own number and the
		// second insert never happens. Orbit reproduces the outcome.
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
			if n.lo == math.MaxUint64 {
				break // Slurm would wrap and loop forever
			}
			n.lo++
		}
		// Every range past index j is as it was when its pairs were found disjoint.
		i = min(j+2, len(hl.hr))
	}
	hl.collapse()
}

// collapse joins adjacent ranges that continue each other (hostlist_collapse). Slurm walks
// from the end, merging each range into the one before it; this does the same walk but
// compacts the slice once instead of deleting one slot at a time.
func (hl *Hostlist) collapse() {
	n := len(hl.hr)
	if n < 2 {
		return
	}
	w := n - 1 // hl.hr[w:] is the collapsed tail; hl.hr[w] is the range being extended
	for i := n - 2; i >= 0; i-- {
		prev, next := hl.hr[i], hl.hr[w]
		if prev.hi == next.lo-1 && prefixCmp(prev, next) == 0 && widthCombine(prev, next) {
			prev.hi = next.hi
			hl.hr[w] = prev
		} else {
			w--
			hl.hr[w] = prev
		}
	}
	hl.hr = append(hl.hr[:0], hl.hr[w:]...)
}

// Uniq sorts the list and drops duplicate hosts, as hostlist_uniq does.
func (hl *Hostlist) Uniq() {
	if len(hl.hr) <= 1 {
		return
	}
	msort(hl.hr, rangeCmp)
	for i := 1; i < len(hl.hr); {
		if ndup := join(hl.hr[i-1], hl.hr[i]); ndup >= 0 {
			hl.deleteRange(i)
			hl.nhosts -= int32(ndup)
		} else {
			i++
		}
	}
}

// msort is glibc's qsort for arrays of pointers (a top-down merge sort). Slurm's comparison
// changes widths as it goes, so only the same sequence of comparisons gives Slurm's order.
func msort(a []*hostrange, cmp func(a, b *hostrange) int) {
	tmp := make([]*hostrange, len(a))
	msortRec(a, tmp, cmp)
}

func msortRec(a, tmp []*hostrange, cmp func(a, b *hostrange) int) {
	n := len(a)
	if n <= 1 {
		return
	}
	n1 := n / 2
	msortRec(a[:n1], tmp, cmp)
	msortRec(a[n1:], tmp, cmp)
	i, j, k := 0, n1, 0
	for i < n1 && j < n {
		if cmp(a[i], a[j]) <= 0 {
			tmp[k] = a[i]
			i++
		} else {
			tmp[k] = a[j]
			j++
		}
		k++
	}
	k += copy(tmp[k:], a[i:n1])
	copy(a, tmp[:k])
}

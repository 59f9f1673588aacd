package hostlist

import (
	"math"
	"strconv"
	"strings"
)

// hostrange is one run of hosts sharing a prefix: prefix+lo … prefix+hi, each number printed
// zero-padded to width digits. A single host whose name has no numeric suffix is kept whole in
// prefix with single set (lo and hi are then meaningless), as Slurm's hostrange_t does.
//
// Slurm's comparison helpers change widths as a side effect (two widths that print the same
// numbers identically are made equal), and its sort and merge results depend on that, so ranges
// are shared by pointer and the helpers below mutate them exactly where Slurm does.
type hostrange struct {
	prefix string
	lo, hi uint64
	width  int
	single bool
}

func (hr *hostrange) copy() *hostrange {
	c := *hr
	return &c
}

// count is the number of hosts in hr. Like Slurm's it is computed modulo 2^64, so the full
// range 0-18446744073709551615 counts as 0.
func (hr *hostrange) count() uint64 {
	if hr.single {
		return 1
	}
	return hr.hi - hr.lo + 1
}

// empty reports a range with no hosts left; Slurm also treats hi == ULONG_MAX as empty, which
// matters after a shift past the largest number.
func (hr *hostrange) empty() bool {
	return hr.hi < hr.lo || hr.hi == math.MaxUint64
}

// host returns the name of the host numbered n in hr (the prefix alone for a single host).
func (hr *hostrange) host(n uint64) string {
	if hr.single {
		return hr.prefix
	}
	var tmp [20]byte
	digits := strconv.AppendUint(tmp[:0], n, 10)
	var b strings.Builder
	b.Grow(len(hr.prefix) + max(hr.width, len(digits)))
	b.WriteString(hr.prefix)
	for i := len(digits); i < hr.width; i++ {
		b.WriteByte('0')
	}
	b.Write(digits)
	return b.String()
}

// appendPadded appends n in decimal, zero-padded to width digits (printf's "%0*lu").
func appendPadded(b []byte, n uint64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendUint(tmp[:0], n, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// zeroPadded returns how many zeros printing num with width adds.
func zeroPadded(num uint64, width int) int {
	n := 1
	for num /= 10; num != 0; num /= 10 {
		n++
	}
	if width > n {
		return width - n
	}
	return 0
}

// widthEquiv reports whether widths wn (for n) and wm (for m) can be used interchangeably:
// equal, or one of them changes neither number's padding. When they can, the one that would
// change padding is overwritten with the other, as Slurm's _width_equiv does.
func widthEquiv(n uint64, wn *int, m uint64, wm *int) bool {
	if *wn == *wm {
		return true
	}
	npad := zeroPadded(n, *wn)
	nmpad := zeroPadded(n, *wm)
	mpad := zeroPadded(m, *wm)
	mnpad := zeroPadded(m, *wn)
	switch {
	case npad != nmpad && mpad != mnpad:
		return false
	case npad != nmpad:
		*wm = *wn
	default:
		*wn = *wm
	}
	return true
}

func widthCombine(h0, h1 *hostrange) bool {
	return widthEquiv(h0.lo, &h0.width, h1.lo, &h1.width)
}

// prefixCmp orders prefixes naturally; equal prefixes still differ when exactly one of the two
// is a single host (the single host sorts first).
func prefixCmp(h1, h2 *hostrange) int {
	if h1 == nil {
		return 1
	}
	if h2 == nil {
		return -1
	}
	if r := strnatcmp(h1.prefix, h2.prefix); r != 0 {
		return r
	}
	return b2i(h2.single) - b2i(h1.single)
}

// rangeCmp is Slurm's hostrange_cmp: prefix, then the low number when the widths are
// compatible, else the width. The number difference is truncated to a C int as Slurm's is.
func rangeCmp(h1, h2 *hostrange) int {
	if r := prefixCmp(h1, h2); r != 0 {
		return r
	}
	if widthCombine(h1, h2) {
		return int(int32(uint32(h1.lo - h2.lo)))
	}
	return h1.width - h2.width
}

// withinRange reports whether h1 and h2 share one bracket in ranged output.
func withinRange(h1, h2 *hostrange) bool {
	if prefixCmp(h1, h2) == 0 {
		return !(h1.single || h2.single)
	}
	return false
}

// intersect returns the hosts common to h1 and h2 (h1 sorting first), or nil.
func intersect(h1, h2 *hostrange) *hostrange {
	if h1.single || h2.single {
		return nil
	}
	if h1.hi > h2.lo && prefixCmp(h1, h2) == 0 && widthCombine(h1, h2) {
		n := h1.copy()
		n.lo = h2.lo
		n.hi = min(h2.hi, h1.hi)
		return n
	}
	return nil
}

// join merges h2 into h1 when they overlap or touch; it returns the number of duplicate hosts
// dropped, or -1 when they cannot be merged.
func join(h1, h2 *hostrange) int64 {
	if prefixCmp(h1, h2) != 0 || !widthCombine(h1, h2) {
		return -1
	}
	switch {
	case h1.single && h2.single:
		return 1
	case h1.hi == h2.lo-1:
		h1.hi = h2.hi
		return 0
	case h1.hi >= h2.lo:
		if h1.hi < h2.hi {
			d := h1.hi - h2.lo + 1
			h1.hi = h2.hi
			return int64(d)
		}
		return int64(h2.count())
	}
	return -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

package conf

import (
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/hostlist"
)

// expandRange expands the shape that dominates a large cluster's NodeName and Nodes= values,
// one bracket group of decimal ranges closing the expression ("cn[00001-20000]",
// "gpu[1-4,7]"), into names that share one backing string: two allocations for 20,000 names
// instead of one per name, which every command pays on each start (it loads slurm.conf).
// Any other shape, and anything hostlist would refuse, reports false and is left to
// hostlist.Expand, which keeps deciding every error text. For what it accepts the result is
// hostlist.Expand's, names and order (FuzzExpandRange checks that).
func expandRange(dst []string, expr string) ([]string, bool) {
	open := strings.IndexByte(expr, '[')
	if open <= 0 || expr[len(expr)-1] != ']' {
		return nil, false
	}
	prefix, inner := expr[:open], expr[open+1:len(expr)-1]
	if !plainPrefix(prefix) || inner == "" {
		return nil, false
	}
	// First pass: validate every range and count the names and bytes they need.
	type span struct {
		lo, hi uint64
		width  int
	}
	var spans [8]span
	list := spans[:0]
	total, size := 0, 0
	for piece := range strings.SplitSeq(inner, ",") {
		loStr, hiStr, dash := strings.Cut(piece, "-")
		if !dash {
			hiStr = loStr
		}
		lo, ok1 := plainUint(loStr)
		hi, ok2 := plainUint(hiStr)
		if !ok1 || !ok2 || lo > hi || hi-lo+1 > hostlist.MaxRange || len(list) == hostlist.MaxRanges {
			return nil, false
		}
		n := int(hi - lo + 1)
		total += n
		if total > hostlist.MaxExpand {
			return nil, false
		}
		// Every name is the prefix and at least width digits; the longest number sets an
		// upper bound that is exact when the range keeps one digit count.
		size += n * (len(prefix) + max(len(loStr), len(strconv.FormatUint(hi, 10))))
		list = append(list, span{lo, hi, len(loStr)})
	}
	buf := make([]byte, 0, size)
	ends := make([]int, 0, total)
	for _, s := range list {
		for v := s.lo; ; v++ {
			buf = append(buf, prefix...)
			var tmp [20]byte
			digits := strconv.AppendUint(tmp[:0], v, 10)
			for i := len(digits); i < s.width; i++ {
				buf = append(buf, '0')
			}
			buf = append(buf, digits...)
			ends = append(ends, len(buf))
			if v == s.hi {
				break
			}
		}
	}
	all := string(buf)
	out := dst[:0]
	if cap(out) < total {
		out = make([]string, 0, total)
	}
	start := 0
	for _, end := range ends {
		out = append(out, all[start:end])
		start = end
	}
	return out, true
}

// plainUint parses 1 to 18 decimal digits (no sign, blank or other strtoul leniency, which
// stay with hostlist's parser).
func plainUint(s string) (uint64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// plainPrefix reports whether a host name prefix holds only letters, digits, '.', '_' and
// '-' (what host names are made of), so nothing in it means anything to hostlist's parser.
func plainPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

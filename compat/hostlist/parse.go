package hostlist

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// Limits Slurm applies while parsing (src/common/hostlist.[ch]).
const (
	// MaxRange is the most hosts one numeric range may hold: `n[0-65535]` is accepted,
	// `n[0-65536]` is "Too many hosts in range".
	MaxRange = 64 * 1024
	// MaxRanges is the most comma-separated ranges one bracket may hold; Slurm stops with a
	// fatal error past it.
	MaxRanges = 256 * 1024
	// MaxPrefixCount is the most prefixes a bracket before the last one may expand to
	// (`a[0-65535]b[1]` is accepted, one more is an invalid hostlist).
	MaxPrefixCount = 64 * 1024
	// MaxWork bounds the ranges one expression may produce plus the bracket groups it
	// expands and the errors it logs. Slurm has no such bound and runs out of memory (or
	// loops for days) on `a[0-65535]b[0-65535]c[0-65535]d[1]`; Orbit refuses such a list.
	MaxWork = 1 << 20
)

// isSep reports the bytes that split a hostlist into items (hostlist_create's "\t, ").
// Newline is not one: scontrol turns newlines into commas only for lists read from a file.
func isSep(c byte) bool   { return c == '\t' || c == ',' || c == ' ' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// Error is a hostlist Slurm refuses. Diagnostics are the lines Slurm logs on the way
// ("_parse_single_range: Invalid range: `3-1'"); Fatal marks the errors on which Slurm's
// commands stop at once with "fatal:" instead of reporting "Invalid hostlist".
type Error struct {
	Expr        string
	Diagnostics []string
	Fatal       bool
}

// Error returns "Invalid hostlist: EXPR", with Slurm's last diagnostic when there is one.
func (e *Error) Error() string {
	if len(e.Diagnostics) > 0 {
		return "Invalid hostlist: " + e.Expr + ": " + e.Diagnostics[len(e.Diagnostics)-1]
	}
	return "Invalid hostlist: " + e.Expr
}

// rng is one parsed numeric range inside brackets.
type rng struct {
	lo, hi uint64
	width  int
}

type parser struct {
	hl *Hostlist
	// fatal is set, with Slurm's message, when Slurm would stop the program; Orbit also sets
	// it when the expression is too large to expand (see MaxWork).
	fatal string
	work  int
	// Cached strchr results: the first '[' (']') at or after openFrom (closeFrom), or -1.
	openFrom, openAt   int
	closeFrom, closeAt int
}

// Parse reads a hostlist expression as Slurm's hostlist_create does. On error the *Error
// carries Slurm's diagnostics; on success the Hostlist's Diagnostics may still hold lines
// Slurm logs (it ignores bad ranges in a leading bracket group once another group follows).
func Parse(expr string) (*Hostlist, error) {
	if i := strings.IndexByte(expr, 0); i >= 0 {
		expr = expr[:i]
	}
	p := &parser{hl: &Hostlist{}, openFrom: math.MaxInt, closeFrom: math.MaxInt}
	b := make([]byte, len(expr)+1)
	copy(b, expr)
	ok := true
	for pos := 0; ok; {
		tok, more := p.nextTok(b, &pos)
		if !more {
			break
		}
		ok = p.item(tok)
		if p.fatal != "" {
			return nil, &Error{Expr: expr, Diagnostics: append(p.hl.Diagnostics, p.fatal), Fatal: true}
		}
	}
	if !ok {
		return nil, &Error{Expr: expr, Diagnostics: p.hl.Diagnostics}
	}
	return p.hl, nil
}

// index returns the first c at or after from in b (which ends in NUL), or -1, reusing the
// previous answer: callers only ever search further right.
func index(b []byte, c byte, from int, cacheFrom, cacheAt *int) int {
	if *cacheFrom <= from && (*cacheAt == -1 || *cacheAt >= from) {
		return *cacheAt
	}
	*cacheFrom = from
	if i := bytes.IndexByte(b[from:len(b)-1], c); i >= 0 {
		*cacheAt = from + i
	} else {
		*cacheAt = -1
	}
	return *cacheAt
}

// nextTok returns the next item, treating `xxx[xx,xx]` as one item even though it holds
// separators (Slurm's _next_tok, including how it pairs brackets across the whole rest of the
// string).
func (p *parser) nextTok(b []byte, pos *int) (string, bool) {
	s := *pos
	for b[s] != 0 && isSep(b[s]) {
		s++
	}
	if b[s] == 0 {
		*pos = s
		return "", false
	}
	tok, parse := s, s
outer:
	for {
		for b[s] != 0 && !isSep(b[s]) {
			s++
		}
		for {
			ob := index(b, '[', parse, &p.openFrom, &p.openAt)
			if ob < 0 || ob > s {
				break outer
			}
			cb := index(b, ']', parse, &p.closeFrom, &p.closeAt)
			if cb < 0 || cb < ob {
				break outer
			}
			if cb < s {
				parse = cb + 1
				continue
			}
			s = cb
			break
		}
	}
	end := s
	for b[s] != 0 && isSep(b[s]) {
		s++
	}
	*pos = s
	return string(b[tok:end]), true
}

// item adds one item to the list; false means the whole hostlist is invalid.
func (p *parser) item(tok string) bool {
	open := strings.LastIndexByte(tok, '[')
	if open < 0 {
		p.hl.pushRange(newHostname(tok))
		return true
	}
	prefix, rest := tok[:open], tok[open+1:]
	q := strings.IndexByte(rest, ']')
	if q < 0 {
		// A '[' with no ']': Slurm keeps the text before it and adds the ']' itself.
		if prefix != "" {
			p.hl.pushRange(newHostname(prefix + "]"))
		} else {
			p.hl.pushRange(newHostname(rest))
		}
		return true
	}
	if q+1 < len(rest) && rest[q+1] != ',' {
		return false // text after ']' (a suffix) is not accepted by Slurm 22.05
	}
	ranges, ok := p.rangeList(rest[:q])
	if !ok {
		return false
	}
	return p.pushRangeList(prefix, ranges) == 0
}

func (p *parser) diag(format string, a ...any) {
	if !p.tooMuch(1) {
		p.hl.Diagnostics = append(p.hl.Diagnostics, fmt.Sprintf(format, a...))
	}
}

// rangeList parses "1-3,7,09-11".
func (p *parser) rangeList(s string) ([]rng, bool) {
	var out []rng
	for {
		if len(out) == MaxRanges {
			p.fatal = "_parse_range_list: Too many ranges, can't process entire list"
			return nil, false
		}
		item, rest, more := strings.Cut(s, ",")
		r, ok := p.singleRange(item)
		if !ok {
			return nil, false
		}
		out = append(out, r)
		if !more {
			return out, true
		}
		s = rest
	}
}

// singleRange parses "lo" or "lo-hi" as Slurm's _parse_single_range does, strtoul quirks
// included: leading blanks and '+' are accepted and count towards the width.
func (p *parser) singleRange(s string) (rng, bool) {
	bad := func() (rng, bool) {
		p.diag("_parse_single_range: Invalid range: `%s'", s)
		return rng{}, false
	}
	if strings.IndexByte(s, 'x') >= 0 {
		return bad()
	}
	loStr, hiStr, dash := strings.Cut(s, "-")
	if dash && strings.HasPrefix(hiStr, "-") {
		return bad()
	}
	var r rng
	r.width = len(loStr)
	lo, loEnd, ok := strtoul(loStr)
	if !ok {
		return bad()
	}
	r.lo, r.hi = lo, lo
	if dash && hiStr != "" {
		hi, hiEnd, ok := strtoul(hiStr)
		if !ok || hiEnd != len(hiStr) {
			return bad()
		}
		r.hi = hi
	} else if loEnd != len(loStr) {
		return bad()
	}
	if r.lo > r.hi {
		return bad()
	}
	if r.hi-r.lo+1 > MaxRange {
		p.diag("_parse_single_range: Too many hosts in range `%s'", s)
		return rng{}, false
	}
	return r, true
}

// strtoul converts like C's strtoul in base 10: leading white space, an optional sign,
// digits; overflow saturates; a '-' negates modulo 2^64. end is the index after the last
// digit; ok is false when there were no digits.
func strtoul(s string) (v uint64, end int, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	overflow := false
	for i < len(s) && isDigit(s[i]) {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			overflow = true
		}
		v = v*10 + d
		i++
	}
	if i == start {
		return 0, 0, false
	}
	if overflow {
		return math.MaxUint64, i, true
	}
	if neg {
		v = -v
	}
	return v, i, true
}

// pushRangeList pushes prefix+range for every range; a prefix that still holds a bracket
// group (`rack[0-1]_blade`) is expanded first, leftmost group varying slowest. It returns -1
// when the prefix is invalid. As in Slurm, an invalid group further left is logged but does
// not make the whole hostlist invalid.
func (p *parser) pushRangeList(prefix string, ranges []rng) int {
	if p.tooMuch(1) {
		return -1
	}
	open := strings.LastIndexByte(prefix, '[')
	closeRel := -1
	if open >= 0 {
		closeRel = strings.LastIndexByte(prefix[open:], ']')
	}
	if closeRel < 0 {
		if p.tooMuch(len(ranges)) {
			return -1
		}
		for _, r := range ranges {
			p.hl.pushRange(hostrange{prefix: prefix, lo: r.lo, hi: r.hi, width: r.width})
		}
		return 0
	}
	before, inner, after := prefix[:open], prefix[open+1:open+closeRel], prefix[open+closeRel+1:]
	recurse := strings.IndexByte(before, '[') >= 0
	pre, ok := p.rangeList(inner)
	if !ok {
		return -1
	}
	var cnt uint64
	rc := 0
	buf := make([]byte, 0, len(prefix)+20)
	for _, pr := range pre {
		cnt += pr.hi - pr.lo + 1
		if cnt > MaxPrefixCount || pr.hi-pr.lo+1 == 0 {
			// The second test stops the full 2^64 range, which Slurm would loop on forever.
			return -1
		}
		for j := pr.lo; ; j++ {
			buf = appendPadded(append(buf[:0], before...), j, pr.width)
			np := string(append(buf, after...))
			if recurse {
				rc = max(rc, p.pushRangeList(np, ranges))
			} else if !p.tooMuch(len(ranges)) {
				for _, r := range ranges {
					p.hl.pushRange(hostrange{prefix: np, lo: r.lo, hi: r.hi, width: r.width})
				}
			}
			if p.fatal != "" {
				return -1
			}
			if j == pr.hi {
				break
			}
		}
	}
	return rc
}

// tooMuch counts n more units of work and reports (setting p.fatal) when the expression has
// grown past MaxWork.
func (p *parser) tooMuch(n int) bool {
	if p.fatal != "" {
		return true
	}
	p.work += n
	if p.work > MaxWork {
		p.fatal = fmt.Sprintf("hostlist too large: it expands to more than %d ranges and bracket groups", MaxWork)
		return true
	}
	return false
}

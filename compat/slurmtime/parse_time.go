package slurmtime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeError reports a point in time that Slurm's parse_time rejects. Error() is the exact line
// parse_time writes to stderr: "Invalid time specification (pos=N): INPUT", where N is the
// byte offset Slurm reports (including its quirks).
type TimeError struct {
	Pos   int
	Input string
}

func (e *TimeError) Error() string {
	return fmt.Sprintf("Invalid time specification (pos=%d): %s", e.Pos, e.Input)
}

// unitNames are the delta units after now+/now-, longest spelling first as Slurm matches
// them by prefix, case-insensitively.
var unitNames = []struct {
	name string
	mult int64
}{
	{"seconds", 1}, {"second", 1},
	{"minutes", 60}, {"minute", 60},
	{"hours", 3600}, {"hour", 3600},
	{"days", 86400}, {"day", 86400},
	{"weeks", 7 * 86400}, {"week", 7 * 86400},
}

// ParseTime parses a point in time as --begin, --deadline and `scontrol update StartTime=`
// accept it (Slurm's parse_time with past=0), in now's location:
// now[{+|-}N[seconds|minutes|hours|days|weeks]], today, tomorrow, midnight, noon, fika (15:00),
// teatime (16:00), YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], MMDD[YY], MM.DD[.YY],
// MM/DD[/YY]-HH:MM[:SS], HH:MM[:SS][AM|PM], and uts<unix seconds>. A time without a date is
// its next occurrence; a date without a year is its next occurrence.
//
// An input naming neither a date nor a time (such as "") yields the zero time and no error,
// as Slurm yields 0 ("begin now").
func ParseTime(s string, now time.Time) (time.Time, error) {
	return parseTime(s, now, false)
}

// ParseTimePast is parse_time with past=1, as sacct --starttime/--endtime use it: a time
// without a date is today, and a date without a year is its most recent occurrence.
func ParseTimePast(s string, now time.Time) (time.Time, error) {
	return parseTime(s, now, true)
}

// timeParser holds the C-style cursor over the input; at() returns 0 past the end, which is
// how the C code sees its terminating NUL (and what it would read beyond it is never used
// here).
type timeParser struct {
	s string
}

func (p *timeParser) at(i int) byte {
	if i < 0 || i >= len(p.s) {
		return 0
	}
	return p.s[i]
}

func (p *timeParser) hasPrefixFold(i int, word string) bool {
	if i < 0 || i+len(word) > len(p.s) {
		return false
	}
	return strings.EqualFold(p.s[i:i+len(word)], word)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isBlank is C's isblank: space or tab.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func parseTime(s string, now time.Time, past bool) (time.Time, error) {
	if len(s) >= 3 && strings.EqualFold(s[:3], "uts") {
		uts, err := strconv.ParseInt(s[3:], 10, 64)
		// strtol accepts leading blanks and a sign; ParseInt accepts a sign but no blanks,
		// and Slurm refuses anything below 1000000 anyway.
		if err != nil || uts < 1000000 || uts >= 1<<63-1 {
			return time.Time{}, &TimeError{Pos: 0, Input: s}
		}
		return time.Unix(uts, 0).In(now.Location()), nil
	}

	loc := now.Location()
	nowTm := now.In(loc)
	hour, minute, second := -1, -1, 0
	month, mday, year := -1, -1, -1 // month zero-origin, year minus 1900, as struct tm
	p := &timeParser{s: s}
	fail := func(pos int) (time.Time, error) { return time.Time{}, &TimeError{Pos: pos, Input: s} }

	pos := 0
	for ; p.at(pos) != 0 && p.at(pos) != '\n'; pos++ {
		c := p.at(pos)
		if isBlank(c) || c == '-' || c == 'T' {
			continue
		}
		switch {
		case p.hasPrefixFold(pos, "today"):
			year, month, mday = tmDate(nowTm)
			pos += 4
			continue
		case p.hasPrefixFold(pos, "tomorrow"):
			year, month, mday = tmDate(nowTm.Add(24 * time.Hour))
			pos += 7
			continue
		case p.hasPrefixFold(pos, "midnight"):
			hour, minute, second = 0, 0, 0
			pos += 7
			continue
		case p.hasPrefixFold(pos, "noon"):
			hour, minute, second = 12, 0, 0
			pos += 3
			continue
		case p.hasPrefixFold(pos, "fika"):
			hour, minute, second = 15, 0, 0
			pos += 3
			continue
		case p.hasPrefixFold(pos, "teatime"):
			hour, minute, second = 16, 0, 0
			pos += 6
			continue
		case p.hasPrefixFold(pos, "now"):
			var delta int64
			// Slurm adds the absolute index i to pos (correct only when "now" starts the
			// string); kept so error positions and odd inputs behave the same.
			for i := pos + 3; ; i++ {
				ci := p.at(i)
				if ci == '+' || ci == '-' {
					pos += i
					d, np, ok := p.delta(pos)
					pos = np
					if !ok {
						return fail(pos)
					}
					delta = d
					if ci == '-' {
						delta = -delta
					}
					break
				}
				if isBlank(ci) {
					continue
				}
				if ci == 0 || ci == '\n' {
					pos += i - 1
					break
				}
				pos += i
				return fail(pos)
			}
			later := time.Unix(nowTm.Unix()+delta, 0).In(loc)
			year, month, mday = tmDate(later)
			hour, minute, second = later.Hour(), later.Minute(), later.Second()
			continue
		}
		if !isDigit(c) {
			return fail(pos)
		}
		if p.at(pos+1) == ':' || p.at(pos+2) == ':' {
			h, m, sec, np, ok := p.clock(pos)
			pos = np
			if !ok {
				return fail(pos)
			}
			hour, minute, second = h, m, sec
			continue
		}
		mon, day, yr, np, ok := p.date(pos)
		pos = np
		if !ok {
			return fail(pos)
		}
		month, mday = mon, day
		if yr != noYear {
			year = yr
		}
	}

	nowYear, nowMon, nowDay := tmDate(nowTm)
	switch {
	case hour == -1 && month == -1:
		return time.Time{}, nil
	case hour == -1:
		hour, minute = 0, 0
	case month == -1:
		if past || hour > nowTm.Hour() || (hour == nowTm.Hour() && minute > nowTm.Minute()) {
			month, mday, year = nowMon, nowDay, nowYear
		} else {
			year, month, mday = tmDate(nowTm.Add(24 * time.Hour))
		}
	}
	if year == -1 {
		if past {
			if month > nowMon {
				year = nowYear - 1
			} else {
				year = nowYear
			}
		} else if month > nowMon ||
			(month == nowMon && mday > nowDay) ||
			(month == nowMon && mday == nowDay && hour > nowTm.Hour()) ||
			(month == nowMon && mday == nowDay && hour == nowTm.Hour() && minute > nowTm.Minute()) {
			year = nowYear
		} else {
			year = nowYear + 1
		}
	}
	// mktime normalises out-of-range fields (Feb 31 is March 2 or 3) as time.Date does.
	return time.Date(year+1900, time.Month(month+1), mday, hour, minute, second, 0, loc), nil
}

// tmDate returns t's date as struct tm fields: years since 1900, zero-origin month, day.
func tmDate(t time.Time) (year, month, mday int) {
	return t.Year() - 1900, int(t.Month()) - 1, t.Day()
}

// delta parses the count and unit after now+ / now- (pos is at the sign), as Slurm's
// _get_delta: blanks skipped, digits accumulate, a unit name multiplies and ends the delta.
// It returns the new position (the last byte consumed) and whether a number was found.
func (p *timeParser) delta(pos int) (int64, int, bool) {
	var cnt int64
	digits := 0
	off := pos + 1
	for ; p.at(off) != 0 && p.at(off) != '\n'; off++ {
		c := p.at(off)
		if isSpace(c) {
			continue
		}
		unit := false
		for _, u := range unitNames {
			if p.hasPrefixFold(off, u.name) {
				off += len(u.name)
				cnt *= u.mult
				unit = true
				break
			}
		}
		if unit {
			break
		}
		if isDigit(c) {
			// Slurm's long wraps silently; saturating keeps the result sane.
			if cnt < 1<<40 {
				cnt = cnt*10 + int64(c-'0')
			}
			digits++
			continue
		}
		return 0, off - 1, false
	}
	if digits == 0 {
		return 0, pos, false
	}
	return cnt, off - 1, true
}

// clock parses HH:MM[:SS][ ][AM|PM] as Slurm's _get_time. On success the position is the last
// byte consumed; on failure it is where Slurm reports the problem.
func (p *timeParser) clock(off int) (hr, min, sec, pos int, ok bool) {
	if !isDigit(p.at(off)) {
		return 0, 0, 0, off, false
	}
	hr = int(p.at(off) - '0')
	off++
	if p.at(off) != ':' {
		if !isDigit(p.at(off)) {
			return 0, 0, 0, off, false
		}
		hr = hr*10 + int(p.at(off)-'0')
		off++
	}
	if hr > 23 {
		return 0, 0, 0, off - 2, false
	}
	if p.at(off) != ':' {
		return 0, 0, 0, off, false
	}
	off++
	if !isDigit(p.at(off)) || !isDigit(p.at(off+1)) {
		if isDigit(p.at(off)) {
			off++
		}
		return 0, 0, 0, off, false
	}
	min = int(p.at(off)-'0')*10 + int(p.at(off+1)-'0')
	off += 2
	if min > 59 {
		return 0, 0, 0, off - 2, false
	}
	if p.at(off) == ':' {
		off++
		if !isDigit(p.at(off)) || !isDigit(p.at(off+1)) {
			if isDigit(p.at(off)) {
				off++
			}
			return 0, 0, 0, off, false
		}
		sec = int(p.at(off)-'0')*10 + int(p.at(off+1)-'0')
		off += 2
		if sec > 59 {
			return 0, 0, 0, off - 2, false
		}
	}
	for isSpace(p.at(off)) {
		off++
	}
	switch {
	case p.hasPrefixFold(off, "pm"):
		hr += 12
		if hr > 23 {
			if hr != 24 {
				return 0, 0, 0, off, false
			}
			hr = 12
		}
		off += 2
	case p.hasPrefixFold(off, "am"):
		if hr > 11 {
			if hr != 12 {
				return 0, 0, 0, off, false
			}
			hr = 0
		}
		off += 2
	}
	return hr, min, sec, off - 1, true
}

// noYear means the date named no year (Slurm leaves tm_year at -1 then).
const noYear = -1 << 30

// date parses YYYY-MM-DD, MM/DD[/YY], MM.DD[.YY] or MMDD[YY] as Slurm's _get_date, returning a
// zero-origin month, the day, and years since 1900 (noYear when absent or "00").
func (p *timeParser) date(off int) (mon, day, yr, pos int, ok bool) {
	yr = noYear
	// Slurm reads each month digit without checking it is one (the caller checked the first);
	// non-digits give out-of-range values that the range check then refuses, or not.
	num := func(i int) int { return int(p.at(i)) - '0' }
	if len(p.s) >= off+7 && p.at(off+4) == '-' && p.at(off+7) == '-' {
		y := 0
		for k := 0; k < 4; k++ {
			if !isDigit(p.at(off)) {
				return 0, 0, 0, off, false
			}
			y = y*10 + num(off)
			off++
		}
		off++ // the '-'
		mon = num(off)
		off++
		if isDigit(p.at(off)) {
			mon = mon*10 + num(off)
			off++
		}
		if mon < 1 || mon > 12 {
			return 0, 0, 0, off - 2, false
		}
		off++ // the '-'
		if !isDigit(p.at(off)) {
			return 0, 0, 0, off, false
		}
		day = num(off)
		off++
		if isDigit(p.at(off)) {
			day = day*10 + num(off)
			off++
		}
		if day < 1 || day > 31 {
			return 0, 0, 0, off - 2, false
		}
		return mon - 1, day, y - 1900, off - 1, true
	}

	mon = num(off)
	off++
	if isDigit(p.at(off)) {
		mon = mon*10 + num(off)
		off++
	}
	if mon < 1 || mon > 12 {
		return 0, 0, 0, off - 2, false
	}
	if p.at(off) == '.' || p.at(off) == '/' {
		off++
	}
	if !isDigit(p.at(off)) {
		return 0, 0, 0, off, false
	}
	day = num(off)
	off++
	if isDigit(p.at(off)) {
		day = day*10 + num(off)
		off++
	}
	if day < 1 || day > 31 {
		return 0, 0, 0, off - 2, false
	}
	if p.at(off) == '.' || p.at(off) == '/' {
		off++
	}
	if isDigit(p.at(off)) {
		y := num(off)
		off++
		if !isDigit(p.at(off)) {
			return 0, 0, 0, off, false
		}
		y = y*10 + num(off)
		off++
		if y != 0 {
			yr = y + 100
		}
	}
	return mon - 1, day, yr, off - 1, true
}

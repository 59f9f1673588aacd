package format

import (
	"fmt"
	"strconv"
	"time"
)

// Slurm's sentinel values for unset and unlimited numbers.
const (
	NoVal      uint32 = 0xfffffffe
	Infinite   uint32 = 0xffffffff
	NoVal16    uint16 = 0xfffe
	Infinite16 uint16 = 0xffff
)

const yearSeconds = 365 * 24 * 3600

// TimeLayout is Slurm's default time format (ISO 8601 without zone), as used when
// SLURM_TIME_FORMAT is unset.
const TimeLayout = "2006-01-02T15:04:05"

// null renders a C string that may be NULL: Slurm's printf prints "(null)".
func null(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

// orNA renders an optional string as Slurm does for TRES fields: "N/A" when unset.
func orNA(s string) string {
	if s == "" {
		return "N/A"
	}
	return s
}

// Secs formats a duration in seconds as squeue's TIME column does:
// [days-][hours:]minutes:seconds, "INVALID" when negative or over a year.
func Secs(t int64) string {
	if t < 0 || t > yearSeconds {
		return "INVALID"
	}
	s, m, h, d := t%60, (t/60)%60, (t/3600)%24, t/86400
	// strconv rather than fmt: squeue formats this for every row of a large queue.
	var buf [32]byte
	b := buf[:0]
	switch {
	case d > 0:
		b = strconv.AppendInt(b, d, 10)
		b = append(b, '-')
		b = append2(b, h)
		b = append(b, ':')
		b = append2(b, m)
	case h > 0:
		b = strconv.AppendInt(b, h, 10)
		b = append(b, ':')
		b = append2(b, m)
	default:
		b = strconv.AppendInt(b, m, 10)
	}
	b = append(b, ':')
	return string(append2(b, s))
}

// append2 appends v (0-99) as two digits.
func append2(b []byte, v int64) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// Time formats a timestamp as squeue does: "N/A" for the zero time, otherwise
// YYYY-MM-DDTHH:MM:SS in the time's own location.
func Time(t time.Time) string {
	if t.IsZero() {
		return "N/A"
	}
	return t.Format(TimeLayout)
}

// Unit identifies the unit a number is expressed in for ConvertNumUnit.
type Unit int

// Units, as in Slurm (none, kilo, mega, giga, tera, peta).
const (
	UnitNone Unit = iota
	UnitKilo
	UnitMega
	UnitGiga
	UnitTera
	UnitPeta
)

// ConvertNumUnit renders n in unit u scaled up by 1024 while no precision is lost (halves
// are kept: 1536M is "1.50G"), as squeue does by default (convert_num_unit with
// CONVERT_NUM_UNIT_EXACT). With noConvert (squeue --noconvert) the number is printed in its
// own unit.
func ConvertNumUnit(n float64, u Unit, noConvert bool) string {
	if int64(n) == 0 {
		return "0"
	}
	if !noConvert {
		for n >= 1024 && uint64(n)%512 == 0 {
			n /= 1024
			u++
		}
	}
	suffix := ""
	switch {
	case u > UnitPeta || u < UnitNone:
		suffix = "?"
	case u > UnitNone:
		suffix = string("KMGTP"[u-1])
	}
	if float64(uint64(n)) == n {
		return strconv.FormatUint(uint64(n), 10) + suffix
	}
	return fmt.Sprintf("%.2f", n) + suffix
}

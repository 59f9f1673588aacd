package slurmtime

import (
	"fmt"
	"strings"
	"time"
)

// FormatTimestamp prints a time as scontrol and squeue print it by default (Slurm's
// slurm_make_time_str with SLURM_TIME_FORMAT unset): 2006-01-02T15:04:05 in t's location.
// The zero time (Slurm's 0) prints as "Unknown".
func FormatTimestamp(t time.Time) string {
	if t.IsZero() || t.Unix() == 0 {
		return "Unknown"
	}
	return t.Format("2006-01-02T15:04:05")
}

// FormatUnix prints a raw time_t as slurm_make_time_str does by default: 0 and INFINITE
// (4294967295) as "Unknown", NO_VAL (4294967294) as "None", else FormatTimestamp in loc.
func FormatUnix(secs int64, loc *time.Location) string {
	switch secs {
	case 0, int64(Infinite):
		return "Unknown"
	case int64(NoVal):
		return "None"
	}
	return FormatTimestamp(time.Unix(secs, 0).In(loc))
}

// TimeFormat is a parsed SLURM_TIME_FORMAT: how slurm_make_time_str prints timestamps.
type TimeFormat struct {
	relative bool
	layout   string // strftime layout; "" means the default %FT%T
}

// ParseTimeFormat interprets a SLURM_TIME_FORMAT value: "" or "standard" is the ISO default,
// "relative" prints times relative to now (Ystday 10:00, Tomorr 10:00, Mon 10:00, 5 Jan 10:00,
// 5 Jan 2025), any other value containing '%' (and under 32 bytes) is a strftime format.
// Any other value is refused with Slurm's message "invalid SLURM_TIME_FORMAT = 'X'" (commands
// print it as "scontrol: error: invalid SLURM_TIME_FORMAT = 'iso'" on stderr), and the
// returned format is still the default, as Slurm logs the error and carries on.
func ParseTimeFormat(env string) (TimeFormat, error) {
	switch {
	case env == "" || env == "standard":
		return TimeFormat{}, nil
	case env == "relative":
		return TimeFormat{relative: true}, nil
	case !strings.Contains(env, "%") || len(env) >= 32:
		return TimeFormat{}, fmt.Errorf("invalid SLURM_TIME_FORMAT = '%s'", env)
	}
	return TimeFormat{layout: env}, nil
}

// Format prints t under this format. now is only used by the relative format. The zero time
// prints as "Unknown".
func (f TimeFormat) Format(t, now time.Time) string {
	if t.IsZero() || t.Unix() == 0 {
		return "Unknown"
	}
	layout := f.layout
	if f.relative {
		layout = relativeLayout(t, now.In(t.Location()))
	}
	if layout == "" {
		return FormatTimestamp(t)
	}
	return Strftime(layout, t)
}

// relativeLayout picks the strftime format Slurm's relative mode uses for t seen from now.
// Slurm measures the distance as 1000*year + day-of-year, so across a new year the distance
// is large even for adjacent days; kept as Slurm computes it.
func relativeLayout(t, now time.Time) string {
	distance := (1000*t.Year() + t.YearDay() - 1) - (1000*now.Year() + now.YearDay() - 1)
	switch {
	case distance == -1:
		return "Ystday %H:%M"
	case distance == 0:
		return "%H:%M:%S"
	case distance == 1:
		return "Tomorr %H:%M"
	case distance < -365 || distance > 365:
		return "%-d %b %Y"
	case distance < -1 || distance > 6:
		return "%-d %b %H:%M"
	}
	return "%a %H:%M"
}

// Strftime formats t with a C strftime layout in the C locale. It covers the conversions
// people put in SLURM_TIME_FORMAT; an unknown conversion is copied as written.
func Strftime(layout string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(layout); i++ {
		c := layout[i]
		if c != '%' || i+1 >= len(layout) {
			b.WriteByte(c)
			continue
		}
		i++
		// glibc flags: '-' no padding, '_' space padding, '0' zero padding.
		pad := byte(0)
		if layout[i] == '-' || layout[i] == '_' || layout[i] == '0' {
			pad = layout[i]
			if i+1 >= len(layout) {
				b.WriteByte('%')
				b.WriteByte(pad)
				break
			}
			i++
		}
		num := func(v, width int, def byte) {
			p := def
			if pad != 0 {
				p = pad
			}
			switch p {
			case '-':
				fmt.Fprintf(&b, "%d", v)
			case '_':
				fmt.Fprintf(&b, "%*d", width, v)
			default:
				fmt.Fprintf(&b, "%0*d", width, v)
			}
		}
		switch layout[i] {
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'y':
			num(t.Year()%100, 2, '0')
		case 'C':
			num(t.Year()/100, 2, '0')
		case 'm':
			num(int(t.Month()), 2, '0')
		case 'd':
			num(t.Day(), 2, '0')
		case 'e':
			num(t.Day(), 2, '_')
		case 'H':
			num(t.Hour(), 2, '0')
		case 'k':
			num(t.Hour(), 2, '_')
		case 'I':
			num((t.Hour()+11)%12+1, 2, '0')
		case 'l':
			num((t.Hour()+11)%12+1, 2, '_')
		case 'M':
			num(t.Minute(), 2, '0')
		case 'S':
			num(t.Second(), 2, '0')
		case 'j':
			num(t.YearDay(), 3, '0')
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			fmt.Fprintf(&b, "%d", wd)
		case 'w':
			fmt.Fprintf(&b, "%d", int(t.Weekday()))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'P':
			b.WriteString(strings.ToLower(t.Format("PM")))
		case 'F':
			fmt.Fprintf(&b, "%d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
		case 'T':
			fmt.Fprintf(&b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
		case 'R':
			fmt.Fprintf(&b, "%02d:%02d", t.Hour(), t.Minute())
		case 'D':
			fmt.Fprintf(&b, "%02d/%02d/%02d", int(t.Month()), t.Day(), t.Year()%100)
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'x':
			fmt.Fprintf(&b, "%02d/%02d/%02d", int(t.Month()), t.Day(), t.Year()%100)
		case 'X':
			fmt.Fprintf(&b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
		case 's':
			fmt.Fprintf(&b, "%d", t.Unix())
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			if pad != 0 {
				b.WriteByte(pad)
			}
			b.WriteByte(layout[i])
		}
	}
	return b.String()
}

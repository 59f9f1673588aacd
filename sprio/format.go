package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// niceOffset is Slurm's NICE_OFFSET: the site factor and nice travel offset by it.
const niceOffset = 0x80000000

// weights are slurm.conf's PriorityWeight* values, read locally as Slurm's sprio does.
type weights struct {
	age, assoc, fs, js, part, qos uint32
	tres                          string
}

// field is one %-specification of a format: its letter, width, justification and the text
// after it up to the next '%' (suffix).
type field struct {
	letter byte
	width  int
	right  bool
	suffix string
}

// defaultFormat is the format sprio uses without -o, as Slurm 22.05 builds it: job id and
// partition, the user with -u, the priority (and site factor unless -n), then one column per
// factor whose weight is not zero; -l shows every column.
func defaultFormat(o *options, w weights) string {
	if o.norm {
		if o.long {
			return "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t"
		}
		f := "%.15i %9r"
		if o.usersGiven {
			f += " %.8u"
		}
		f += " %10y"
		for _, c := range []struct {
			on   bool
			spec string
		}{{w.age != 0, " %10a"}, {w.assoc != 0, " %10b"}, {w.fs != 0, " %10f"}, {w.js != 0, " %10j"},
			{w.part != 0, " %10p"}, {w.qos != 0, " %10q"}, {w.tres != "", " %20t"}} {
			if c.on {
				f += c.spec
			}
		}
		return f
	}
	if o.long {
		return "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T"
	}
	f := "%.15i %9r"
	if o.usersGiven {
		f += " %.8u"
	}
	f += " %.10Y %.10S"
	for _, c := range []struct {
		on   bool
		spec string
	}{{w.age != 0, " %.10A"}, {w.assoc != 0, " %.10B"}, {w.fs != 0, " %.10F"}, {w.js != 0, " %.10J"},
		{w.part != 0, " %.10P"}, {w.qos != 0, " %.10Q"}, {w.tres != "", " %.20T"}} {
		if c.on {
			f += c.spec
		}
	}
	return f
}

// knownLetters are the format letters sprio prints.
const knownLetters = "aAbBcfFijJNpPrSqQuyYtT"

// parseFormat reads a format as Slurm's parse_format does: text before the first '%' is a
// prefix printed at the start of every line (letter 0), then each '%'-separated token is
// [.]width letter suffix; empty tokens ("%%") vanish; an unknown letter is reported on
// stderr and dropped with its suffix.
func parseFormat(format string, stderr io.Writer) []field {
	var fields []field
	rest := format
	if i := strings.IndexByte(format, '%'); i != 0 {
		if i < 0 {
			i = len(format)
		}
		fields = append(fields, field{suffix: format[:i]})
		rest = format[i:]
	}
	for _, tok := range strings.Split(rest, "%") {
		if tok == "" {
			continue
		}
		f := field{}
		i := 0
		if tok[0] == '.' {
			f.right = true
			i++
		}
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			if f.width < 1<<20 { // Slurm's int would overflow long before this
				f.width = f.width*10 + int(tok[i]-'0')
			}
			i++
		}
		if i < len(tok) {
			f.letter = tok[i]
			f.suffix = tok[i+1:]
		}
		if f.letter == 0 || strings.IndexByte(knownLetters, f.letter) < 0 {
			letter := ""
			if f.letter != 0 {
				letter = string([]byte{f.letter})
			}
			fmt.Fprintf(stderr, "sprio: error: Invalid job format specification: %s\n", letter)
			continue
		}
		fields = append(fields, f)
	}
	return fields
}

// printer renders rows of priority factors.
type printer struct {
	w       weights
	cluster string
	user    func(uint32) string
}

// render is sprio's output: the header unless noHeader, then either the weights row (-w)
// or one row per job.
func (p printer) render(fields []field, jobs []wire.PriorityFactors, header, weightsRow bool) string {
	var b strings.Builder
	if header {
		p.line(&b, fields, rowHeader, nil)
	}
	if weightsRow {
		p.line(&b, fields, rowWeights, nil)
		return b.String()
	}
	for i := range jobs {
		p.line(&b, fields, rowJob, &jobs[i])
	}
	return b.String()
}

type rowKind int

const (
	rowHeader rowKind = iota
	rowWeights
	rowJob
)

func (p printer) line(b *strings.Builder, fields []field, kind rowKind, j *wire.PriorityFactors) {
	for _, f := range fields {
		if f.letter != 0 {
			b.WriteString(pad(p.cell(f.letter, kind, j), f.width, f.right))
		}
		b.WriteString(f.suffix)
	}
	b.WriteByte('\n')
}

// pad is Slurm's _print_str with cut_output: at most width bytes, padded to width (on the
// left when right-justified); width 0 prints the text as it is.
func pad(s string, width int, right bool) string {
	if width == 0 {
		return s
	}
	if len(s) > width {
		s = s[:width]
	}
	if right {
		return strings.Repeat(" ", width-len(s)) + s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// intStr is "%.0f" (round half to even, as printf).
func intStr(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// normStr is "%.7lf" of a factor divided by its weight, 0 when the weight is 0.
func normStr(v float64, weight uint32) string {
	n := 0.0
	if weight != 0 {
		n = v / float64(weight)
	}
	return strconv.FormatFloat(n, 'f', 7, 64)
}

// priority is get_priority_from_factors: the administrator's priority if set, else the sum
// of the weighted factors, the site factor, minus nice, at least 1.
func priority(j *wire.PriorityFactors) float64 {
	if j.DirectPrio > 0 {
		return j.DirectPrio
	}
	v := j.Age + j.Assoc + j.FairShare + j.JobSize + j.Part + j.QOS +
		float64(int64(j.Site)-niceOffset) - float64(int64(j.Nice)-niceOffset)
	return max(v, 1)
}

// cell is one field's text for a header, the weights row or a job, as src/sprio/print.c.
func (p printer) cell(letter byte, kind rowKind, j *wire.PriorityFactors) string {
	type factor struct {
		header string
		weight uint32
		value  func(*wire.PriorityFactors) float64
	}
	factors := map[byte]factor{
		'a': {"AGE", p.w.age, func(j *wire.PriorityFactors) float64 { return j.Age }},
		'b': {"ASSOC", p.w.assoc, func(j *wire.PriorityFactors) float64 { return j.Assoc }},
		'f': {"FAIRSHARE", p.w.fs, func(j *wire.PriorityFactors) float64 { return j.FairShare }},
		'j': {"JOBSIZE", p.w.js, func(j *wire.PriorityFactors) float64 { return j.JobSize }},
		'p': {"PARTITION", p.w.part, func(j *wire.PriorityFactors) float64 { return j.Part }},
		'q': {"QOS", p.w.qos, func(j *wire.PriorityFactors) float64 { return j.QOS }},
	}
	lower := letter | 0x20
	if f, ok := factors[lower]; ok {
		switch {
		case kind == rowHeader:
			return f.header
		case kind == rowWeights:
			return strconv.FormatUint(uint64(f.weight), 10)
		case letter == lower: // normalised
			return normStr(f.value(j), f.weight)
		default:
			return intStr(f.value(j))
		}
	}
	switch letter {
	case 'i':
		switch kind {
		case rowHeader:
			return "JOBID"
		case rowWeights:
			return "Weights"
		}
		return strconv.FormatUint(uint64(j.JobID), 10)
	case 'r':
		switch kind {
		case rowHeader:
			return "PARTITION"
		case rowWeights:
			return ""
		}
		return j.Partition
	case 'u':
		switch kind {
		case rowHeader:
			return "USER"
		case rowWeights:
			return ""
		}
		return p.user(j.UserID)
	case 'c':
		switch kind {
		case rowHeader:
			return "CLUSTER"
		case rowWeights:
			return "" // Slurm's sprio crashes here; nothing is the sane answer
		}
		return p.cluster
	case 'Y', 'y':
		switch kind {
		case rowHeader:
			return "PRIORITY"
		case rowWeights:
			return ""
		}
		if letter == 'Y' {
			return strconv.FormatInt(int64(priority(j)), 10)
		}
		if j.DirectPrio > 0 {
			// Slurm prints an administrator's priority un-normalised here.
			return fmt.Sprintf("%16.14f", j.DirectPrio)
		}
		return fmt.Sprintf("%16.14f", priority(j)/float64(uint32(0xffffffff)))
	case 'S':
		switch {
		case kind == rowHeader:
			return "SITE"
		case kind == rowWeights:
			return "1"
		case j.DirectPrio > 0:
			return "0"
		}
		return strconv.FormatInt(int64(j.Site)-niceOffset, 10)
	case 'N':
		switch {
		case kind == rowHeader:
			return "NICE"
		case kind == rowWeights:
			return ""
		case j.DirectPrio > 0:
			return "0"
		}
		return strconv.FormatInt(int64(j.Nice)-niceOffset, 10)
	case 'T', 't':
		switch kind {
		case rowHeader:
			return "TRES"
		case rowWeights:
			if letter == 'T' {
				return p.w.tres
			}
		}
		return "" // Orbit computes no TRES factors yet (PriorityWeightTRES)
	}
	return ""
}

package format

import (
	"fmt"
	"strings"
)

// SacctKind says how sacct prints a field's value (Slurm's print_fields_* routines).
type SacctKind int

const (
	// SacctString values longer than the column are cut, the last kept character becoming
	// "+"; a NULL value prints blank.
	SacctString SacctKind = iota
	// SacctNumber values are never cut; an unset number prints blank.
	SacctNumber
	// SacctDate values are cut to the column width without a marker.
	SacctDate
	// SacctDuration values ([D-]HH:MM:SS) are never cut.
	SacctDuration
)

// SacctField is one field of sacct: its name (as --format and the header spell it), its
// default width (negative = left-justified) and kind.
type SacctField struct {
	Name  string
	Width int
	Kind  SacctKind
}

// SacctFields is sacct's field table in Slurm 22.05, in its order (which decides what an
// abbreviated --format name selects: the first field it is a prefix of).
var SacctFields = []SacctField{
	{"Account", 10, SacctString}, {"AdminComment", 15, SacctString}, {"AllocCPUS", 10, SacctNumber},
	{"AllocNodes", 10, SacctString}, {"AllocTRES", 10, SacctString}, {"AssocID", 7, SacctNumber},
	{"AveCPU", 10, SacctString}, {"AveCPUFreq", 10, SacctString}, {"AveDiskRead", 14, SacctString},
	{"AveDiskWrite", 14, SacctString}, {"AvePages", 10, SacctString}, {"AveRSS", 10, SacctString},
	{"AveVMSize", 10, SacctString}, {"BlockID", 16, SacctString}, {"Cluster", 10, SacctString},
	{"Comment", 14, SacctString}, {"Constraints", 19, SacctString}, {"ConsumedEnergy", 14, SacctString},
	{"ConsumedEnergyRaw", 17, SacctNumber}, {"Container", 19, SacctString}, {"CPUTime", 10, SacctDuration},
	{"CPUTimeRAW", 10, SacctNumber}, {"DBIndex", -10, SacctNumber}, {"DerivedExitCode", 15, SacctString},
	{"Elapsed", 10, SacctDuration}, {"ElapsedRaw", 10, SacctNumber}, {"Eligible", 19, SacctDate},
	{"End", 19, SacctDate}, {"ExitCode", 8, SacctString}, {"Flags", 19, SacctString},
	{"GID", 6, SacctNumber}, {"Group", 9, SacctString}, {"JobID", -12, SacctString},
	{"JobIDRaw", -12, SacctString}, {"JobName", 10, SacctString}, {"Layout", 9, SacctString},
	{"MaxDiskRead", 12, SacctString}, {"MaxDiskReadNode", 15, SacctString}, {"MaxDiskReadTask", 15, SacctNumber},
	{"MaxDiskWrite", 12, SacctString}, {"MaxDiskWriteNode", 16, SacctString}, {"MaxDiskWriteTask", 16, SacctNumber},
	{"MaxPages", 8, SacctString}, {"MaxPagesNode", 12, SacctString}, {"MaxPagesTask", 14, SacctNumber},
	{"MaxRSS", 10, SacctString}, {"MaxRSSNode", 10, SacctString}, {"MaxRSSTask", 10, SacctNumber},
	{"MaxVMSize", 10, SacctString}, {"MaxVMSizeNode", 14, SacctString}, {"MaxVMSizeTask", 14, SacctNumber},
	{"McsLabel", 12, SacctString}, {"MinCPU", 10, SacctString}, {"MinCPUNode", 10, SacctString},
	{"MinCPUTask", 10, SacctNumber}, {"NCPUS", 10, SacctNumber}, {"NNodes", 8, SacctNumber},
	{"NodeList", 15, SacctString}, {"NTasks", 8, SacctNumber}, {"Partition", 10, SacctString},
	{"Priority", 10, SacctNumber}, {"QOS", 10, SacctString}, {"QOSRAW", 6, SacctNumber},
	{"Reason", 22, SacctString}, {"ReqCPUFreq", 10, SacctString}, {"ReqCPUFreqGov", 13, SacctString},
	{"ReqCPUFreqMax", 13, SacctString}, {"ReqCPUFreqMin", 13, SacctString}, {"ReqCPUS", 8, SacctNumber},
	{"ReqMem", 10, SacctString}, {"ReqNodes", 8, SacctString}, {"ReqTRES", 10, SacctString},
	{"Reservation", 20, SacctString}, {"ReservationId", 8, SacctNumber}, {"Reserved", 10, SacctDuration},
	{"ResvCPU", 10, SacctDuration}, {"ResvCPURAW", 10, SacctNumber}, {"Start", 19, SacctDate},
	{"State", 10, SacctString}, {"Submit", 19, SacctDate}, {"SubmitLine", 20, SacctString},
	{"Suspended", 10, SacctDuration}, {"SystemComment", 15, SacctString}, {"SystemCPU", 10, SacctString},
	{"Timelimit", 10, SacctString}, {"TimelimitRaw", 10, SacctString}, {"TotalCPU", 10, SacctString},
	{"TRESUsageInAve", 14, SacctString}, {"TRESUsageInMax", 14, SacctString}, {"TRESUsageInMaxNode", 18, SacctString},
	{"TRESUsageInMaxTask", 18, SacctString}, {"TRESUsageInMin", 14, SacctString}, {"TRESUsageInMinNode", 18, SacctString},
	{"TRESUsageInMinTask", 18, SacctString}, {"TRESUsageInTot", 14, SacctString}, {"TRESUsageOutAve", 15, SacctString},
	{"TRESUsageOutMax", 15, SacctString}, {"TRESUsageOutMaxNode", 19, SacctString}, {"TRESUsageOutMaxTask", 19, SacctString},
	{"TRESUsageOutMin", 15, SacctString}, {"TRESUsageOutMinNode", 19, SacctString}, {"TRESUsageOutMinTask", 19, SacctString},
	{"TRESUsageOutTot", 15, SacctString}, {"UID", 6, SacctNumber}, {"User", 9, SacctString},
	{"UserCPU", 10, SacctString}, {"WCKey", 10, SacctString}, {"WCKeyID", 10, SacctNumber},
	{"WorkDir", 20, SacctString},
}

// sacct's built-in field lists.
const (
	SacctDefaultFields     = "jobid,jobname,partition,account,alloccpus,state,exitcode"
	SacctBriefFields       = "jobid,state,exitcode"
	SacctBriefCompFields   = "jobid,uid,state"
	SacctDefaultCompFields = "jobid,uid,jobname,partition,nnodes,nodelist,state,end"
	SacctLongCompFields    = "jobid,uid,jobname,partition,nnodes,nodelist,state,start,end,timelimit"
	SacctLongFields        = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,tresusageouttot"
)

// SacctColumn is one selected field with its width.
type SacctColumn struct {
	Field SacctField
}

// SacctFieldError is sacct's error for an unknown --format name; sacct prints
// "sacct: error: " + Error() and exits 1.
type SacctFieldError struct{ Name string }

func (e *SacctFieldError) Error() string {
	switch {
	case strings.EqualFold(e.Name, "AllocGRES"):
		return "AllocGRES has been removed, please use AllocTRES"
	case strings.EqualFold(e.Name, "ReqGRES"):
		return "ReqGRES has been removed, please use ReqTRES"
	}
	return fmt.Sprintf("Invalid field requested: %q", e.Name)
}

// ParseSacctFormat parses a --format list ("jobid,jobname%30,state%-12"): names are
// case-insensitive and may be abbreviated (the first field they begin selects it), "ALL"
// (or any leading part of it, even empty) selects every field, and "%N" sets the width
// (negative = left-justified). As in Slurm an empty item ends the list.
func ParseSacctFormat(list string) ([]SacctColumn, error) {
	var cols []SacctColumn
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimLeft(item, " \t\n\v\f\r")
		if item == "" {
			break
		}
		name, width, hasWidth := item, 0, false
		if i := strings.IndexByte(item, '%'); i >= 0 {
			name, width, hasWidth = item[:i], atoi(item[i+1:]), true
		}
		add := func(f SacctField) {
			if hasWidth {
				f.Width = width
			}
			cols = append(cols, SacctColumn{Field: f})
		}
		if len(name) <= 3 && equalFold(name, "ALL"[:len(name)]) {
			for _, f := range SacctFields {
				add(f)
			}
			continue
		}
		found := false
		for _, f := range SacctFields {
			if len(name) <= len(f.Name) && equalFold(f.Name[:len(name)], name) {
				add(f)
				found = true
				break
			}
		}
		if !found {
			return nil, &SacctFieldError{Name: name}
		}
	}
	return cols, nil
}

// atoi is C's atoi: leading space, sign, digits; 0 when there are none; clamped to MaxWidth.
func atoi(s string) int {
	v, _ := strtol(s)
	return v
}

// SacctParsable selects sacct's -p/-P output.
type SacctParsable int

const (
	// SacctColumns is the default fixed-width output with a dashed second header line.
	SacctColumns SacctParsable = iota
	// SacctParsableEnding is -p: every value followed by the delimiter.
	SacctParsableEnding
	// SacctParsableNoEnding is -P: no delimiter after the last value.
	SacctParsableNoEnding
)

// SacctPrinter renders sacct's header and rows.
type SacctPrinter struct {
	Columns  []SacctColumn
	Parsable SacctParsable
	// Delimiter replaces "|" in parsable output (--delimiter).
	Delimiter string
}

func (p *SacctPrinter) delim() string {
	if p.Delimiter != "" {
		return p.Delimiter
	}
	return "|"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// fixed prints s in a column of width w (negative = left-justified) cut to |w| characters,
// followed by one space: printf("%*.*s ").
func fixed(b *strings.Builder, s string, w int, cut bool) {
	a := abs(w)
	if cut && len(s) > a {
		s = s[:a]
	}
	if w < 0 {
		b.WriteString(s)
		spaces(b, a-len(s))
	} else {
		spaces(b, a-len(s))
		b.WriteString(s)
	}
	b.WriteByte(' ')
}

// Header renders the header: in column mode the titles and the dashed line (two lines),
// in parsable mode one line of names. Each line ends in "\n". noHeader (-n) gives "".
func (p *SacctPrinter) Header(noHeader bool) string {
	if noHeader {
		return ""
	}
	var b strings.Builder
	for i, c := range p.Columns {
		switch {
		case p.Parsable == SacctParsableNoEnding && i == len(p.Columns)-1:
			b.WriteString(c.Field.Name)
		case p.Parsable != SacctColumns:
			b.WriteString(c.Field.Name + p.delim())
		default:
			fixed(&b, c.Field.Name, c.Field.Width, true)
		}
	}
	b.WriteByte('\n')
	if p.Parsable != SacctColumns {
		return b.String()
	}
	for _, c := range p.Columns {
		b.WriteString(strings.Repeat("-", abs(c.Field.Width)))
		b.WriteByte(' ')
	}
	b.WriteByte('\n')
	return b.String()
}

// SacctValue is one value of a row; Null marks Slurm's NULL string or unset number.
type SacctValue struct {
	Text string
	Null bool
}

// Row renders one row (ending in "\n"); values are in column order.
func (p *SacctPrinter) Row(values []SacctValue) string {
	var b strings.Builder
	for i, c := range p.Columns {
		var v SacctValue
		if i < len(values) {
			v = values[i]
		} else {
			v.Null = true
		}
		if p.Parsable != SacctColumns {
			b.WriteString(v.Text)
			if !(p.Parsable == SacctParsableNoEnding && i == len(p.Columns)-1) {
				b.WriteString(p.delim())
			}
			continue
		}
		w := c.Field.Width
		a := abs(w)
		switch {
		case v.Null:
			fixed(&b, "", w, false)
		case c.Field.Kind == SacctString:
			s := v.Text
			if len(s) > a && a > 0 {
				s = s[:a-1] + "+"
			}
			fixed(&b, s, w, true)
		case c.Field.Kind == SacctDate:
			fixed(&b, v.Text, w, true)
		default:
			fixed(&b, v.Text, w, false)
		}
	}
	b.WriteByte('\n')
	return b.String()
}

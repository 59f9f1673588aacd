package format

import (
	"fmt"
	"strconv"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
)

// SinfoRow is one line of sinfo: a group of nodes (of one partition, in one state, with
// similar configuration) as sinfo aggregates them. Min/Max pairs print as "min+" (or a range
// where Slurm prints one) when they differ. Empty strings are NULL and print "(null)".
type SinfoRow struct {
	// HasPartition is false for node lines that belong to no partition (prints "n/a").
	HasPartition      bool
	Partition         string
	PartitionDefault  bool
	PartitionState    string // "up", "down", "drain", "inactive"
	MaxTime           uint32 // minutes; Infinite
	DefaultTime       uint32 // minutes; Infinite, NoVal
	MinNodes          uint32 // partition job size limits
	MaxNodes          uint32 // Infinite = no limit
	RootOnly          bool
	MaxShare          uint16 // OverSubscribe: 0 EXCLUSIVE, 1 NO, n YES:n, with ShareForce FORCE:n
	AllowGroups       string // "" = all
	AllowAllocNodes   string // "" = all
	PriorityTier      uint16
	PriorityJobFactor uint16
	PreemptMode       string
	MaxCPUsPerNode    uint32 // Infinite = UNLIMITED

	NodeState                                     states.NodeState
	NodesAlloc, NodesIdle, NodesOther, NodesTotal uint32
	CPUsAlloc, CPUsIdle, CPUsOther, CPUsTotal     uint32
	MinCPUs, MaxCPUs                              uint32
	MinSockets, MaxSockets, MinCores, MaxCores    uint16
	MinThreads, MaxThreads                        uint16
	MinMemMB, MaxMemMB                            uint64
	MinDiskMB, MaxDiskMB                          uint32
	MinWeight, MaxWeight                          uint32
	MinCPULoad, MaxCPULoad                        uint32 // hundredths; NoVal = N/A
	MinFreeMemMB, MaxFreeMemMB                    uint64 // NoVal64 = N/A
	AllocMemMB                                    uint64
	Port                                          uint16

	Features, FeaturesAct, Gres, GresUsed, Comment, Extra string
	Version, Cluster                                      string
	Reason                                                string // "" = none
	ReasonUID                                             uint32 // NoVal = unknown
	ReasonUser                                            string // name of ReasonUID; "" if it has none
	ReasonTime                                            time.Time

	NodeList, Hostnames, NodeAddrs string // ranged host lists

	// NoConvert is sinfo --noconvert.
	NoConvert bool
}

// ShareForce marks a FORCE oversubscription in SinfoRow.MaxShare.
const ShareForce uint16 = 0x8000

// NoVal64 is Slurm's unset 64-bit value.
const NoVal64 uint64 = 0xfffffffffffffffe

func minMax32(min, max uint32, rng, units, noConvert bool) string {
	a, b := strconv.FormatUint(uint64(min), 10), strconv.FormatUint(uint64(max), 10)
	if units {
		a, b = ConvertNumUnit(float64(min), UnitNone, noConvert), ConvertNumUnit(float64(max), UnitNone, noConvert)
	}
	// Slurm prints each number into an 8-byte buffer: seven characters at most
	// (Weight=INFINITE shows as 4294967).
	a, b = cut7(a), cut7(b)
	switch {
	case min == max:
		return b
	case !rng:
		return a + "+"
	case max == Infinite:
		return a + "-infinite"
	}
	return a + "-" + b
}

// cut7 keeps what snprintf leaves of s in Slurm's char[8]: its first seven bytes.
func cut7(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

func minMax16(min, max uint16, rng, noConvert bool) string {
	a, b := ConvertNumUnit(float64(min), UnitNone, noConvert), ConvertNumUnit(float64(max), UnitNone, noConvert)
	switch {
	case min == max:
		return b
	case !rng:
		return a + "+"
	case max == Infinite16:
		return a + "-infinite"
	}
	return a + "-" + b
}

func minMax64(min, max uint64, rng bool, na func(uint64) string) string {
	a, b := na(min), na(max)
	switch {
	case min == max:
		return b
	case !rng:
		return a + "+"
	}
	return a + "-" + b
}

func mem64(v uint64) string {
	if v == NoVal64 {
		return "N/A"
	}
	return strconv.FormatUint(v, 10)
}

func load32(v uint64) string {
	if v == uint64(NoVal) {
		return "N/A"
	}
	return fmt.Sprintf("%.2f", float64(v)/100)
}

type sinfoField = Field[*SinfoRow]

func sstr(letter byte, names, title string, get func(*SinfoRow) string) sinfoField {
	return mkField(letter, names, title, func(r *SinfoRow) Cell { return Str(get(r)) })
}

// part prints a partition attribute, or "n/a" on a line without partition.
func part(letter byte, names, title string, get func(*SinfoRow) string) sinfoField {
	return sstr(letter, names, title, func(r *SinfoRow) string {
		if !r.HasPartition {
			return "n/a"
		}
		return get(r)
	})
}

func partTime(min uint32, unset string) string {
	switch min {
	case Infinite:
		return "infinite"
	case NoVal:
		return unset
	}
	return sinfoSecs(int64(min) * 60)
}

// sinfoSecs is sinfo's duration format: like Secs but without the one-year limit.
func sinfoSecs(t int64) string {
	s, m, h, d := t%60, (t/60)%60, (t/3600)%24, t/86400
	switch {
	case d > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, s)
	case h > 0:
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

func nodeState(get func(states.NodeState) string) func(*SinfoRow) string {
	return func(r *SinfoRow) string {
		if r.NodesTotal == 0 {
			return "n/a"
		}
		return get(r.NodeState)
	}
}

func reasonUser(r *SinfoRow, long bool) string {
	switch {
	case r.ReasonUID == NoVal:
		return "Unknown"
	case r.ReasonUser == "":
		return fmt.Sprintf("Unk(%d)", r.ReasonUID)
	case long:
		return fmt.Sprintf("%s(%d)", r.ReasonUser, r.ReasonUID)
	}
	return r.ReasonUser
}

// SinfoFields is every field of sinfo in Slurm 22.05, with -o letters, -O names and the
// reference's header titles.
var SinfoFields = []sinfoField{
	sstr(0, "allocmem", "ALLOCMEM", func(r *SinfoRow) string { return strconv.FormatUint(r.AllocMemMB, 10) }),
	part('S', "allocnodes", "ALLOCNODES", func(r *SinfoRow) string { return naOr(r.AllowAllocNodes, "all") }),
	part('a', "available", "AVAIL", func(r *SinfoRow) string { return r.PartitionState }),
	sstr('V', "cluster", "CLUSTER", func(r *SinfoRow) string { return naOr(r.Cluster, "N/A") }),
	sstr(0, "comment", "COMMENT", func(r *SinfoRow) string { return null(r.Comment) }),
	sstr('c', "cpus", "CPUS", func(r *SinfoRow) string { return minMax32(r.MinCPUs, r.MaxCPUs, false, true, r.NoConvert) }),
	sstr('O', "cpusload", "CPU_LOAD", func(r *SinfoRow) string {
		return minMax64(uint64(r.MinCPULoad), uint64(r.MaxCPULoad), true, load32)
	}),
	sstr('e', "freemem", "FREE_MEM", func(r *SinfoRow) string { return minMax64(r.MinFreeMemMB, r.MaxFreeMemMB, true, mem64) }),
	sstr('C', "cpusstate", "CPUS(A/I/O/T)", func(r *SinfoRow) string {
		return fmt.Sprintf("%d/%d/%d/%d", r.CPUsAlloc, r.CPUsIdle, r.CPUsOther, r.CPUsTotal)
	}),
	sstr('Y', "cores", "CORES", func(r *SinfoRow) string { return minMax16(r.MinCores, r.MaxCores, false, r.NoConvert) }),
	part('L', "defaulttime", "DEFAULTTIME", func(r *SinfoRow) string { return partTime(r.DefaultTime, "n/a") }),
	sstr('d', "disk", "TMP_DISK", func(r *SinfoRow) string { return minMax32(r.MinDiskMB, r.MaxDiskMB, false, false, r.NoConvert) }),
	sstr(0, "extra", "EXTRA", func(r *SinfoRow) string { return null(r.Extra) }),
	sstr('f', "features", "AVAIL_FEATURES", func(r *SinfoRow) string { return null(r.Features) }),
	sstr('b', "features_act", "ACTIVE_FEATURES", func(r *SinfoRow) string { return null(r.FeaturesAct) }),
	part('g', "groups", "GROUPS", func(r *SinfoRow) string { return naOr(r.AllowGroups, "all") }),
	sstr('G', "gres", "GRES", func(r *SinfoRow) string { return null(r.Gres) }),
	sstr(0, "gresused", "GRES_USED", func(r *SinfoRow) string { return null(r.GresUsed) }),
	sstr('B', "maxcpuspernode", "MAX_CPUS_PER_NODE", func(r *SinfoRow) string {
		if r.MaxCPUsPerNode == Infinite {
			return "UNLIMITED"
		}
		return strconv.FormatUint(uint64(r.MaxCPUsPerNode), 10)
	}),
	sstr('m', "memory", "MEMORY", func(r *SinfoRow) string { return minMax64(r.MinMemMB, r.MaxMemMB, false, mem64) }),
	sstr('D', "nodes", "NODES", func(r *SinfoRow) string { return strconv.FormatUint(uint64(r.NodesTotal), 10) }),
	withTitleNoCut(sstr('o', "nodeaddr", "NODE_ADDR", func(r *SinfoRow) string { return r.NodeAddrs })),
	sstr('A', "nodeai", "NODES(A/I)", func(r *SinfoRow) string { return fmt.Sprintf("%d/%d", r.NodesAlloc, r.NodesIdle) }),
	sstr('F', "nodeaiot", "NODES(A/I/O/T)", func(r *SinfoRow) string {
		return fmt.Sprintf("%d/%d/%d/%d", r.NodesAlloc, r.NodesIdle, r.NodesOther, r.NodesTotal)
	}),
	withTitleNoCut(sstr('n', "nodehost", "HOSTNAMES", func(r *SinfoRow) string { return r.Hostnames })),
	withTitleNoCut(sstr('N', "nodelist", "NODELIST", func(r *SinfoRow) string { return r.NodeList })),
	partitionField(),
	part('R', "partitionname", "PARTITION", func(r *SinfoRow) string { return r.Partition }),
	sstr(0, "port", "PORT", func(r *SinfoRow) string { return minMax16(r.Port, r.Port, false, r.NoConvert) }),
	sstr('M', "preemptmode", "PREEMPT_MODE", func(r *SinfoRow) string { return r.PreemptMode }),
	sstr('I', "priorityjobfactor", "PRIO_JOB_FACTOR", func(r *SinfoRow) string {
		return minMax16(r.PriorityJobFactor, r.PriorityJobFactor, true, r.NoConvert)
	}),
	sstr('p', "prioritytier", "PRIO_TIER", func(r *SinfoRow) string {
		return minMax16(r.PriorityTier, r.PriorityTier, true, r.NoConvert)
	}),
	sstr('E', "reason", "REASON", func(r *SinfoRow) string {
		if r.Reason == "" || len(r.Reason) >= 6 && r.Reason[:6] == "(null)" {
			return "none"
		}
		return r.Reason
	}),
	part('r', "root", "ROOT", func(r *SinfoRow) string {
		if r.RootOnly {
			return "yes"
		}
		return "no"
	}),
	sstr('h', "oversubscribe share", "OVERSUBSCRIBE", func(r *SinfoRow) string {
		force, val := r.MaxShare&ShareForce != 0, r.MaxShare&^ShareForce
		switch {
		case val == 0:
			return "EXCLUSIVE"
		case force:
			return fmt.Sprintf("FORCE:%d", val)
		case val == 1:
			return "NO"
		}
		return fmt.Sprintf("YES:%d", val)
	}),
	part('s', "size", "JOB_SIZE", func(r *SinfoRow) string {
		min := r.MinNodes
		if min < 1 && r.MaxNodes > 0 {
			min = 1
		}
		return minMax32(min, r.MaxNodes, true, true, r.NoConvert)
	}),
	sstr('t', "statecompact", "STATE", nodeState(states.NodeState.SinfoCompact)),
	sstr(0, "statecomplete", "STATECOMPLETE", nodeState(func(s states.NodeState) string {
		return lower(s.Complete())
	})),
	sstr('T', "statelong", "STATE", nodeState(states.NodeState.SinfoLong)),
	sstr('X', "sockets", "SOCKETS", func(r *SinfoRow) string { return minMax16(r.MinSockets, r.MaxSockets, false, r.NoConvert) }),
	sstr('z', "socketcorethread", "S:C:T", func(r *SinfoRow) string {
		return minMax16(r.MinSockets, r.MaxSockets, false, r.NoConvert) + ":" +
			minMax16(r.MinCores, r.MaxCores, false, r.NoConvert) + ":" +
			minMax16(r.MinThreads, r.MaxThreads, false, r.NoConvert)
	}),
	part('l', "time", "TIMELIMIT", func(r *SinfoRow) string { return partTime(r.MaxTime, "n/a") }),
	sstr('H', "timestamp", "TIMESTAMP", func(r *SinfoRow) string {
		if r.ReasonTime.IsZero() {
			return "Unknown"
		}
		return r.ReasonTime.Format(TimeLayout)
	}),
	sstr('Z', "threads", "THREADS", func(r *SinfoRow) string { return minMax16(r.MinThreads, r.MaxThreads, false, r.NoConvert) }),
	sstr('u', "user", "USER", func(r *SinfoRow) string { return reasonUser(r, false) }),
	sstr('U', "userlong", "USER", func(r *SinfoRow) string { return reasonUser(r, true) }),
	sstr('v', "version", "VERSION", func(r *SinfoRow) string { return naOr(r.Version, "N/A") }),
	sstr('w', "weight", "WEIGHT", func(r *SinfoRow) string { return minMax32(r.MinWeight, r.MaxWeight, false, false, r.NoConvert) }),
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// partitionField is %P: the default partition gets a "*", appended when it fits the column
// (or the column is unlimited), otherwise written over the last character that fits.
func partitionField() sinfoField {
	f := mkField('P', "partition", "PARTITION", func(r *SinfoRow) Cell { return Str(r.Partition) })
	f.Sized = func(r *SinfoRow, width int) Cell {
		if !r.HasPartition {
			return Str("n/a")
		}
		name := r.Partition
		if r.PartitionDefault {
			switch {
			case len(name) < width || width == 0:
				name += "*"
			case width > 0:
				name = name[:width-1] + "*"
			}
		}
		return Str(name)
	}
	return f
}

// SinfoFormat is a parsed sinfo format.
type SinfoFormat = Format[*SinfoRow]

// Minimum widths of sinfo's computed partition and node-list columns.
const (
	minPartFieldSize = 9
	minNodeFieldSize = 9
)

// SetSinfoFieldWidths applies sinfo's computed column widths, used with its built-in
// formats: with partField the partition columns (%P, %R) become as wide as the longest
// partition name (plus its "*"), at least 9; with nodeField the node-list columns (%N, %n)
// as wide as the longest node list, at least 9.
func SetSinfoFieldWidths(f *SinfoFormat, rows []*SinfoRow, partField, nodeField bool) {
	pw, nw := minPartFieldSize, minNodeFieldSize
	for _, r := range rows {
		if r.HasPartition {
			w := len(r.Partition)
			if r.PartitionDefault {
				w++
			}
			pw = max(pw, w)
		}
		nw = max(nw, len(r.NodeList))
	}
	for i := range f.Items {
		it := &f.Items[i]
		if it.Kind != ItemField {
			continue
		}
		switch f.Table.Fields[it.Field].Letter {
		case 'P', 'R':
			if partField {
				it.Width = pw
			}
		case 'N', 'n':
			if nodeField {
				it.Width = nw
			}
		}
	}
}

// Sinfo is the table behind sinfo.
var Sinfo = &Table[*SinfoRow]{
	Command:            "sinfo",
	Fields:             SinfoFields,
	Dialect:            DialectSinfo,
	InvalidLetter:      "Invalid node format specification: %s",
	RawLetterInMessage: true,
	InvalidName:        "sinfo: error: Invalid job format specification: %s",
	AllUpperSuffix:     " ",
	LongAll:            true,
}

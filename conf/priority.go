package conf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// PriorityConfig is the priority/multifactor part of slurm.conf as Slurm 22.05 reads it
// (read_config.c): times in seconds, flags as a set, Slurm's defaults filled in. It is filled
// whatever PriorityType is; `scontrol show config` prints it only when PriorityType is not
// priority/basic.
type PriorityConfig struct {
	DecayHalfLife    uint32 // PriorityDecayHalfLife, seconds (default 7 days)
	CalcPeriod       uint32 // PriorityCalcPeriod, seconds (default 5 minutes)
	MaxAge           uint32 // PriorityMaxAge, seconds (default 7 days)
	FavorSmall       bool
	Flags            PriorityFlags
	UsageResetPeriod string // NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY
	WeightAge        uint32
	WeightAssoc      uint32
	WeightFairShare  uint32
	WeightJobSize    uint32
	WeightPartition  uint32
	WeightQOS        uint32
	WeightTRES       string // "" when unset
	// FairShareDampeningFactor is shown with the priority block (default 1).
	FairShareDampeningFactor uint16
}

// PriorityFlags is the set of PriorityFlags words Slurm recognises.
type PriorityFlags uint16

// The priority flags, in the order Slurm prints them.
const (
	PriorityAccrueAlways PriorityFlags = 1 << iota
	PrioritySmallRelativeToTime
	PriorityCalculateRunning
	PriorityDepthOblivious
	PriorityFairTree // on unless NO_FAIR_TREE or DEPTH_OBLIVIOUS is given
	PriorityIncrOnly
	PriorityMaxTRES
	PriorityNoNormalAssoc
	PriorityNoNormalPart
	PriorityNoNormalQOS
	PriorityNoNormalTRES
)

const priorityNoNormalAll = PriorityNoNormalAssoc | PriorityNoNormalPart | PriorityNoNormalQOS | PriorityNoNormalTRES

// parsePriorityFlags reads a PriorityFlags value as Slurm does: each word is looked for
// anywhere in the value, case-insensitively (so "NO_NORMAL_ALL" also contains every
// NO_NORMAL_* word, and unknown words are silently ignored).
func parsePriorityFlags(s string) PriorityFlags {
	u := strings.ToUpper(s)
	f := PriorityFairTree
	for _, w := range []struct {
		word string
		flag PriorityFlags
	}{{"ACCRUE_ALWAYS", PriorityAccrueAlways}, {"SMALL_RELATIVE_TO_TIME", PrioritySmallRelativeToTime},
		{"CALCULATE_RUNNING", PriorityCalculateRunning}, {"INCR_ONLY", PriorityIncrOnly}, {"MAX_TRES", PriorityMaxTRES},
		{"NO_NORMAL_ALL", priorityNoNormalAll}, {"NO_NORMAL_ASSOC", PriorityNoNormalAssoc},
		{"NO_NORMAL_PART", PriorityNoNormalPart}, {"NO_NORMAL_QOS", PriorityNoNormalQOS},
		{"NO_NORMAL_TRES", PriorityNoNormalTRES}} {
		if strings.Contains(u, w.word) {
			f |= w.flag
		}
	}
	if strings.Contains(u, "DEPTH_OBLIVIOUS") {
		f = f&^PriorityFairTree | PriorityDepthOblivious
	} else if strings.Contains(u, "NO_FAIR_TREE") {
		f &^= PriorityFairTree
	}
	return f
}

// String renders the flags as `scontrol show config` does: comma-separated words in a fixed
// order, NO_FAIR_TREE when fair tree is off, and "" for the default (fair tree alone).
func (f PriorityFlags) String() string {
	var words []string
	for _, w := range []struct {
		flag PriorityFlags
		word string
	}{{PriorityAccrueAlways, "ACCRUE_ALWAYS"}, {PrioritySmallRelativeToTime, "SMALL_RELATIVE_TO_TIME"},
		{PriorityCalculateRunning, "CALCULATE_RUNNING"}, {PriorityDepthOblivious, "DEPTH_OBLIVIOUS"}} {
		if f&w.flag != 0 {
			words = append(words, w.word)
		}
	}
	if f&PriorityFairTree == 0 {
		words = append(words, "NO_FAIR_TREE")
	}
	if f&PriorityIncrOnly != 0 {
		words = append(words, "INCR_ONLY")
	}
	if f&PriorityMaxTRES != 0 {
		words = append(words, "MAX_TRES")
	}
	// Slurm 22.05 prints NO_NORMAL_ALL as soon as any one NO_NORMAL_* flag is set (its test
	// is "any of", not "all of"), so the per-kind words below are never reached.
	if f&priorityNoNormalAll != 0 {
		words = append(words, "NO_NORMAL_ALL")
	}
	return strings.Join(words, ",")
}

// priorityResetPeriods are PriorityUsageResetPeriod's values (case-insensitive).
var priorityResetPeriods = []string{"NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "YEARLY"}

// priorityTime converts a PriorityDecayHalfLife/PriorityCalcPeriod/PriorityMaxAge value to
// Slurm's C int minutes (INFINITE is -1); ok is false when malformed.
func priorityTime(s string) (mins int32, ok bool) {
	m, err := slurmtime.ParseTimeLimit(s)
	if err != nil {
		return 0, false
	}
	return int32(m), true
}

// priority fills c.Priority and checks what read_config.c checks.
func (l *loader) priority(c *Config) {
	p := &c.Priority
	p.DecayHalfLife, p.CalcPeriod, p.MaxAge = 604800, 300, 604800
	for _, t := range []struct {
		key string
		dst *uint32
		min int32 // the smallest valid value (INFINITE aside when min is 0)
	}{{"PriorityDecayHalfLife", &p.DecayHalfLife, 0}, {"PriorityCalcPeriod", &p.CalcPeriod, 1},
		{"PriorityMaxAge", &p.MaxAge, 0}} {
		v, set := l.raw[t.key]
		if !set {
			continue
		}
		m, ok := priorityTime(v.Value)
		if !ok || m < t.min && !(t.min == 0 && m == -1) {
			l.errorf(t.key, "Bad value \"%s\" for %s", v.Value, t.key)
			continue
		}
		// Slurm stores minutes*60 in an unsigned 32-bit field (INFINITE wraps).
		*t.dst = uint32(m * 60)
	}
	p.FavorSmall = c.boolean("PriorityFavorSmall")
	p.Flags = PriorityFairTree
	if v, set := l.raw["PriorityFlags"]; set {
		p.Flags = parsePriorityFlags(v.Value)
	}
	p.UsageResetPeriod = "NONE"
	if v, set := l.raw["PriorityUsageResetPeriod"]; set {
		p.UsageResetPeriod = ""
		for _, r := range priorityResetPeriods {
			if strings.EqualFold(v.Value, r) {
				p.UsageResetPeriod = r
			}
		}
		if p.UsageResetPeriod == "" {
			l.errorf("PriorityUsageResetPeriod", "Bad value \"%s\" for PriorityUsageResetPeriod", v.Value)
			p.UsageResetPeriod = "NONE"
		}
	} else if p.DecayHalfLife == 0 {
		l.errorf("PriorityDecayHalfLife", "You have to either have PriorityDecayHalfLife != 0 or PriorityUsageResetPeriod set to something or the priority plugin will result in rolling over.")
	}
	p.WeightAge = uint32(c.uint("PriorityWeightAge", 0))
	p.WeightAssoc = uint32(c.uint("PriorityWeightAssoc", 0))
	p.WeightFairShare = uint32(c.uint("PriorityWeightFairshare", 0))
	p.WeightJobSize = uint32(c.uint("PriorityWeightJobSize", 0))
	p.WeightPartition = uint32(c.uint("PriorityWeightPartition", 0))
	p.WeightQOS = uint32(c.uint("PriorityWeightQOS", 0))
	p.WeightTRES = c.str("PriorityWeightTRES")
	total := uint64(p.WeightAge) + uint64(p.WeightAssoc) + uint64(p.WeightFairShare) + uint64(p.WeightJobSize) +
		uint64(p.WeightPartition) + uint64(p.WeightQOS)
	if total > 0xffffffff {
		l.warnf("PriorityWeightAge", "PriorityWeight values too high, job priority value may overflow")
	}
	p.FairShareDampeningFactor = uint16(c.uint("FairShareDampeningFactor", 1))
}

// secs2TimeStr formats seconds as Slurm's secs2time_str: [days-]HH:MM:SS, UNLIMITED for
// INFINITE.
func secs2TimeStr(secs uint32) string {
	if secs == Infinite32 {
		return "UNLIMITED"
	}
	s := int64(secs)
	if d := s / 86400; d > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, s/3600%24, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d:%02d", s/3600%24, s/60%60, s%60)
}

// priorityLines are the show config lines of the multifactor block, in Slurm's order; the
// caller prints them in place of the single PriorityType line when PriorityType is not
// priority/basic.
func (c *Config) priorityLines() [][2]string {
	p := c.Priority
	u := func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
	return [][2]string{
		{"PriorityDecayHalfLife", secs2TimeStr(p.DecayHalfLife)},
		{"PriorityCalcPeriod", secs2TimeStr(p.CalcPeriod)},
		{"PriorityFavorSmall", yesNo(p.FavorSmall)},
		{"PriorityFlags", p.Flags.String()},
		{"PriorityMaxAge", secs2TimeStr(p.MaxAge)},
		{"PriorityUsageResetPeriod", p.UsageResetPeriod},
		{"PriorityType", c.PriorityType},
		{"PriorityWeightAge", u(p.WeightAge)},
		{"PriorityWeightAssoc", u(p.WeightAssoc)},
		{"PriorityWeightFairShare", u(p.WeightFairShare)},
		{"PriorityWeightJobSize", u(p.WeightJobSize)},
		{"PriorityWeightPartition", u(p.WeightPartition)},
		{"PriorityWeightQOS", u(p.WeightQOS)},
		{"PriorityWeightTRES", or(p.WeightTRES, "(null)")},
	}
}

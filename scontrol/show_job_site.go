package main

import (
	"strconv"

	"github.com/orbit-hpc/orbit/internal/wire"
)

// The site options' fields of `scontrol show job` (--cores-per-socket, --cpu-freq, ...), as
// the controller keeps them: 0 is "not given".

// countOrStar prints a 16-bit request count as Slurm's record does: "*" when it was not given
// (NO_VAL16) or is unbounded (INFINITE16, what --hint=multithread makes --ntasks-per-core).
func countOrStar(v uint32) string {
	if v == 0 || v >= 0xfffe {
		return "*"
	}
	return strconv.FormatUint(uint64(v), 10)
}

// Slurm's CPU_FREQ_* values: a synonym or governor has the range flag set.
const cpuFreqRange = 0x80000000

var cpuFreqNames = map[uint32]string{
	0x80000001: "Low", 0x80000002: "Medium", 0x80000004: "Highm1", 0x80000003: "High",
	0x88000000: "Conservative", 0x82000000: "Performance", 0x81000000: "PowerSave",
	0x80800000: "UserSpace", 0x84000000: "OnDemand", 0x80400000: "SchedUtil",
}

// cpuFreqDebug is Slurm's cpu_freq_debug as scontrol calls it: "CPU_min_freq=X CPU_max_freq=Y
// Governor=Z" with the parts the job gave, "" when it gave none. The separators follow
// Slurm's: a part left out drops the space after the one before it only in some places, so
// "--cpu-freq=2000000" shows "CPU_max_freq=2000000 " (a trailing space).
func cpuFreqDebug(lo, hi, gov uint32) string {
	set := func(v uint32) bool { return v != 0 && v != wire.NoVal }
	name := func(v uint32) string {
		if v&cpuFreqRange == 0 {
			return strconv.FormatUint(uint64(v), 10)
		}
		if n, ok := cpuFreqNames[v]; ok {
			return n
		}
		return "Unknown"
	}
	if !set(lo) && !set(hi) && !set(gov) {
		return ""
	}
	var minS, maxS, govS string
	sep2, sep3 := " ", " "
	if set(lo) {
		minS = "CPU_min_freq=" + name(lo)
	} else {
		sep2 = ""
	}
	if set(hi) {
		maxS = "CPU_max_freq=" + name(hi)
	} else {
		sep3 = ""
	}
	if set(gov) {
		govS = "Governor=" + name(gov)
	}
	return minS + sep2 + maxS + sep3 + govS
}

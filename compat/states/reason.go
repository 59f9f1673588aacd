package states

import (
	"strconv"
	"strings"
)

// String returns the name Slurm prints for the reason (job_reason_string), e.g. "Resources",
// "JobHeldUser"; a number outside the table prints as its decimal value, as in Slurm.
// Several numbers share a name (WaitPartDown and FailDownPartition are both
// "PartitionDown"; WaitQOSMaxBBMinsPerJob prints Slurm's "AssocMaxBBMinutesPerJob").
func (r Reason) String() string {
	if r < reasonEnd {
		return reasonNames[r]
	}
	return strconv.FormatUint(uint64(r), 10)
}

// ParseReason finds the reason with the given name, case-insensitively (job_reason_num);
// where names are shared the lowest number wins.
func ParseReason(name string) (Reason, bool) {
	for r := Reason(0); r < reasonEnd; r++ {
		if strings.EqualFold(reasonNames[r], name) {
			return r, true
		}
	}
	return 0, false
}

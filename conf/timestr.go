package conf

import "github.com/orbit-hpc/orbit/compat/slurmtime"

// timeStr2Mins converts a partition MaxTime/DefaultTime to minutes as Slurm's time_str2mins
// does (UNLIMITED/INFINITE/-1 → Infinite32); -1 means malformed.
func timeStr2Mins(s string) int64 {
	m, err := slurmtime.ParseTimeLimit(s)
	if err != nil {
		return -1
	}
	return int64(m)
}

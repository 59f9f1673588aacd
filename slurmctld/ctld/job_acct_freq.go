package ctld

import (
	"strconv"
	"strings"
)

// checkAcctFreq is Slurm's acct_gather_check_acct_freq_task at submission: a job with a
// memory limit must have its tasks sampled, no less often than JobAcctGatherFrequency says,
// so --acctg-freq may not turn task sampling off (0) nor slow it down
// (ESLURMD_INVALID_ACCT_FREQ, "Invalid accounting frequency requested").
func checkAcctFreq(acctgFreq, confFreq string, memLimit bool) error {
	if !memLimit || acctgFreq == "" {
		return nil
	}
	limit := acctFreqTask(confFreq)
	if limit == -1 {
		limit = 0xfffe // unset: no bound but "off"
	}
	if limit == 0 {
		return nil // the site samples nothing: nothing to keep
	}
	switch f := acctFreqTask(acctgFreq); {
	case f == -1:
		return nil
	case f == 0 || f > limit:
		return slurmErr(errnoInvalidAcctFreq)
	}
	return nil
}

// acctFreqTask is the task sampling interval of an accounting frequency ("30", "task=30",
// "energy=5,task=30"; Slurm's acct_gather_parse_freq for PROFILE_TASK): a leading number
// (the old form), else the number after "task=", -1 when there is none.
func acctFreqTask(freq string) int {
	if n, ok := leadingInt(freq); ok {
		return n
	}
	if i := strings.Index(strings.ToLower(freq), "task="); i >= 0 {
		if n, ok := leadingInt(freq[i+5:]); ok {
			return n
		}
	}
	return -1
}

// leadingInt reads the number s starts with as strtol does (spaces, a sign, digits).
func leadingInt(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '+' || s[end] == '-') {
		end++
	}
	digits := end
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == digits {
		return 0, false
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0, false
	}
	return n, true
}

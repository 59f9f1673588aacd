package slurmtime

import "testing"

func TestParseTimeLimitSecs_Valid(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
	}{
		// Vectors from Slurm's own unit test of time_str2secs.
		{"2:60:15", 2*3600 + 3600 + 15},
		{"0:0:15", 15},
		{"0:60:0", 3600},
		{"0:0:0", 0},
		{"0-1:60:15", 3600 + 3600 + 15},
		{"1-1:60:15", 86400 + 3600 + 3600 + 15},
		{"365-1:60:15", 365*86400 + 3600 + 3600 + 15},
		{"365-0:0:0", 365 * 86400},
		// Forms listed in sbatch(1).
		{"5", 300},
		{"5:30", 330},
		{"1:00:00", 3600},
		{"2-3", 2*86400 + 3*3600},
		{"2-3:04", 2*86400 + 3*3600 + 4*60},
		{"2-3:04:05", 2*86400 + 3*3600 + 4*60 + 5},
		{"5-", 5 * 86400},
		{"0-00:60:00", 3600},
		{"300:00:00", 300 * 3600},
		{"-1", Infinite},
		{"INFINITE", Infinite},
		{"infinite", Infinite},
		{"UnLimited", Infinite},
		// A leading '-' is read as negative days and wraps as Slurm's C int does.
		{"-5", uint32(0xFFFFFFFF - 5*86400 + 1)},
	}
	for _, tt := range tests {
		got, err := ParseTimeLimitSecs(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseTimeLimitSecs(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseTimeLimitSecs_Invalid(t *testing.T) {
	for _, in := range []string{
		"", "-0:-0:-0", " 0:0:0 ", "abc", "1:", ":1", "1::", "1:2:3:4", "1-2-3", "1:2-3",
		"-", "1--2", "1-:", "1-2::", "5m", "1.5", "+5", "-0-1", "∞",
	} {
		if got, err := ParseTimeLimitSecs(in); err == nil {
			t.Errorf("ParseTimeLimitSecs(%q) = %d, want an error", in, got)
		}
	}
}

func TestParseTimeLimit_RoundsUp(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
	}{
		{"0", 0}, {"0:30", 1}, {"1:30", 2}, {"1:00", 1}, {"3", 3}, {"3:00", 3},
		{"0:0:59", 1}, {"0:1:1", 2}, {"1-0", 1440}, {"UNLIMITED", Infinite},
		// Values the reference accepted and printed (see testsuite/slurmtime).
		{"99999999999", 4293812088},
		{"3000000:00", 3000000},
	}
	for _, tt := range tests {
		got, err := ParseTimeLimit(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseTimeLimit(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseTimeLimitOption_ZeroIsInfinite(t *testing.T) {
	got, err := ParseTimeLimitOption("--time", "0")
	if err != nil || got != Infinite {
		t.Errorf("ParseTimeLimitOption(0) = %d, %v; want Infinite", got, err)
	}
	_, err = ParseTimeLimitOption("--time-min", "abc")
	if err == nil || err.Error() != "Invalid --time-min specification" {
		t.Errorf("ParseTimeLimitOption(abc) error = %v", err)
	}
}

func TestFormatTimeLimit(t *testing.T) {
	tests := []struct {
		min                         uint32
		scontrol, squeue, sinfo, pt string
	}{
		{0, "00:00:00", "0:00", "0:00", "00:00:00"},
		{1, "00:01:00", "1:00", "1:00", "00:01:00"},
		{65, "01:05:00", "1:05:00", "1:05:00", "01:05:00"},
		{1440, "1-00:00:00", "1-00:00:00", "1-00:00:00", "1-00:00:00"},
		{1501, "1-01:01:00", "1-01:01:00", "1-01:01:00", "1-01:01:00"},
		{366 * 1440, "366-00:00:00", "INVALID", "366-00:00:00", "366-00:00:00"},
		{Infinite, "UNLIMITED", "UNLIMITED", "infinite", "UNLIMITED"},
		{NoVal, "Partition_Limit", "NOT_SET", "n/a", "NONE"},
	}
	for _, tt := range tests {
		if got := FormatTimeLimit(tt.min); got != tt.scontrol {
			t.Errorf("FormatTimeLimit(%d) = %q, want %q", tt.min, got, tt.scontrol)
		}
		if got := FormatTimeLimitSqueue(tt.min); got != tt.squeue {
			t.Errorf("FormatTimeLimitSqueue(%d) = %q, want %q", tt.min, got, tt.squeue)
		}
		if got := FormatTimeLimitSinfo(tt.min); got != tt.sinfo {
			t.Errorf("FormatTimeLimitSinfo(%d) = %q, want %q", tt.min, got, tt.sinfo)
		}
		if got := FormatTimeLimitPartition(tt.min); got != tt.pt {
			t.Errorf("FormatTimeLimitPartition(%d) = %q, want %q", tt.min, got, tt.pt)
		}
	}
}

func TestFormatSecs(t *testing.T) {
	tests := []struct {
		secs          int64
		squeue, sacct string
	}{
		{0, "0:00", "00:00:00"},
		{5, "0:05", "00:00:05"},
		{65, "1:05", "00:01:05"},
		{3600, "1:00:00", "01:00:00"},
		{86399, "23:59:59", "23:59:59"},
		{86400, "1-00:00:00", "1-00:00:00"},
		{-1, "INVALID", "INVALID"},
		{yearSeconds, "365-00:00:00", "365-00:00:00"},
		{yearSeconds + 1, "INVALID", "365-00:00:01"},
	}
	for _, tt := range tests {
		if got := FormatSecs(tt.secs); got != tt.squeue {
			t.Errorf("FormatSecs(%d) = %q, want %q", tt.secs, got, tt.squeue)
		}
		if got := FormatElapsed(tt.secs); got != tt.sacct {
			t.Errorf("FormatElapsed(%d) = %q, want %q", tt.secs, got, tt.sacct)
		}
	}
}

func FuzzParseTimeLimit(f *testing.F) {
	for _, s := range []string{"5", "5:30", "1:2:3", "1-2", "1-2:3", "1-2:3:4", "-1", "UNLIMITED",
		"infinite", "0", "", "abc", "99999999999", "-5", "1-", "::", "1:2:3:4", "2147483647",
		"9223372036854775808", "-9223372036854775809-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseTimeLimit(s)
		if err != nil {
			return
		}
		secs, err := ParseTimeLimitSecs(s)
		if err != nil {
			t.Fatalf("ParseTimeLimit(%q) ok but ParseTimeLimitSecs fails: %v", s, err)
		}
		// Only limits whose seconds fit Slurm's C int without wrapping re-parse to themselves.
		if secs == Infinite || int32(secs) < 0 || m > (1<<31-1)/60 {
			return
		}
		out := FormatTimeLimit(m)
		back, err := ParseTimeLimit(out)
		if err != nil || back != m {
			t.Fatalf("ParseTimeLimit(%q) = %d, printed %q, re-parsed %d, %v", s, m, out, back, err)
		}
	})
}

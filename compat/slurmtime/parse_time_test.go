package slurmtime

import (
	"errors"
	"testing"
	"time"
)

// testNow is a Friday morning; every relative case below is computed from it.
var testNow = time.Date(2024, 3, 15, 10, 30, 45, 0, time.UTC)

func at(y int, mo time.Month, d, h, mi, s int) time.Time {
	return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
}

func TestParseTime_Valid(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"now", at(2024, 3, 15, 10, 30, 45)},
		{"now+60", at(2024, 3, 15, 10, 31, 45)},
		{"now+1hour", at(2024, 3, 15, 11, 30, 45)},
		{"now+2hours", at(2024, 3, 15, 12, 30, 45)},
		{"now-1day", at(2024, 3, 14, 10, 30, 45)},
		{"now+1week", at(2024, 3, 22, 10, 30, 45)},
		{"now + 5 minutes", at(2024, 3, 15, 10, 35, 45)},
		{"NOW+3SECONDS", at(2024, 3, 15, 10, 30, 48)},
		{"now+1minute", at(2024, 3, 15, 10, 31, 45)},
		{"today", at(2024, 3, 15, 0, 0, 0)},
		{"tomorrow", at(2024, 3, 16, 0, 0, 0)},
		{"midnight", at(2024, 3, 16, 0, 0, 0)},
		{"noon", at(2024, 3, 15, 12, 0, 0)},
		{"fika", at(2024, 3, 15, 15, 0, 0)},
		{"teatime", at(2024, 3, 15, 16, 0, 0)},
		{"today noon", at(2024, 3, 15, 12, 0, 0)},
		{"tomorrow teatime", at(2024, 3, 16, 16, 0, 0)},
		{"16:00", at(2024, 3, 15, 16, 0, 0)},
		{"10:30", at(2024, 3, 16, 10, 30, 0)}, // this minute already started: tomorrow
		{"10:31", at(2024, 3, 15, 10, 31, 0)},
		{"9:05:07", at(2024, 3, 16, 9, 5, 7)},
		{"4:00pm", at(2024, 3, 15, 16, 0, 0)},
		{"4:00 PM", at(2024, 3, 15, 16, 0, 0)},
		{"12:00am", at(2024, 3, 16, 0, 0, 0)},
		{"12:15pm", at(2024, 3, 15, 12, 15, 0)},
		{"11:00am", at(2024, 3, 15, 11, 0, 0)},
		{"2024-12-25", at(2024, 12, 25, 0, 0, 0)},
		{"2024-12-25T08:09", at(2024, 12, 25, 8, 9, 0)},
		{"2024-12-25T08:09:10", at(2024, 12, 25, 8, 9, 10)},
		{"2023-01-02", at(2023, 1, 2, 0, 0, 0)},
		{"12/25", at(2024, 12, 25, 0, 0, 0)},
		{"01/02", at(2025, 1, 2, 0, 0, 0)}, // already past this year: next year
		{"03/15", at(2025, 3, 15, 0, 0, 0)},
		{"12/25/25", at(2025, 12, 25, 0, 0, 0)},
		{"12.25.25", at(2025, 12, 25, 0, 0, 0)},
		{"1225", at(2024, 12, 25, 0, 0, 0)},
		{"122526", at(2026, 12, 25, 0, 0, 0)},
		{"12/25-14:00", at(2024, 12, 25, 14, 0, 0)},
		{"12/25/26-14:00:30", at(2026, 12, 25, 14, 0, 30)},
		{"02/31/25", at(2025, 3, 3, 0, 0, 0)}, // mktime normalises
		{"uts1700000000", time.Unix(1700000000, 0).UTC()},
		{"UTS1000000", time.Unix(1000000, 0).UTC()},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in, testNow)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseTime_NothingIsZero(t *testing.T) {
	for _, in := range []string{"", "   ", "-", "T"} {
		got, err := ParseTime(in, testNow)
		if err != nil || !got.IsZero() {
			t.Errorf("ParseTime(%q) = %v, %v; want the zero time", in, got, err)
		}
	}
}

func TestParseTime_Invalid(t *testing.T) {
	tests := []struct {
		in  string
		pos int
	}{
		{"garbage", 0},
		{"25:00", 0},
		{"Today", 1}, // 'T' is skipped before keywords are matched
		{"now+", 3},
		{"now+1h", 4},
		{"now*2", 3},
		{"13/01", 0},
		{"12/32", 3},
		{"10:6", 4},
		{"10:60", 3},
		{"10:30:61", 6},
		{"13:00pm", 5},
		{"2024-2-3", 0},  // the ISO form needs two-digit months and days
		{"elevenses", 0}, // added after Slurm 22.05
		{"uts5", 0},
		{"uts1700000000x", 0},
		{"2024-13-01", 5},
	}
	for _, tt := range tests {
		_, err := ParseTime(tt.in, testNow)
		var te *TimeError
		if !errors.As(err, &te) || te.Pos != tt.pos {
			t.Errorf("ParseTime(%q) error = %v; want pos=%d", tt.in, err, tt.pos)
		}
	}
}

func TestTimeError_Text(t *testing.T) {
	_, err := ParseTime("garbage", testNow)
	if err == nil || err.Error() != "Invalid time specification (pos=0): garbage" {
		t.Errorf("error text = %v", err)
	}
}

func TestParseTimePast(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"09:00", at(2024, 3, 15, 9, 0, 0)},
		{"11:00", at(2024, 3, 15, 11, 0, 0)},
		{"12/25", at(2023, 12, 25, 0, 0, 0)},
		{"01/02", at(2024, 1, 2, 0, 0, 0)},
	}
	for _, tt := range tests {
		got, err := ParseTimePast(tt.in, testNow)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseTimePast(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseTimeOption(t *testing.T) {
	_, err := ParseTimeOption("--begin", "", testNow)
	var oe *OptionError
	if !errors.As(err, &oe) || oe.Error() != "Invalid --begin specification" || oe.Parse != nil {
		t.Errorf("empty --begin: %#v", err)
	}
	_, err = ParseTimeOption("--deadline", "garbage", testNow)
	if !errors.As(err, &oe) || oe.Error() != "Invalid --deadline specification" || oe.Parse == nil ||
		oe.Parse.Error() != "Invalid time specification (pos=0): garbage" {
		t.Errorf("garbage --deadline: %#v", err)
	}
	got, err := ParseTimeOption("--begin", "now+1hour", testNow)
	if err != nil || !got.Equal(at(2024, 3, 15, 11, 30, 45)) {
		t.Errorf("--begin=now+1hour = %v, %v", got, err)
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"now", "now+1hour", "now-3days", "today", "tomorrow noon", "16:00",
		"4:00pm", "2024-12-25T08:09:10", "12/25/25-14:00", "1225", "12.25.25", "uts1700000000",
		"garbage", "", "now+", "  now+5", "9999-99-99", "0000-01-01", "1899-12-31", "now+99999999999999999weeks"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s, testNow)
		if err != nil {
			var te *TimeError
			if !errors.As(err, &te) || te.Input != s {
				t.Fatalf("ParseTime(%q) error %v is not a TimeError for the input", s, err)
			}
			return
		}
		if !got.IsZero() && got.Location() != testNow.Location() {
			t.Fatalf("ParseTime(%q) = %v, not in now's location", s, got)
		}
		_, _ = ParseTimePast(s, testNow)
	})
}

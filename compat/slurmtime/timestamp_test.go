package slurmtime

import (
	"testing"
	"time"
)

func TestFormatTimestamp(t *testing.T) {
	if got := FormatTimestamp(at(2026, 11, 23, 1, 24, 30)); got != "2026-11-23T01:24:30" {
		t.Errorf("FormatTimestamp = %q", got)
	}
	if got := FormatTimestamp(time.Time{}); got != "Unknown" {
		t.Errorf("FormatTimestamp(zero) = %q, want Unknown", got)
	}
	for secs, want := range map[int64]string{0: "Unknown", 4294967295: "Unknown", 4294967294: "None",
		1900000000: "2030-03-17T17:46:40"} {
		if got := FormatUnix(secs, time.UTC); got != want {
			t.Errorf("FormatUnix(%d) = %q, want %q", secs, got, want)
		}
	}
}

func TestTimeFormat(t *testing.T) {
	now := at(2024, 3, 15, 10, 30, 45) // a Friday
	tests := []struct {
		env  string
		when time.Time
		want string
	}{
		{"", at(2024, 3, 14, 9, 5, 0), "2024-03-14T09:05:00"},
		{"standard", at(2024, 3, 14, 9, 5, 0), "2024-03-14T09:05:00"},
		{"relative", at(2024, 3, 14, 9, 5, 0), "Ystday 09:05"},
		{"relative", at(2024, 3, 15, 9, 5, 7), "09:05:07"},
		{"relative", at(2024, 3, 16, 9, 5, 0), "Tomorr 09:05"},
		{"relative", at(2024, 3, 18, 9, 5, 0), "Mon 09:05"},
		{"relative", at(2024, 3, 30, 9, 5, 0), "30 Mar 09:05"},
		{"relative", at(2024, 3, 1, 9, 5, 0), "1 Mar 09:05"},
		{"relative", at(2026, 3, 1, 9, 5, 0), "1 Mar 2026"},
		{"%D %T", at(2024, 3, 14, 9, 5, 0), "03/14/24 09:05:00"},
		{"%a %b %e %I:%M %p", at(2024, 3, 4, 21, 5, 0), "Mon Mar  4 09:05 PM"},
		{"%s|%j|%%|%-d|%Q", at(2024, 3, 4, 21, 5, 0), "1709586300|064|%|4|%Q"},
		// Printed by the reference's scontrol for EligibleTime=2030-03-04T21:05:00 (UTC).
		{"%s|%j|%%|%-d|%Q", at(2030, 3, 4, 21, 5, 0), "1898888700|063|%|4|%Q"},
		{"relative", at(2030, 3, 4, 21, 5, 0), "4 Mar 2030"},
	}
	for _, tt := range tests {
		f, err := ParseTimeFormat(tt.env)
		if err != nil {
			t.Fatalf("ParseTimeFormat(%q): %v", tt.env, err)
		}
		if got := f.Format(tt.when, now); got != tt.want {
			t.Errorf("SLURM_TIME_FORMAT=%q: %v prints %q, want %q", tt.env, tt.when, got, tt.want)
		}
	}
	for _, bad := range []string{"iso", "%Y-%m-%d %H:%M:%S and much more text"} {
		if _, err := ParseTimeFormat(bad); err == nil || err.Error() != "invalid SLURM_TIME_FORMAT = '"+bad+"'" {
			t.Errorf("ParseTimeFormat(%q) error = %v", bad, err)
		}
	}
}

func BenchmarkParseTime(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ParseTime("2030-12-25T08:09:10", testNow); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTimeLimit(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := ParseTimeLimit("1-02:03:04"); err != nil {
			b.Fatal(err)
		}
	}
}

package loglevel

import "testing"

// TestParseAndName: Slurm's level numbers and names both ways, with log_string2num's
// leniencies (case, atoi on a leading digit) and its NO_VAL16 for an unknown name.
func TestParseAndName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint16
	}{
		{"quiet", 0}, {"FATAL", 1}, {"error", 2}, {"Info", 3}, {"verbose", 4}, {"debug", 5},
		{"debug2", 6}, {"debug5", 9}, {"2", 2}, {"7x", 7}, {"", NoVal16}, {"bogus", NoVal16}, {"-1", NoVal16},
	} {
		if got := Parse(tc.in); got != tc.want {
			t.Errorf("Parse(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	for n, want := range map[uint16]string{0: "quiet", 4: "verbose", 7: "debug3", 9: "debug5", End: "(null)", 11: "unknown", NoVal16: "unknown"} {
		if got := Name(n); got != want {
			t.Errorf("Name(%d) = %q, want %q", n, got, want)
		}
	}
}

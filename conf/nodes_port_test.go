package conf

import "testing"

// TestSplitPortRange pins the "lo-hi" shape expandPorts takes as a port range: digits, one
// dash, digits; everything else is left to the hostlist form or refused.
func TestSplitPortRange(t *testing.T) {
	tests := []struct {
		in     string
		lo, hi string
		ok     bool
	}{
		{"17000-17003", "17000", "17003", true},
		{"1-3", "1", "3", true},
		{"7-6", "7", "6", true}, // shape only: expandPorts refuses hi < lo
		{"17000", "", "", false},
		{"-3", "", "", false},
		{"1-", "", "", false},
		{"1-2-3", "", "", false},
		{"[1-2]", "", "", false},
		{"a-b", "", "", false},
		{" 1-2", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		lo, hi, ok := splitPortRange(tt.in)
		if ok != tt.ok || (ok && (lo != tt.lo || hi != tt.hi)) {
			t.Errorf("splitPortRange(%q) = %q, %q, %v; want %q, %q, %v", tt.in, lo, hi, ok, tt.lo, tt.hi, tt.ok)
		}
	}
}

package ctld

import "testing"

// TestCheckAcctFreq: with a memory limit, --acctg-freq may not turn task sampling off nor
// make it slower than JobAcctGatherFrequency (the reference refused --mem=200
// --acctg-freq=40 under the default 30, and --acctg-freq=0 --mem=10; it took
// --acctg-freq=40 without --mem, and energy=40 with it).
func TestCheckAcctFreq(t *testing.T) {
	for _, c := range []struct {
		freq, conf string
		mem, bad   bool
	}{
		{"29", "30", true, false},
		{"40", "30", true, true},
		{"task=40", "30", true, true},
		{"energy=5,task=31", "task=30", true, true},
		{"0", "30", true, true},
		{"40", "30", false, false},
		{"energy=40", "30", true, false},
		{"40", "0", true, false},
		{"", "30", true, false},
	} {
		if err := checkAcctFreq(c.freq, c.conf, c.mem); (err != nil) != c.bad {
			t.Errorf("--acctg-freq=%s under %s (memory limit %v): %v, want refused %v", c.freq, c.conf, c.mem, err, c.bad)
		}
	}
}

package main

import "testing"

// TestCPUFreqDebug checks the CPU frequency line against the forms the reference printed for
// --cpu-freq=Low-High:Performance, =2000000 and =Performance (testsuite/scontrol goldens),
// and the separators Slurm's cpu_freq_debug leaves for the other combinations.
func TestCPUFreqDebug(t *testing.T) {
	const noVal = 0xfffffffe
	for _, tc := range []struct {
		lo, hi, gov uint32
		want        string
	}{
		{0x80000001, 0x80000003, 0x82000000, "CPU_min_freq=Low CPU_max_freq=High Governor=Performance"},
		{noVal, 2000000, noVal, "CPU_max_freq=2000000 "},
		{0, 0, 0x82000000, "Governor=Performance"},
		{1000000, 2000000, 0, "CPU_min_freq=1000000 CPU_max_freq=2000000 "},
		{0x80000002, 0x80000004, 0x84000000, "CPU_min_freq=Medium CPU_max_freq=Highm1 Governor=OnDemand"},
		{0, 0x80000099, 0, "CPU_max_freq=Unknown "},
		{0, 0, 0, ""},
		{noVal, noVal, noVal, ""},
	} {
		if got := cpuFreqDebug(tc.lo, tc.hi, tc.gov); got != tc.want {
			t.Errorf("cpuFreqDebug(%#x, %#x, %#x) = %q, want %q", tc.lo, tc.hi, tc.gov, got, tc.want)
		}
	}
}

// TestCountOrStar: a count not given (0 from the controller), NO_VAL16 and INFINITE16 show
// as "*".
func TestCountOrStar(t *testing.T) {
	for v, want := range map[uint32]string{0: "*", 1: "1", 64: "64", 0xfffe: "*", 0xffff: "*"} {
		if got := countOrStar(v); got != want {
			t.Errorf("countOrStar(%d) = %q, want %q", v, got, want)
		}
	}
}

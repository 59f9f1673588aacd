package main

import (
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

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

// TestShowJob_BatchFeatures: sbatch --batch shows on the BatchHost line, before the host, or
// alone while the job pends (as the reference printed "BatchFeatures=big BatchHost=n3").
func TestShowJob_BatchFeatures(t *testing.T) {
	c := quietCLI()
	now := time.Unix(1_700_001_000, 0)
	j := wire.JobInfo{JobID: 7, ArrayTaskID: wire.NoVal, Name: "wrap", NumNodes: 2, NTasksPerNode: wire.NoVal,
		MemPerNode: wire.NoVal64, MemPerCPU: wire.NoVal64, TimeLimit: wire.Infinite, TimeMin: wire.NoVal, BatchFlag: true,
		BatchFeatures: "big", BatchHost: "n3", State: 1}
	if got := c.sprintJob(&j, now); !strings.Contains(got, "\n   BatchFeatures=big BatchHost=n3\n") {
		t.Errorf("running job:\n%s", got)
	}
	j.BatchHost, j.State = "", 0
	if got := c.sprintJob(&j, now); !strings.Contains(got, "\n   BatchFeatures=big\n") {
		t.Errorf("pending job:\n%s", got)
	}
	j.BatchFeatures, j.BatchHost, j.State = "", "n1", 1
	if got := c.sprintJob(&j, now); !strings.Contains(got, "\n   BatchHost=n1\n") || strings.Contains(got, "BatchFeatures") {
		t.Errorf("job without --batch:\n%s", got)
	}
}

package conf

import (
	"strings"
	"testing"
)

// The expectations in this file come from reading Slurm 22.05's source (src/api/config_info.c
// for what `scontrol show config` prints and in which order, src/common/read_config.c for the
// defaults and parsing, job_defaults_str and priority_flags_string for the two formats), not
// from a live recording: the reference on this machine runs priority/basic and a second
// controller cannot be started to record another configuration.

// showLines returns the "Key = value" lines of ShowConfig for a config text, in order.
func showLines(t *testing.T, text string) []string {
	t.Helper()
	c, err := Parse("slurm.conf", []byte(base+text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	var out []string
	for _, l := range strings.Split(c.ShowConfig(ShowConfigRuntime{LookupUID: func(string) (uint32, bool) { return 0, true }}), "\n") {
		if strings.Contains(l, " = ") || strings.HasSuffix(l, " =") {
			out = append(out, l)
		}
	}
	return out
}

// between returns the lines after the one starting with from and before the one starting
// with to.
func between(lines []string, from, to string) []string {
	var out []string
	in := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, from+" "):
			in = true
		case strings.HasPrefix(l, to+" "):
			return out
		case in:
			out = append(out, l)
		}
	}
	return out
}

func TestShowConfig_PriorityBlock(t *testing.T) {
	defaults := []string{
		"PriorityDecayHalfLife   = 7-00:00:00",
		"PriorityCalcPeriod      = 00:05:00",
		"PriorityFavorSmall      = No",
		"PriorityFlags           = ",
		"PriorityMaxAge          = 7-00:00:00",
		"PriorityUsageResetPeriod = NONE",
		"PriorityType            = priority/multifactor",
		"PriorityWeightAge       = 0",
		"PriorityWeightAssoc     = 0",
		"PriorityWeightFairShare = 0",
		"PriorityWeightJobSize   = 0",
		"PriorityWeightPartition = 0",
		"PriorityWeightQOS       = 0",
		"PriorityWeightTRES      = (null)",
	}
	tests := []struct {
		name, conf string
		want       []string
		fairShare  string // the FairShareDampeningFactor line, "" when absent
	}{
		{"basic prints one line", "", []string{"PriorityType            = priority/basic"}, ""},
		{"multifactor defaults", "PriorityType=priority/multifactor\n", defaults, "FairShareDampeningFactor = 1"},
		{"multifactor set", `PriorityType=priority/multifactor
PriorityDecayHalfLife=14-0
PriorityCalcPeriod=1
PriorityFavorSmall=YES
PriorityFlags=small_relative_to_time,CALCULATE_RUNNING,NO_FAIR_TREE,max_tres
PriorityMaxAge=1-12:30:05
PriorityUsageResetPeriod=monthly
PriorityWeightAge=1000
PriorityWeightAssoc=1
PriorityWeightFairshare=10000
PriorityWeightJobSize=2k
PriorityWeightPartition=500
PriorityWeightQOS=2000
PriorityWeightTRES=CPU=1000,Mem=2000,GRES/gpu=3000
FairShareDampeningFactor=5
`, []string{
			"PriorityDecayHalfLife   = 14-00:00:00",
			"PriorityCalcPeriod      = 00:01:00",
			"PriorityFavorSmall      = Yes",
			"PriorityFlags           = SMALL_RELATIVE_TO_TIME,CALCULATE_RUNNING,NO_FAIR_TREE,MAX_TRES",
			"PriorityMaxAge          = 1-12:31:00",
			"PriorityUsageResetPeriod = MONTHLY",
			"PriorityType            = priority/multifactor",
			"PriorityWeightAge       = 1000",
			"PriorityWeightAssoc     = 1",
			"PriorityWeightFairShare = 10000",
			"PriorityWeightJobSize   = 2048",
			"PriorityWeightPartition = 500",
			"PriorityWeightQOS       = 2000",
			"PriorityWeightTRES      = CPU=1000,Mem=2000,GRES/gpu=3000",
		}, "FairShareDampeningFactor = 5"},
		// DEPTH_OBLIVIOUS turns fair tree off, so NO_FAIR_TREE is printed too; any one
		// NO_NORMAL_* word prints as NO_NORMAL_ALL in 22.05.
		{"flags depth oblivious", "PriorityType=priority/multifactor\nPriorityFlags=DEPTH_OBLIVIOUS,NO_NORMAL_QOS,INCR_ONLY,ACCRUE_ALWAYS\n",
			append(append(append([]string{}, defaults[:3]...), "PriorityFlags           = ACCRUE_ALWAYS,DEPTH_OBLIVIOUS,NO_FAIR_TREE,INCR_ONLY,NO_NORMAL_ALL"), defaults[4:]...),
			"FairShareDampeningFactor = 1"},
		{"half-life infinite", "PriorityType=priority/multifactor\nPriorityDecayHalfLife=UNLIMITED\nPriorityMaxAge=0\nPriorityUsageResetPeriod=NOW\n",
			append(append(append([]string{"PriorityDecayHalfLife   = 49710-06:27:16"}, defaults[1:4]...),
				"PriorityMaxAge          = 00:00:00", "PriorityUsageResetPeriod = NOW"), defaults[6:]...),
			"FairShareDampeningFactor = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := showLines(t, tt.conf)
			got := between(lines, "PrioritySiteFactorPlugin", "PrivateData")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("priority block:\n got %q\nwant %q", got, tt.want)
			}
			fs := between(lines, "ExtSensorsFreq", "FederationParameters")
			if want := []string{tt.fairShare}; tt.fairShare == "" && len(fs) != 0 || tt.fairShare != "" && strings.Join(fs, "\n") != want[0] {
				t.Errorf("between ExtSensorsFreq and FederationParameters: got %q, want %q", fs, tt.fairShare)
			}
		})
	}
}

func TestLoad_PriorityErrors(t *testing.T) {
	tests := []struct{ conf, want string }{
		{"PriorityDecayHalfLife=soon\n", `Bad value "soon" for PriorityDecayHalfLife`},
		{"PriorityCalcPeriod=0\n", `Bad value "0" for PriorityCalcPeriod`},
		{"PriorityCalcPeriod=INFINITE\n", `Bad value "INFINITE" for PriorityCalcPeriod`},
		{"PriorityMaxAge=x\n", `Bad value "x" for PriorityMaxAge`},
		{"PriorityUsageResetPeriod=hourly\n", `Bad value "hourly" for PriorityUsageResetPeriod`},
		{"PriorityDecayHalfLife=0\n", "You have to either have PriorityDecayHalfLife != 0 or PriorityUsageResetPeriod set to something or the priority plugin will result in rolling over."},
	}
	for _, tt := range tests {
		_, err := Parse("slurm.conf", []byte(base+tt.conf))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want an error containing %q", tt.conf, err, tt.want)
		}
	}
	if _, err := Parse("slurm.conf", []byte(base+"PriorityDecayHalfLife=0\nPriorityUsageResetPeriod=WEEKLY\n")); err != nil {
		t.Errorf("half-life 0 with a reset period: %v", err)
	}
}

func TestShowConfig_JobDefaults(t *testing.T) {
	tests := []struct{ conf, want string }{
		{"", "JobDefaults             = (null)"},
		{"DefMemPerGPU=4096\n", "JobDefaults             = DefMemPerGPU=4096"},
		{"DefCPUPerGPU=4\n", "JobDefaults             = DefCpuPerGPU=4"},
		// Both: CPU first whatever the file order; numbers as parsed (k = ×1024).
		{"DefMemPerGPU=2k\nDefCPUPerGPU=010\n", "JobDefaults             = DefCpuPerGPU=8,DefMemPerGPU=2048"},
	}
	for _, tt := range tests {
		var got string
		for _, l := range showLines(t, tt.conf) {
			if strings.HasPrefix(l, "JobDefaults ") {
				got = l
			}
		}
		if got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.conf, got, tt.want)
		}
	}
}

package conf

import (
	"strings"
	"testing"
)

// TestHealthCheckNodeState: the flags of Slurm's words, what show config prints for them, and
// Slurm's warning for an unknown word (ignored, the rest kept).
func TestHealthCheckNodeState(t *testing.T) {
	for _, c := range []struct {
		value string
		flags uint16
		shown string
	}{
		{"", HealthCheckAny, "ANY"},
		{"ANY", HealthCheckAny, "ANY"},
		{"idle", HealthCheckIdle, "IDLE"},
		{"ALLOC,MIXED", HealthCheckAlloc | HealthCheckMixed, "ALLOC,MIXED"},
		{"CYCLE", HealthCheckAny | HealthCheckCycle, "CYCLE,ANY"},
		{"MIXED,CYCLE,IDLE", HealthCheckIdle | HealthCheckMixed | HealthCheckCycle, "CYCLE,IDLE,MIXED"},
		{"IDLE,ALLOC,MIXED", HealthCheckAny, "ANY"},
	} {
		text := propagateBase
		if c.value != "" {
			text += "HealthCheckNodeState=" + c.value + "\n"
		}
		cfg, err := Parse("slurm.conf", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", c.value, err)
		}
		if cfg.HealthCheckNodeState != c.flags {
			t.Errorf("HealthCheckNodeState=%s: flags %#x, want %#x", c.value, cfg.HealthCheckNodeState, c.flags)
		}
		if line := "HealthCheckNodeState    = " + c.shown + "\n"; !strings.Contains(cfg.ShowConfig(ShowConfigRuntime{}), line) {
			t.Errorf("HealthCheckNodeState=%s: show config lacks %q", c.value, line)
		}
	}
	cfg, err := Parse("slurm.conf", []byte(propagateBase+"HealthCheckNodeState=IDLE,SOMETIMES\n"))
	if err != nil || cfg.HealthCheckNodeState != HealthCheckIdle {
		t.Fatalf("HealthCheckNodeState=IDLE,SOMETIMES: %v, flags %#x; want IDLE kept", err, cfg.HealthCheckNodeState)
	}
	if w := cfg.Warnings.Error(); !strings.Contains(w, "Invalid HealthCheckNodeState value SOMETIMES ignored") {
		t.Errorf("warnings %q lack Slurm's for SOMETIMES", w)
	}
}

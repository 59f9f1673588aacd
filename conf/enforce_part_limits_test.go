package conf

import (
	"strings"
	"testing"
)

// TestEnforcePartLimits: Slurm's spellings, what show config prints for each, and its
// error for any other value.
func TestEnforcePartLimits(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"", "NO"}, {"NO", "NO"}, {"false", "NO"}, {"0", "NO"}, {"down", "NO"},
		{"YES", "ANY"}, {"true", "ANY"}, {"1", "ANY"}, {"up", "ANY"}, {"any", "ANY"},
		{"ALL", "ALL"}, {"all", "ALL"},
	} {
		text := propagateBase
		if c.value != "" {
			text += "EnforcePartLimits=" + c.value + "\n"
		}
		cfg, err := Parse("slurm.conf", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", c.value, err)
		}
		if cfg.EnforcePartLimits != c.want {
			t.Errorf("EnforcePartLimits=%s is %q, want %q", c.value, cfg.EnforcePartLimits, c.want)
		}
		if line := "EnforcePartLimits       = " + c.want + "\n"; !strings.Contains(cfg.ShowConfig(ShowConfigRuntime{}), line) {
			t.Errorf("EnforcePartLimits=%s: show config lacks %q", c.value, line)
		}
	}
	_, err := Parse("slurm.conf", []byte(propagateBase+"EnforcePartLimits=sometimes\n"))
	if err == nil || !strings.Contains(err.Error(), "Bad EnforcePartLimits: sometimes") {
		t.Errorf("EnforcePartLimits=sometimes: error %v, want Slurm's \"Bad EnforcePartLimits: sometimes\"", err)
	}
}

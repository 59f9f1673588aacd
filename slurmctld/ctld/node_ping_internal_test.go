package ctld

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/conf"
)

// TestPingInterval is Slurm's ping_interval: SlurmdTimeout/3, not capped, and 100 s when
// SlurmdTimeout=0 (only UNKNOWN and non-responding nodes are pinged then).
func TestPingInterval(t *testing.T) {
	for _, tc := range []struct {
		timeout uint16
		want    time.Duration
	}{{300, 100 * time.Second}, {900, 300 * time.Second}, {9, 3 * time.Second}, {0, 100 * time.Second}, {2, time.Second}} {
		c := &Controller{}
		c.cfg.Store(&conf.Config{SlurmdTimeout: tc.timeout})
		if got := c.pingInterval(); got != tc.want {
			t.Errorf("SlurmdTimeout=%d: ping interval %v, want %v", tc.timeout, got, tc.want)
		}
	}
	c := &Controller{}
	c.cfg.Store(&conf.Config{})
	if w := c.treeWidth(); w != 50 {
		t.Errorf("default tree width %d, want 50", w)
	}
}

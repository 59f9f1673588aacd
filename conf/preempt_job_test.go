package conf

import "testing"

// TestPreemptModeString: PreemptMode values print as Slurm's preempt_mode_string does.
func TestPreemptModeString(t *testing.T) {
	for in, want := range map[string]string{
		"OFF": "OFF", "cancel,gang": "GANG,CANCEL", "GANG,REQUEUE": "GANG,REQUEUE", "suspend,gang": "GANG,SUSPEND",
		"gang": "GANG", "within": "WITHIN", "requeue,within": "WITHIN,REQUEUE", "CANCEL": "CANCEL",
		"cluster": "OFF", "": "OFF", "bogus": "bogus",
	} {
		if got := PreemptModeString(in); got != want {
			t.Errorf("PreemptModeString(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPartitionPreemptAction: a partition's own PreemptMode wins over the cluster's, GANG
// filtered out; only an explicit OFF makes its jobs unpreemptable.
func TestPartitionPreemptAction(t *testing.T) {
	c := &Config{PreemptType: "preempt/partition_prio", PreemptMode: "REQUEUE,GANG"}
	if !c.PreemptByPartition() || !c.PreemptGang() {
		t.Fatalf("PreemptByPartition %v, PreemptGang %v; want both", c.PreemptByPartition(), c.PreemptGang())
	}
	for _, tt := range []struct {
		mode string
		want PreemptAction
		off  bool
	}{{"", PreemptRequeue, false}, {"CANCEL", PreemptCancel, false}, {"SUSPEND,GANG", PreemptSuspend, false}, {"OFF", PreemptOff, true}} {
		p := &Partition{PreemptMode: tt.mode}
		if got := c.PartitionPreemptAction(p); got != tt.want || PartitionPreemptOff(p) != tt.off {
			t.Errorf("PreemptMode=%q: action %s off %v, want %s %v", tt.mode, got, PartitionPreemptOff(p), tt.want, tt.off)
		}
	}
	if (&Config{PreemptType: "preempt/none", PreemptMode: "OFF"}).PreemptByPartition() {
		t.Error("preempt/none preempts")
	}
}

// TestPreemptExemptSecs: PreemptExemptTime is read once, in seconds; -1 means none.
func TestPreemptExemptSecs(t *testing.T) {
	for v, want := range map[string]int64{"00:10:00": 600, "1-0": 86400, "-1": 0, "": 0} {
		text := propagateBase
		if v != "" {
			text += "PreemptExemptTime=" + v + "\n"
		}
		cfg, err := Parse("slurm.conf", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if cfg.PreemptExemptSecs != want {
			t.Errorf("PreemptExemptTime=%q: %d s, want %d", v, cfg.PreemptExemptSecs, want)
		}
	}
}

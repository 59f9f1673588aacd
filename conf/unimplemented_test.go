package conf

import (
	"strings"
	"testing"
)

// TestUnimplementedKeysWarn: a key Orbit accepts but does not act on yet is reported as a
// warning when set with an effect, and not when set to its no-effect value.
func TestUnimplementedKeysWarn(t *testing.T) {
	cfg, err := Parse("slurm.conf", []byte(propagateBase+"preempttype=preempt/qos\nPreemptMode=REQUEUE\nInactiveLimit=0\nJobSubmitPlugins=lua\nAccountingStorageEnforce=none\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Warnings.Error()
	for _, want := range []string{
		"PreemptType=preempt/qos is not implemented by Orbit yet: only preempt/partition_prio preempts jobs; QOS preemption needs the accounting database",
		"JobSubmitPlugins=lua is not implemented by Orbit yet: job submit plugins are not run",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	quietCfg, err := Parse("slurm.conf", []byte(propagateBase+"PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\n"))
	if err != nil {
		t.Fatal(err)
	}
	if quietCfg.Warnings != nil && strings.Contains(quietCfg.Warnings.Error(), "PreemptType") {
		t.Errorf("preempt/partition_prio, which Orbit does, is warned about: %v", quietCfg.Warnings)
	}
	for _, quiet := range []string{"InactiveLimit", "AccountingStorageEnforce"} {
		if strings.Contains(w, quiet) {
			t.Errorf("%s set to its no-effect value is warned about:\n%s", quiet, w)
		}
	}
}

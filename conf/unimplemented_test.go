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

// TestOverSubscribeSharing: partitions whose jobs share CPUs (FORCE, YES) load without a
// warning, their values as Slurm stores them.
func TestOverSubscribeSharing(t *testing.T) {
	cfg, err := Parse("slurm.conf", []byte("ClusterName=x\nSlurmctldHost=h\nNodeName=n1 CPUs=4\n"+
		"PartitionName=a Nodes=n1 OverSubscribe=FORCE:4\nPartitionName=b Nodes=n1 OverSubscribe=FORCE:1\n"+
		"PartitionName=c Nodes=n1 Shared=FORCE\nPartitionName=d Nodes=n1 OverSubscribe=YES:2\nPartitionName=e Nodes=n1 OverSubscribe=yes\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Warnings != nil {
		t.Errorf("warnings: %v", cfg.Warnings)
	}
	want := map[string]string{"a": "FORCE:4", "b": "FORCE:1", "c": "FORCE:4", "d": "YES:2", "e": "YES:4"}
	for _, p := range cfg.Partitions {
		if p.OverSubscribe != want[p.Name] {
			t.Errorf("partition %s OverSubscribe=%s, want %s", p.Name, p.OverSubscribe, want[p.Name])
		}
	}
}

// TestOverSubscribeGangWarns: under PreemptMode=GANG, Slurm time-slices the jobs that share
// CPUs; Orbit runs them at once and says so for each partition where jobs share.
func TestOverSubscribeGangWarns(t *testing.T) {
	cfg, err := Parse("slurm.conf", []byte("ClusterName=x\nSlurmctldHost=h\nPreemptMode=GANG\nNodeName=n1 CPUs=4\n"+
		"PartitionName=a Nodes=n1 OverSubscribe=FORCE:2\nPartitionName=b Nodes=n1 OverSubscribe=FORCE:1\nPartitionName=c Nodes=n1 OverSubscribe=YES\n"))
	if err != nil {
		t.Fatal(err)
	}
	var w string
	if cfg.Warnings != nil {
		w = cfg.Warnings.Error()
	}
	for _, want := range []string{"PartitionName=a OverSubscribe=FORCE:2 under PreemptMode=GANG is not implemented by Orbit yet", "PartitionName=c OverSubscribe=YES:4 under PreemptMode=GANG"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if strings.Contains(w, "PartitionName=b") {
		t.Errorf("FORCE:1, where no CPU is shared, is warned about:\n%s", w)
	}
}

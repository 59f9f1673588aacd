package ctld

import (
	"testing"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/wire"
)

// A partition override stored before PreemptMode, Priority and the rest could be updated
// decodes with all of them unset, and one that sets them round-trips.
func TestPartRecord_OldRecordsDecode(t *testing.T) {
	type oldPartRecord struct {
		Name     string   `codec:"name"`
		State    string   `codec:"state"`
		MaxTime  uint32   `codec:"max_time"`
		NodesSet bool     `codec:"nodes_set"`
		Nodes    []string `codec:"nodes"`
	}
	b, err := wire.Marshal(&oldPartRecord{Name: "debug", State: "DOWN", MaxTime: wire.NoVal})
	if err != nil {
		t.Fatal(err)
	}
	r := new(partRecord)
	if err := wire.Unmarshal(b, r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "debug" || r.State != "DOWN" || r.PreemptMode != "" || r.PriorityTier != nil || r.MinNodes != nil ||
		r.DefaultTime != nil || r.OverSubscribe != "" || r.Default != "" {
		t.Errorf("old record decoded as %+v", r)
	}
	if r.State = ""; !r.empty() {
		t.Errorf("%+v is not empty", r)
	}

	tier, grace := uint16(3), uint32(60)
	b, err = wire.Marshal(&partRecord{Name: "low", MaxTime: wire.NoVal, PreemptMode: "REQUEUE", PriorityTier: &tier,
		GraceTime: &grace, OverSubscribe: "FORCE:2", Default: "YES"})
	if err != nil {
		t.Fatal(err)
	}
	r = new(partRecord)
	if err := wire.Unmarshal(b, r); err != nil {
		t.Fatal(err)
	}
	if r.PreemptMode != "REQUEUE" || r.PriorityTier == nil || *r.PriorityTier != 3 || r.GraceTime == nil ||
		*r.GraceTime != 60 || r.PriorityJobFactor != nil || r.OverSubscribe != "FORCE:2" || r.Default != "YES" || r.empty() {
		t.Errorf("round trip gave %+v", r)
	}
}

// installPart lays the new fields over slurm.conf's partition without touching it, and
// Default moves the default partition whatever order the saved records load in.
func TestInstallPart_FieldsAndDefault(t *testing.T) {
	for _, order := range [][]string{{"debug", "low"}, {"low", "debug"}} {
		debug := &conf.Partition{Name: "debug", Default: true, MaxTime: wire.Infinite, PriorityTier: 1, OverSubscribe: "NO"}
		low := &conf.Partition{Name: "low", MaxTime: wire.Infinite, PriorityTier: 1, OverSubscribe: "NO"}
		tb := &tables{parts: map[string]*partEntry{"debug": {conf: debug}, "low": {conf: low}}, defPart: "debug"}
		tier, factor := uint16(5), uint16(7)
		recs := map[string]partRecord{
			"debug": {Name: "debug", MaxTime: wire.NoVal, Default: "NO"},
			"low": {Name: "low", MaxTime: wire.NoVal, Default: "YES", PreemptMode: "SUSPEND", PriorityTier: &tier,
				PriorityJobFactor: &factor, OverSubscribe: "YES:2"},
		}
		for _, name := range order {
			tb.installPart(recs[name])
		}
		p := tb.parts["low"].conf
		if tb.defPart != "low" || !p.Default || tb.parts["debug"].conf.Default {
			t.Errorf("order %v: default %q, low %v, debug %v", order, tb.defPart, p.Default, tb.parts["debug"].conf.Default)
		}
		if p.PreemptMode != "SUSPEND" || p.PriorityTier != 5 || p.PriorityJobFactor != 7 || p.OverSubscribe != "YES:2" {
			t.Errorf("order %v: low is %+v", order, p)
		}
		if low.PreemptMode != "" || low.PriorityTier != 1 || low.Default || !debug.Default {
			t.Errorf("order %v: slurm.conf's partitions were modified: %+v %+v", order, low, debug)
		}
	}
}

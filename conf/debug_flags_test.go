package conf

import "testing"

func TestParseDebugFlags(t *testing.T) {
	for _, k := range []struct {
		in, out, err string
		notes        int
	}{
		{"steps,backfill,net", "Backfill,Network,Steps", "", 0},
		{"JAG,WorkQ,PowerSave,trigger", "JobAccountGather,Power,Triggers,WorkQueue", "", 0},
		{"", "", "", 0},
		{",,gres,", "Gres", "", 0},
		{"Task,cgroup", "Cgroup", "", 1},
		{"backfill,+steps", "", "Invalid DebugFlag: +steps", 0},
		{"bogus", "", "Invalid DebugFlag: bogus", 0},
	} {
		f, notes, err := ParseDebugFlags(k.in)
		if k.err != "" {
			if err == nil || err.Error() != k.err {
				t.Errorf("ParseDebugFlags(%q) error %v, want %q", k.in, err, k.err)
			}
			continue
		}
		if err != nil || DebugFlagsString(f) != k.out || len(notes) != k.notes {
			t.Errorf("ParseDebugFlags(%q) = %q, %v, %v; want %q with %d notes", k.in, DebugFlagsString(f), notes, err, k.out, k.notes)
		}
	}
}

package scheduler

import (
	"strings"
	"testing"
)

func TestParseParams_Defaults(t *testing.T) {
	p, err := ParseParams("")
	if err != nil {
		t.Fatal(err)
	}
	want := Params{DefaultQueueDepth: 100, SchedInterval: 60, SchedMinInterval: 2, BfInterval: 30, BfWindow: 1440, BfResolution: 60, BfMaxJobTest: 500}
	if p.BfInterval != want.BfInterval || p.BfWindow != want.BfWindow || p.BfResolution != want.BfResolution ||
		p.BfMaxJobTest != want.BfMaxJobTest || p.DefaultQueueDepth != want.DefaultQueueDepth || p.SchedInterval != want.SchedInterval {
		t.Errorf("defaults %+v", p)
	}
}

func TestParseParams_Values(t *testing.T) {
	p, err := ParseParams("bf_interval=5, BF_WINDOW=60,bf_resolution=10,bf_max_job_test=20,bf_continue,bf_max_job_user=3,default_queue_depth=7,sched_interval=-1,frobnicate=1,defer")
	if err != nil {
		t.Fatal(err)
	}
	if p.BfInterval != 5 || p.BfWindow != 60 || p.BfResolution != 10 || p.BfMaxJobTest != 20 || !p.BfContinue ||
		p.BfMaxJobUser != 3 || p.DefaultQueueDepth != 7 || p.SchedInterval != -1 || !p.Defer {
		t.Errorf("parsed %+v", p)
	}
	if len(p.Unknown) != 1 || p.Unknown[0] != "frobnicate=1" {
		t.Errorf("unknown %q", p.Unknown)
	}
}

func TestParseParams_Bad(t *testing.T) {
	for _, s := range []string{"bf_interval=0", "bf_interval=x", "bf_window=43201", "bf_resolution", "bf_max_job_test=-1", "default_queue_depth=-2"} {
		p, err := ParseParams(s)
		if err == nil {
			t.Errorf("%q: no error", s)
			continue
		}
		key, _, _ := strings.Cut(s, "=")
		if !strings.Contains(err.Error(), key) {
			t.Errorf("%q: error %q does not name the option", s, err)
		}
		if p.BfInterval != 30 || p.BfWindow != 1440 || p.BfMaxJobTest != 500 {
			t.Errorf("%q: bad value not replaced by Slurm's default: %+v", s, p)
		}
	}
}

func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"", "bf_interval=5,bf_continue", "bf_window=,,", "sched_interval=-1", "bf_max_job_test=99999999999999999999", "=,=="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseParams(s)
		if err != nil {
			return
		}
		if p.BfResolution < 1 || p.BfMaxJobTest < 1 || p.BfWindow < 1 || (p.BfInterval < 1 && p.BfInterval != -1) {
			t.Fatalf("%q accepted out of range: %+v", s, p)
		}
	})
}

func TestMirror_Update_Resync(t *testing.T) {
	var m Mirror
	if err := m.Update(Delta{Seq: 1}); err == nil {
		t.Fatal("update before sync accepted")
	}
	m.Sync(State{Seq: 5, Jobs: []Job{{ID: 1, Priority: 1}, {ID: 2, Priority: 9}}})
	if err := m.Update(Delta{Seq: 7}); err == nil {
		t.Fatal("gap accepted")
	}
	if err := m.Update(Delta{Seq: 6, JobsGone: []uint32{3}}); err == nil {
		t.Fatal("unknown job accepted")
	}
	if err := m.Update(Delta{Seq: 6, JobsGone: []uint32{1}, Jobs: []Job{{ID: 4, Priority: 9, SubmitTime: -1}}}); err != nil {
		t.Fatal(err)
	}
	var ids []uint32
	for _, j := range m.Pending() {
		ids = append(ids, j.ID)
	}
	if len(ids) != 2 || ids[0] != 4 || ids[1] != 2 {
		t.Fatalf("pending order %v, want [4 2] (same priority, earlier submit first)", ids)
	}
}

// TestParseParams_MaxTimeYield: bf_max_time defaults to bf_interval's value (also after an
// invalid value, as slurmctld falls back); bf_yield_interval is in microseconds.
func TestParseParams_MaxTimeYield(t *testing.T) {
	for _, tc := range []struct {
		in          string
		maxT, yield int
		bad         bool
	}{
		{"", 30, 2000000, false},
		{"bf_interval=90", 90, 2000000, false},
		{"bf_interval=90,bf_max_time=600,bf_yield_interval=500000", 600, 500000, false},
		{"bf_max_time=0,bf_interval=10", 10, 2000000, true},
		{"bf_max_time=3601", 30, 2000000, true},
		{"bf_yield_interval=10000001", 30, 2000000, true},
	} {
		p, err := ParseParams(tc.in)
		if (err != nil) != tc.bad || p.BfMaxTime != tc.maxT || p.BfYieldInterval != tc.yield {
			t.Errorf("%q: bf_max_time %d, bf_yield_interval %d, err %v; want %d, %d, error %v", tc.in, p.BfMaxTime, p.BfYieldInterval, err, tc.maxT, tc.yield, tc.bad)
		}
	}
}

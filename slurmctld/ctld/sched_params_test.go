package ctld

import (
	"strings"
	"testing"
	"time"
)

func TestParseSchedPacing(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    schedPacing
		wantErr string
	}{
		{"", schedPacing{minInterval: 2 * time.Microsecond, batchDelay: 3 * time.Second, fullInterval: 60}, ""},
		{"sched_min_interval=500000,batch_sched_delay=10,defer",
			schedPacing{minInterval: 500 * time.Millisecond, batchDelay: 10 * time.Second, deferAll: true, fullInterval: 60}, ""},
		{"bf_interval=30, Batch_Sched_Delay=0", schedPacing{minInterval: 2 * time.Microsecond, fullInterval: 60}, ""},
		{"sched_interval=-1", schedPacing{minInterval: 2 * time.Microsecond, batchDelay: 3 * time.Second, fullInterval: -1}, ""},
		{"batch_sched_delay=-1", schedPacing{minInterval: 2 * time.Microsecond, batchDelay: 3 * time.Second, fullInterval: 60}, "batch_sched_delay: -1"},
		{"batch_sched_delay=soon", schedPacing{minInterval: 2 * time.Microsecond, batchDelay: 3 * time.Second, fullInterval: 60}, `batch_sched_delay: "soon"`},
		{"sched_min_interval=x,batch_sched_delay=", schedPacing{minInterval: 2 * time.Microsecond, batchDelay: 3 * time.Second, fullInterval: 60}, "sched_min_interval"},
	} {
		got, err := parseSchedPacing(tc.in)
		if got != tc.want {
			t.Errorf("parseSchedPacing(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("parseSchedPacing(%q): %v", tc.in, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("parseSchedPacing(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
		}
	}
}

// TestSchedPacing_BatchWait: without defer a submit waits ten times the last cycle's length,
// never more than batch_sched_delay; with defer the whole delay.
func TestSchedPacing_BatchWait(t *testing.T) {
	p := schedPacing{batchDelay: 3 * time.Second}
	if got := p.batchWait(time.Millisecond); got != 10*time.Millisecond {
		t.Errorf("batchWait(1ms) = %v, want 10ms", got)
	}
	if got := p.batchWait(time.Second); got != 3*time.Second {
		t.Errorf("batchWait(1s) = %v, want the 3s cap", got)
	}
	p.deferAll = true
	if got := p.batchWait(time.Millisecond); got != 3*time.Second {
		t.Errorf("batchWait(1ms) with defer = %v, want 3s", got)
	}
}

func FuzzParseSchedPacing(f *testing.F) {
	for _, s := range []string{"", "defer", "batch_sched_delay=5", "batch_sched_delay=-3,sched_min_interval=0",
		"sched_min_interval=99999999999999999999", "batch_sched_delay=99999999999", ",,=,batch_sched_delay==1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseSchedPacing(s)
		if p.minInterval < 0 || p.batchDelay < 0 {
			t.Fatalf("parseSchedPacing(%q) = %+v: negative pacing", s, p)
		}
		if err != nil && !strings.Contains(err.Error(), "SchedulerParameters") {
			t.Fatalf("parseSchedPacing(%q): error %q does not name SchedulerParameters", s, err)
		}
	})
}

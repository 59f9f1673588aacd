package main

import (
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/internal/wire"
)

func TestParseJobs(t *testing.T) {
	sels, err := parseJobs("12,13_4,14.0,15.batch,16_2.extern")
	if err != nil || len(sels) != 5 {
		t.Fatalf("%v %v", sels, err)
	}
	if s := sels[1]; s.JobID != 13 || s.ArrayTask != 4 || s.StepID != wire.NoVal {
		t.Errorf("13_4 = %+v", s)
	}
	if s := sels[3]; s.StepID != wire.StepBatch {
		t.Errorf("15.batch = %+v", s)
	}
	for in, want := range map[string]string{"abc": "sacct: fatal: Bad job/step specified: abc",
		"12.x": "sacct: fatal: Bad step specified: 12"} {
		if _, err := parseJobs(in); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
}

func TestDefaultWindow(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	p, _, err := parseArgs([]string{"sacct"}, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.req.Start != time.Date(2026, 3, 4, 0, 0, 0, 0, time.Local).Unix() || p.req.End != now.Unix()+1 {
		t.Errorf("window %d-%d", p.req.Start, p.req.End)
	}
	p, _, _ = parseArgs([]string{"sacct", "-s", "CD"}, now, 0)
	if p.req.Start != now.Unix() || p.req.End != now.Unix()+1 {
		t.Errorf("-s window %d-%d", p.req.Start, p.req.End)
	}
	p, _, _ = parseArgs([]string{"sacct", "-j", "5"}, now, 1000)
	if p.req.Start != 0 || p.req.Users != nil {
		t.Errorf("-j: start %d users %v", p.req.Start, p.req.Users)
	}
}

func FuzzParseJobs(f *testing.F) {
	for _, s := range []string{"12", "12_3", "12.batch", "12_3.0", "abc", "12.x", ",,", "_.", "4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sels, err := parseJobs(s)
		if err == nil {
			for _, sel := range sels {
				if sel.JobID == 0 {
					t.Fatalf("%q: job id 0 accepted", s)
				}
			}
		}
	})
}

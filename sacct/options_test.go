package main

import (
	"slices"
	"strings"
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

func TestNewFilters(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	p, _, err := parseArgs([]string{"sacct", "-A", "a1,a2", "-A", "a1", "-W", "w", "-i", "2-4", "-I", "8",
		"-k", "1:00:00", "-K", "2-0", "-D", "-g", "0"}, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := p.req
	if !slices.Equal(r.Accounts, []string{"a1", "a2"}) || !slices.Equal(r.WCKeys, []string{"w"}) ||
		r.NodesMin != 2 || r.NodesMax != 4 || r.CPUsMin != 8 || r.CPUsMax != 0 ||
		r.TimeMin != 60 || r.TimeMax != 2880 || !r.Duplicates || !slices.Equal(r.Groups, []uint32{0}) {
		t.Errorf("request %+v", r)
	}
	p, _, _ = parseArgs([]string{"sacct", "-i", "*", "-I", "2k"}, now, 0)
	if p.req.NodesMin != 1 || p.req.NodesMax != 1<<31-1 || p.req.CPUsMin != 2048 {
		t.Errorf("-i '*' -I 2k: %+v", p.req)
	}
	for _, c := range []struct{ args, want string }{
		{"-i x", `sacct: error: Invalid numeric value "x" for requested node range.`},
		{"-I 3-", `sacct: error: Invalid numeric value "3-" for requested cpu range.`},
		{"-i -2", `sacct: error: Invalid numeric value "-2" for requested node range.`},
		{"-I 99999999999", "sacct: error: Numeric argument (99999999999) to big for requested cpu range."},
		{"-k 0", "sacct: fatal: Invalid time limit specification"},
		{"-K junk", "sacct: fatal: Invalid time limit specification"},
		{"-g nosuchgroup_h3", "sacct: error: Invalid group id: nosuchgroup_h3"},
		{"-B", "sacct: fatal: When requesting job scripts you must also request specific jobs with the '-j' option."},
		{"--env-vars", "sacct: fatal: When requesting job environment you must also request specific jobs with the '-j' option."},
		{"-B --env-vars -j 1", "sacct: fatal: Options --batch-script and --env-vars are mutually exclusive"},
	} {
		_, _, err := parseArgs(append([]string{"sacct"}, strings.Fields(c.args)...), now, 0)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.args, err, c.want)
		}
	}
	p, _, _ = parseArgs([]string{"sacct", "-k", "UNLIMITED", "-B", "-j", "3"}, now, 0)
	if p.req.TimeMin != wire.Infinite || !p.req.Script || !p.req.NoSteps {
		t.Errorf("-k UNLIMITED -B: %+v", p.req)
	}
}

func TestResolveQOS(t *testing.T) {
	p := &params{qosNames: "Normal,normal", qosSet: true}
	if err := p.resolveQOS(); err != nil || !slices.Equal(p.req.QOS, []string{"normal"}) {
		t.Errorf("normal: %v %v", p.req.QOS, err)
	}
	p = &params{qosNames: "high", qosSet: true}
	want := "sacct: error: You gave a bad qos 'high'. Valid QOS's are normal\nsacct: fatal: problem processing qos list"
	if err := p.resolveQOS(); err == nil || err.Error() != want {
		t.Errorf("high: %v", err)
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"", "*", "2", "2-4", "1k-2m", "x", "-1", "3-", " 5", "9999999999999999999999", "2-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var lo, hi uint32
		if err := parseRange(s, "requested node range", &lo, &hi); err != nil {
			if !strings.HasPrefix(err.Error(), "sacct: error: ") {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if lo > 1<<31-1 || hi > 1<<31-1 {
			t.Fatalf("%q: %d-%d beyond INT_MAX", s, lo, hi)
		}
	})
}

func TestTruncateTimes(t *testing.T) {
	now := time.Unix(5000, 0)
	rep := &wire.AcctQueryReply{Jobs: []wire.AcctJob{
		{Start: 100, End: 3000, Steps: []wire.AcctStep{{Start: 100, End: 200}, {Start: 1500, End: 0}}},
		{Start: 0, End: 0}, // pending
	}}
	truncateTimes(rep, 1000, 2000, now)
	j := rep.Jobs[0]
	if j.Start != 1000 || j.End != 2000 {
		t.Errorf("job %d-%d, want 1000-2000", j.Start, j.End)
	}
	if s := j.Steps[0]; s.Start != 0 || s.End != 0 {
		t.Errorf("step before the window %d-%d, want 0-0", s.Start, s.End)
	}
	if s := j.Steps[1]; s.Start != 1500 || s.End != 2000 {
		t.Errorf("running step %d-%d, want 1500-2000", s.Start, s.End)
	}
	if p := rep.Jobs[1]; p.Start != 2000 || p.End != 2000 {
		t.Errorf("pending job %d-%d, want 2000-2000", p.Start, p.End)
	}
}

package main

import (
	"strings"
	"testing"
	"time"
)

const sacctSample = `JobID|JobName|Partition|User|Submit|Start|End|Elapsed|Timelimit|NNodes|NCPUS|State
100|a|debug|alice|2024-03-01T10:00:00|2024-03-01T10:00:05|2024-03-01T10:10:05|00:10:00|01:00:00|2|8|COMPLETED
100.batch|batch||alice|2024-03-01T10:00:05|2024-03-01T10:00:05|2024-03-01T10:10:05|00:10:00||1|4|COMPLETED
100.0|hostname||alice|2024-03-01T10:00:06|2024-03-01T10:00:06|2024-03-01T10:10:05|00:09:59||2|8|COMPLETED
101|b|debug|bob|2024-03-01T09:59:00|Unknown|2024-03-01T10:01:00|00:00:00|1-00:00:00|1|1|CANCELLED by 0
102|c|batch|bob|2024-03-01T10:01:00|2024-03-01T10:30:00|2024-03-02T11:30:00|1-01:00:00|UNLIMITED|4|64|TIMEOUT
103_4|d|debug|carol|2024-03-01T10:02:00|2024-03-01T10:03:00|Unknown|00:05:00|00:30:00|1|1|RUNNING
`

func TestReadSacct_Sample(t *testing.T) {
	tr, err := ReadSacct(strings.NewReader(sacctSample), "d.txt", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped["never started"] != 1 || tr.Skipped["not ended"] != 1 {
		t.Errorf("skipped %v", tr.Skipped)
	}
	if len(tr.Jobs) != 2 {
		t.Fatalf("jobs %+v", tr.Jobs)
	}
	// Times are relative to the first submit of a kept job: 100 at 10:00:00 (101, earlier,
	// never started and is not kept).
	a, c := tr.Jobs[0], tr.Jobs[1]
	if a.ID != "100" || a.Submit != 0 || a.Runtime != 600 || a.Requested != 3600 || a.Nodes != 2 || a.Procs != 8 || a.User != "alice" || a.Partition != "debug" {
		t.Errorf("job 100 %+v", a)
	}
	if c.ID != "102" || c.Submit != 60 || c.Runtime != 25*3600 || c.Requested != -1 || c.Nodes != 4 || c.Procs != 64 {
		t.Errorf("job 102 %+v", c)
	}
}

// TestReadSacct_FewFields: only JobID, Submit, Start, End and AllocCPUS: the run time is
// End − Start, there is no limit, and the size is in CPUs.
func TestReadSacct_FewFields(t *testing.T) {
	in := "JobIDRaw|Submit|Start|End|AllocCPUS|\n7|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:03:00|3|\n"
	tr, err := ReadSacct(strings.NewReader(in), "p.txt", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 1 || tr.Jobs[0].Runtime != 120 || tr.Jobs[0].Requested != -1 || tr.Jobs[0].Procs != 3 || tr.Jobs[0].Nodes != 0 {
		t.Errorf("jobs %+v", tr.Jobs)
	}
}

func TestReadSacct_Errors(t *testing.T) {
	const h = "JobID|Submit|Elapsed|NNodes\n"
	for _, c := range []struct{ in, want string }{
		{"", "e.txt: no header line"},
		{"JobName|Submit\n", "e.txt:1: the header has no JobID"},
		{"JobID|State\n", "e.txt:1: the header has no Submit"},
		{h + "1|2024-01-01T00:00:00|00:01:00\n", "e.txt:2: 3 fields, the header has 4"},
		{h + "1|yesterday|00:01:00|1\n", "e.txt:2: Submit:"},
		{h + "1|2024-01-01T00:00:00|forever|1\n", "e.txt:2: Elapsed:"},
		{h + "1|2024-01-01T00:00:00|00:01:00|many\n", "e.txt:2: NNodes:"},
		{"JobID|Submit|NNodes\n1|2024-01-01T00:00:00|1\n", "e.txt:2: no run time"},
	} {
		_, err := ReadSacct(strings.NewReader(c.in), "e.txt", time.UTC)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzReadSacct(f *testing.F) {
	f.Add(sacctSample)
	f.Add("JobIDRaw|Submit|Start|End|AllocCPUS|\n7|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:03:00|3|\n")
	f.Add("JobID|Submit|ElapsedRaw|TimelimitRaw|NNodes\n1|2024-01-01T00:00:00|99999999999|5|1.5K\n")
	f.Add("JobID|Submit|Elapsed\n1|2024-01-01T00:00:00|-5\n")
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ReadSacct(strings.NewReader(s), "f.txt", time.UTC)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, j := range tr.Jobs {
			if j.Submit < 0 || j.Runtime < 0 || (j.Nodes <= 0 && j.Procs <= 0) {
				t.Fatalf("accepted a job it cannot simulate: %+v", j)
			}
		}
	})
}

package main

import (
	"strings"
	"testing"
)

const swfSample = `; Version: 2.2
; MaxNodes: 4
; UnixStartTime: 843480031
;
    1    0  5  100  2  -1 -1  2  600 -1 1 7 1 -1 -1 -1 -1 -1
    2   10 -1   -1  1  -1 -1  1   60 -1 5 8 1 -1 -1 -1 -1 -1
    3   20  0   30  3  12.5 -1 -1  -1 -1 1 -1 1 -1 -1 -1 -1 -1
    4   -1  0   30  3  -1 -1  3   60 -1 1 7 1 -1 -1 -1 -1 -1
    5   30  0   40 -1  -1 -1 -1   60 -1 0 7 1 -1 -1 -1 -1 -1

    6   40  0   50  1  -1 -1  2  120 -1 0 7 1 -1 -1 -1 -1 -1
`

func TestReadSWF_Sample(t *testing.T) {
	tr, hdr, err := ReadSWF(strings.NewReader(swfSample), "s.swf")
	if err != nil {
		t.Fatal(err)
	}
	if hdr["MaxNodes"] != "4" || hdr["UnixStartTime"] != "843480031" {
		t.Errorf("header %v", hdr)
	}
	// 2 was cancelled before it ran, 4 has no submit time, 5 no processors at all.
	if tr.Skipped["cancelled before it ran"] != 1 || tr.Skipped["unknown submit time"] != 1 || tr.Skipped["unknown processors"] != 1 {
		t.Errorf("skipped %v", tr.Skipped)
	}
	if len(tr.Jobs) != 3 {
		t.Fatalf("jobs %+v", tr.Jobs)
	}
	j1, j3, j6 := tr.Jobs[0], tr.Jobs[1], tr.Jobs[2]
	if j1.ID != "1" || j1.Submit != 0 || j1.Runtime != 100 || j1.Requested != 600 || j1.Procs != 2 || j1.User != "7" || j1.Line != 5 {
		t.Errorf("job 1 %+v", j1)
	}
	// Requested processors unknown: the allocated ones; requested time unknown: -1; the
	// decimal average CPU time is accepted.
	if j3.Procs != 3 || j3.Requested != -1 || j3.User != "" {
		t.Errorf("job 3 %+v", j3)
	}
	// Requested (2) wins over allocated (1).
	if j6.Procs != 2 || j6.Line != 11 {
		t.Errorf("job 6 %+v", j6)
	}
}

func TestReadSWF_Errors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1\n", "w.swf:1: 17 fields"},
		{"; c\n1 0 0 ten 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n", `w.swf:2: field 4 "ten" is not an integer`},
		{"1 0 0 10 1 -1 -1 1 60.5 -1 1 1 1 -1 -1 -1 -1 -1\n", "w.swf:1: field 9"},
		{"1 0 0 -7 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n", "w.swf:1: field 4 is -7"},
	} {
		_, _, err := ReadSWF(strings.NewReader(c.in), "w.swf")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzReadSWF(f *testing.F) {
	f.Add(swfSample)
	f.Add("; MaxNodes: 100\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n")
	f.Add("1 0 0 1e9 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n")
	f.Add("\x00;;:\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		tr, _, err := ReadSWF(strings.NewReader(s), "f.swf")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.swf:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		for _, j := range tr.Jobs {
			if j.Submit < 0 || j.Runtime < 0 || j.Procs <= 0 {
				t.Fatalf("accepted a job it cannot simulate: %+v", j)
			}
		}
	})
}

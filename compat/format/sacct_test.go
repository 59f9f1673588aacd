package format

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseSacctFormat(t *testing.T) {
	tests := []struct {
		in   string
		want string // name:width,...
	}{
		{SacctDefaultFields, "JobID:-12,JobName:10,Partition:10,Account:10,AllocCPUS:10,State:10,ExitCode:8"},
		{"jobid%20,JobName%-30, state", "JobID:20,JobName:-30,State:10"},
		{"node,elap,exit", "NodeList:15,Elapsed:10,ExitCode:8"},
		{"jobid,,state", "JobID:-12"}, // an empty item ends the list, as in Slurm
		{"user%x", "User:0"},
	}
	for _, tt := range tests {
		cols, err := ParseSacctFormat(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		var got []string
		for _, c := range cols {
			got = append(got, c.Field.Name+":"+itoa(c.Field.Width))
		}
		if g := strings.Join(got, ","); g != tt.want {
			t.Errorf("%q = %s, want %s", tt.in, g, tt.want)
		}
	}
	if cols, _ := ParseSacctFormat("al%5"); len(cols) != len(SacctFields) || cols[3].Field.Width != 5 {
		t.Errorf("ALL prefix: %d columns", len(cols))
	}
	_, err := ParseSacctFormat("jobid,foo")
	if err == nil || err.Error() != `Invalid field requested: "foo"` {
		t.Errorf("err = %v", err)
	}
	_, err = ParseSacctFormat("allocgres")
	if err == nil || err.Error() != "AllocGRES has been removed, please use AllocTRES" {
		t.Errorf("err = %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestSacctPrinter(t *testing.T) {
	cols, _ := ParseSacctFormat("jobid,jobname%5,alloccpus%3,state,submit%10")
	p := &SacctPrinter{Columns: cols}
	wantHeader := "JobID        JobNa All      State     Submit \n" +
		"------------ ----- --- ---------- ---------- \n"
	if got := p.Header(false); got != wantHeader {
		t.Errorf("header:\n%q\nwant\n%q", got, wantHeader)
	}
	row := []SacctValue{{Text: "12_3"}, {Text: "verylongname"}, {Text: "12345"}, {Text: "COMPLETED"}, {Text: "2026-01-02T03:04:05"}}
	want := "12_3         very+ 12345  COMPLETED 2026-01-02 \n"
	if got := p.Row(row); got != want {
		t.Errorf("row:\n%q\nwant\n%q", got, want)
	}
	if got := p.Row([]SacctValue{{Null: true}}); got != "             "+"      "+"    "+"           "+"           \n" {
		t.Errorf("null row %q", got)
	}
	p.Parsable = SacctParsableEnding
	if got := p.Header(false) + p.Row(row); got != "JobID|JobName|AllocCPUS|State|Submit|\n12_3|verylongname|12345|COMPLETED|2026-01-02T03:04:05|\n" {
		t.Errorf("-p: %q", got)
	}
	p.Parsable, p.Delimiter = SacctParsableNoEnding, ";"
	if got := p.Row(row); got != "12_3;verylongname;12345;COMPLETED;2026-01-02T03:04:05\n" {
		t.Errorf("-P: %q", got)
	}
}

func FuzzParseSacctFormat(f *testing.F) {
	for _, s := range []string{SacctDefaultFields, SacctLongFields, "a", "", ",", "%", "jobid%-99999999999", "foo", "%%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cols, err := ParseSacctFormat(s)
		if err != nil {
			return
		}
		p := &SacctPrinter{Columns: cols}
		_ = p.Header(false)
		_ = p.Row([]SacctValue{{Text: s}, {Null: true}})
	})
}

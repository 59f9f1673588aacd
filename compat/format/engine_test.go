package format

import (
	"strings"
	"testing"
)

type testRow struct{ a, b string }

var testTable = &Table[testRow]{
	Command: "test",
	Fields: []Field[testRow]{
		mkField('a', "alpha", "ALPHA", func(r testRow) Cell { return Str(r.a) }),
		withTitleNoCut(mkField('b', "beta numb*", "BETA_LONG", func(r testRow) Cell { return Uncut(r.b) })),
	},
	InvalidLetter: "test: error: Invalid job format specification: %s",
	InvalidName:   "test: error: Invalid job format specification: %s",
}

func TestFormat_Render(t *testing.T) {
	row := testRow{a: "hello", b: "n[1-3]"}
	tests := []struct {
		spec, long  string
		header, row string
		msgs        string
	}{
		{spec: "%a|%b", header: "ALPHA|BETA_LONG", row: "hello|n[1-3]"},
		{spec: "%3a|%3b|", header: "ALP|BET|", row: "hel|n[1|"},
		{spec: "%.3a|%.3b|", header: "ALP|BETA_LONG|", row: "hel|n[1-3]|"},
		{spec: "%.8a|%8b|", header: "   ALPHA|BETA_LON|", row: "   hello|n[1-3]  |"},
		{spec: "%0a %.0b", header: "ALPHA BETA_LONG", row: "hello n[1-3]"},
		{spec: "x=%a%%b", header: "x=ALPHABETA_LONG", row: "x=hellon[1-3]"},
		{spec: "plain text", header: "plain text", row: "plain text"},
		{spec: "%q %a", header: "%q ALPHA", row: "%q hello", msgs: "test: error: Invalid job format specification: q"},
		{spec: "%5", header: "%5", row: "%5", msgs: "test: error: Invalid job format specification: "},
		{spec: "%-5a", header: "%-5a", row: "%-5a", msgs: "test: error: Invalid job format specification: -"},
		{spec: "%a%", header: "ALPHA", row: "hello"},
		{spec: "%ALL", header: "ALPHA|BETA_LONG|", row: "hello|n[1-3]|"}, // the letter after b (c) is dropped with its "|"
		{long: "alpha,beta", header: "ALPHA               BETA_LONG           ", row: "hello               n[1-3]              "},
		{long: "ALPHA:3,Beta:.4|", header: "ALPBETA_LONG|", row: "heln[1-3]|"},
		{long: "alpha:x,beta: 7 ,numbers:0", header: "ALPHAxBETA_LO BETA_LONG", row: "helloxn[1-3]  n[1-3]"},
		{long: "alpha:-3,beta:.", header: "ALPHA BETA_LONG", row: "hello n[1-3]"},
		{long: "gamma:4!,alpha:0", header: "!ALPHA", row: "!hello", msgs: "test: error: Invalid job format specification: gamma"},
	}
	for _, tt := range tests {
		var f *Format[testRow]
		var msgs []string
		if tt.long != "" {
			f, msgs = testTable.ParseLong(tt.long)
		} else {
			f, msgs = testTable.Parse(tt.spec)
		}
		if got := f.Header(); got != tt.header {
			t.Errorf("%q%q header = %q, want %q", tt.spec, tt.long, got, tt.header)
		}
		if got := f.Row(row); got != tt.row {
			t.Errorf("%q%q row = %q, want %q", tt.spec, tt.long, got, tt.row)
		}
		if got := strings.Join(msgs, "\n"); got != tt.msgs {
			t.Errorf("%q%q msgs = %q, want %q", tt.spec, tt.long, got, tt.msgs)
		}
	}
}

func TestFormat_RenderNoHeader(t *testing.T) {
	f, _ := testTable.Parse("%a")
	got := f.Render([]testRow{{a: "x"}, {a: "y"}}, true)
	if got != "x\ny\n" {
		t.Errorf("Render = %q", got)
	}
}

func TestConvertNumUnit(t *testing.T) {
	tests := []struct {
		n    float64
		u    Unit
		no   bool
		want string
	}{
		{0, UnitMega, false, "0"},
		{1000, UnitMega, false, "1000M"},
		{1024, UnitMega, false, "1G"},
		{1536, UnitMega, false, "1.50G"},
		{4096, UnitMega, true, "4096M"},
		{257000, UnitMega, false, "257000M"},
		{1024 * 1024, UnitMega, false, "1T"},
		{1, UnitNone, false, "1"},
		{2048, UnitNone, false, "2K"},
	}
	for _, tt := range tests {
		if got := ConvertNumUnit(tt.n, tt.u, tt.no); got != tt.want {
			t.Errorf("ConvertNumUnit(%v,%v,%v) = %q, want %q", tt.n, tt.u, tt.no, got, tt.want)
		}
	}
}

func TestSecs(t *testing.T) {
	tests := map[int64]string{0: "0:00", 59: "0:59", 3600: "1:00:00", 86400 + 61: "1-00:01:01",
		-1: "INVALID", yearSeconds + 1: "INVALID"}
	for in, want := range tests {
		if got := Secs(in); got != want {
			t.Errorf("Secs(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestSqueueFormatFromEnv(t *testing.T) {
	env := map[string]string{"SQUEUE_FORMAT2": "jobid"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	if spec, long, ok := SqueueFormatFromEnv(lookup); !ok || !long || spec != "jobid" {
		t.Errorf("got %q %v %v", spec, long, ok)
	}
	env["SQUEUE_FORMAT"] = "%i"
	if spec, long, ok := SqueueFormatFromEnv(lookup); !ok || long || spec != "%i" {
		t.Errorf("got %q %v %v", spec, long, ok)
	}
}

// TestTables_Unique checks that no two fields of a table share a letter or an -O name.
func TestTables_Unique(t *testing.T) {
	check := func(name string, letters []byte, names [][]string) {
		seenL := map[byte]bool{}
		for _, l := range letters {
			if l != 0 && seenL[l] {
				t.Errorf("%s: letter %c used twice", name, l)
			}
			seenL[l] = true
		}
		seenN := map[string]bool{}
		for _, ns := range names {
			for _, n := range ns {
				if seenN[n] {
					t.Errorf("%s: name %q used twice", name, n)
				}
				seenN[n] = true
			}
		}
	}
	var l []byte
	var n [][]string
	for _, f := range SqueueJobs.Fields {
		l, n = append(l, f.Letter), append(n, f.Names)
	}
	check("squeue", l, n)
	l, n = nil, nil
	for _, f := range SqueueStepsTable.Fields {
		l, n = append(l, f.Letter), append(n, f.Names)
	}
	check("squeue -s", l, n)
	l, n = nil, nil
	for _, f := range Sinfo.Fields {
		l, n = append(l, f.Letter), append(n, f.Names)
	}
	check("sinfo", l, n)
}

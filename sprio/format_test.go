package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/wire"
)

func job(id uint32, age, js float64, nice int64) wire.PriorityFactors {
	return wire.PriorityFactors{JobID: id, UserID: 0, Partition: "debug", Age: age, JobSize: js,
		Site: niceOffset, Nice: uint32(niceOffset + nice)}
}

func TestDefaultFormat(t *testing.T) {
	w := weights{age: 1000, js: 2000}
	for _, tc := range []struct {
		o    options
		want string
	}{
		{options{}, "%.15i %9r %.10Y %.10S %.10A %.10J"},
		{options{usersGiven: true}, "%.15i %9r %.8u %.10Y %.10S %.10A %.10J"},
		{options{norm: true}, "%.15i %9r %10y %10a %10j"},
		{options{long: true}, "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T"},
		{options{long: true, norm: true}, "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t"},
	} {
		if got := defaultFormat(&tc.o, w); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}

// TestRender checks layout against Slurm's print.c rules: right-justified "%.N", left
// "%N" padded, both cut to N; "%.0f" rounds half to even; a prefix starts every line.
func TestRender(t *testing.T) {
	var errb bytes.Buffer
	fields := parseFormat("<%.4i|%3r|%.6Y %A%N>", &errb)
	p := printer{w: weights{age: 1000}, user: func(uint32) string { return "u" }}
	got := p.render(fields, []wire.PriorityFactors{job(12345, 2.5, 0, 0), job(7, 3.5, 0, 10)}, true, false)
	want := "<JOBI|PAR|PRIORI AGENICE>\n" +
		"<1234|deb|     2 20>\n" + // 2.5 → "2" (half to even); priority 2.5 → 2
		"<   7|deb|     1 410>\n" // 3.5 → "4"; nice 10; 3.5 − 10 < 1 → 1
	if got != want || errb.Len() != 0 {
		t.Errorf("got\n%s\nwant\n%s\nstderr %q", got, want, errb.String())
	}
	if got := p.render(fields, nil, false, true); got != "<Weig|   |       1000>\n" {
		t.Errorf("weights row %q", got)
	}
}

func TestParseFormat_BadLetter(t *testing.T) {
	var errb bytes.Buffer
	fields := parseFormat("%i %z %%Y", &errb)
	if len(fields) != 2 || fields[0].letter != 'i' || fields[1].letter != 'Y' {
		t.Errorf("fields %+v", fields)
	}
	if errb.String() != "sprio: error: Invalid job format specification: z\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

func TestSortFactors(t *testing.T) {
	var jobs []wire.PriorityFactors
	ids := func() string {
		var b strings.Builder
		for _, j := range jobs {
			b.WriteByte(byte('0' + j.JobID))
		}
		return b.String()
	}
	// Ages 10, 30, 20 and job sizes 1, 1, 2 for jobs 3, 1, 2 (in that order before sorting).
	for spec, want := range map[string]string{"": "123", "-i": "321", "A": "321", "-Y": "123", "J,-A": "132", "-J,i": "213"} {
		jobs = []wire.PriorityFactors{job(3, 10, 1, 0), job(1, 30, 1, 0), job(2, 20, 2, 0)}
		if err := sortFactors(jobs, spec, func(uint32) string { return "" }); err != nil || ids() != want {
			t.Errorf("sort %q: %s, %v; want %s", spec, ids(), err, want)
		}
	}
	if err := sortFactors(jobs, "x", nil); err == nil || err.Error() != "Invalid sort specification: x" {
		t.Errorf("bad spec: %v", err)
	}
}

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{[]string{"-j", "1,2", "-u", "root", "-S", "-Y"}, -1, "", ""},
		{[]string{"-j"}, -1, "", ""},
		{[]string{"-j", "5", "6"}, 1, usageText, "sprio: error: Unrecognized option: 6\n"},
		{[]string{"--jobs=x"}, 1, "", "sprio: error: Invalid job id: x\n"},
		{[]string{"-u", "no-such-user-zz"}, -1, "", "sprio: error: Invalid user: no-such-user-zz\n\n"},
		{[]string{"-l", "-o", "%i"}, 1, "", "sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n"},
		{[]string{"--usage"}, 0, "", ""},
	} {
		var out, errb bytes.Buffer
		_, code := parseArgs(append([]string{"sprio"}, tc.args...), nil, &out, &errb)
		if code != tc.code || out.String() != tc.out || errb.String() != tc.err {
			t.Errorf("%q: code %d out %q err %q", tc.args, code, out.String(), errb.String())
		}
	}
	o, _ := parseArgs([]string{"sprio", "-j", "4"}, []string{"SPRIO_FORMAT=%i"}, &bytes.Buffer{}, &bytes.Buffer{})
	if o.format != "%i" || len(o.jobIDs) != 1 || o.jobIDs[0] != 4 || !o.jobFlag {
		t.Errorf("SPRIO_FORMAT and -j: %+v", o)
	}
	o, _ = parseArgs([]string{"sprio", "-o", "%Y"}, []string{"SPRIO_FORMAT=%i"}, &bytes.Buffer{}, &bytes.Buffer{})
	if o.format != "%Y" {
		t.Errorf("-o must win over SPRIO_FORMAT: %q", o.format)
	}
}

// FuzzParseFormat: any format parses and renders without panicking, one line per row (plus
// the newlines the format itself holds).
func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{"%.15i %9r %.10Y %.10S", "%i|%N|%Y", "abc", "%", "%%", "%.", "%.99999999999999999999i", "%\xff", "pre%10yX%-5a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		var errb bytes.Buffer
		fields := parseFormat(format, &errb)
		p := printer{w: weights{age: 1, tres: "cpu=1"}, user: func(uint32) string { return "u" }}
		out := p.render(fields, []wire.PriorityFactors{job(1, 1, 1, 0), {DirectPrio: 9}}, true, false)
		kept := 0
		for _, f := range fields {
			kept += strings.Count(f.suffix, "\n")
		}
		if strings.Count(out, "\n") != 3*(1+kept) {
			t.Fatalf("%q rendered %d lines", format, strings.Count(out, "\n"))
		}
		_ = p.render(fields, nil, true, true)
	})
}

// FuzzSortSpec: any -S value sorts or is refused; never a panic.
func FuzzSortSpec(f *testing.F) {
	for _, s := range []string{"i", "-Y,i", "", ",", "-", "+A", "x", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		jobs := []wire.PriorityFactors{job(2, 1, 0, 0), job(1, 2, 0, 5)}
		_ = sortFactors(jobs, spec, func(uint32) string { return "" })
		if len(jobs) != 2 {
			t.Fatal("sort lost jobs")
		}
	})
}

package slurmtime_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/filepattern"
	"github.com/orbit-hpc/orbit/compat/memsize"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
)

// readTSV returns the tab-separated rows of a golden file, each with at least n fields.
func readTSV(t *testing.T, name string, n int) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		row := strings.Split(sc.Text(), "\t")
		if len(row) < n {
			t.Fatalf("%s: short row %q", name, sc.Text())
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no cases", name)
	}
	return rows
}

// sbatchErr is what sbatch prints for an error: its prefix, and parse_time's own line first
// when there is one; "\n" is written as the two characters the recorder uses.
func sbatchErr(err error) string {
	var oe *slurmtime.OptionError
	if errors.As(err, &oe) && oe.Parse != nil {
		return oe.Parse.Error() + `\n` + "sbatch: error: " + oe.Error()
	}
	return "sbatch: error: " + err.Error()
}

func TestReference_TimeLimit(t *testing.T) {
	for _, r := range readTSV(t, "timelimit.tsv", 4) {
		in, rc, want, wantErr := r[0], r[1], r[2], r[3]
		m, err := slurmtime.ParseTimeLimitOption("--time", in)
		switch {
		case rc == "0" && err != nil:
			t.Errorf("--time=%q: reference accepted it (TimeLimit=%s), Orbit: %v", in, want, err)
		case rc == "0":
			if got := slurmtime.FormatTimeLimit(m); got != want {
				t.Errorf("--time=%q: TimeLimit=%s, reference TimeLimit=%s", in, got, want)
			}
		case err == nil:
			t.Errorf("--time=%q: reference refused it (%s), Orbit parsed %d", in, wantErr, m)
		case sbatchErr(err) != wantErr:
			t.Errorf("--time=%q: error %q, reference %q", in, sbatchErr(err), wantErr)
		}
	}
}

func TestReference_Mem(t *testing.T) {
	for _, r := range readTSV(t, "mem.tsv", 4) {
		in, rc, want, wantErr := r[0], r[1], r[2], r[3]
		mb, err := memsize.ParseMBOption("--mem", in)
		switch {
		case rc == "0" && err != nil:
			t.Errorf("--mem=%q: reference accepted it (MinMemoryNode=%s), Orbit: %v", in, want, err)
		case rc == "0":
			if got := memsize.FormatMB(mb); got != want {
				t.Errorf("--mem=%q: MinMemoryNode=%s, reference MinMemoryNode=%s", in, got, want)
			}
		case err == nil:
			t.Errorf("--mem=%q: reference refused it (%s), Orbit parsed %d", in, wantErr, mb)
		case sbatchErr(err) != wantErr:
			t.Errorf("--mem=%q: error %q, reference %q", in, sbatchErr(err), wantErr)
		}
	}
}

// checkBegin compares one --begin case. The controller shows EligibleTime=Unknown for a begin
// time that is not in the future, so then the parsed time must simply not be after now.
func checkBegin(t *testing.T, now time.Time, in, rc, want, wantErr string) {
	t.Helper()
	got, err := slurmtime.ParseTimeOption("--begin", in, now)
	switch {
	case rc == "0" && err != nil:
		t.Errorf("--begin=%q: reference accepted it (EligibleTime=%s), Orbit: %v", in, want, err)
	case rc == "0" && want == "Unknown":
		if got.After(now) {
			t.Errorf("--begin=%q at %v: %v is in the future, reference shows it as already eligible", in, now, got)
		}
	case rc == "0":
		if s := slurmtime.FormatTimestamp(got); s != want {
			t.Errorf("--begin=%q at %v: EligibleTime=%s, reference EligibleTime=%s", in, now, s, want)
		}
	case err == nil:
		t.Errorf("--begin=%q: reference refused it (%s), Orbit parsed %v", in, wantErr, got)
	case sbatchErr(err) != wantErr:
		t.Errorf("--begin=%q: error %q, reference %q", in, sbatchErr(err), wantErr)
	}
}

func TestReference_BeginAbsolute(t *testing.T) {
	// The recorder runs with TZ=UTC; absolute dates do not depend on now unless refused.
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, r := range readTSV(t, "begin.tsv", 4) {
		checkBegin(t, now, r[0], r[1], r[2], r[3])
	}
}

func TestReference_BeginRelative(t *testing.T) {
	for _, r := range readTSV(t, "begin_relative.tsv", 5) {
		epoch, err := strconv.ParseInt(r[0], 10, 64)
		if err != nil {
			t.Fatalf("bad now %q", r[0])
		}
		checkBegin(t, time.Unix(epoch, 0).UTC(), r[1], r[2], r[3], r[4])
	}
}

func TestReference_OutputPattern(t *testing.T) {
	host := readTSV(t, "pattern_host.tsv", 2)[0]
	const dir = "<dir>"
	for _, r := range readTSV(t, "pattern.tsv", 5) {
		pattern, show, created := r[0], r[2], r[4]
		job, err := strconv.ParseUint(r[1], 10, 32)
		if err != nil {
			t.Fatalf("bad job id %q", r[1])
		}
		f := filepattern.Fields{
			JobID:       uint32(job),
			ArrayTaskID: filepattern.NoVal,
			StepID:      filepattern.BatchStep,
			JobName:     "tm_rec",
			User:        host[1],
			FirstNode:   host[0],
		}
		if got := filepattern.Path(pattern, dir, f); got != dir+"/"+created {
			t.Errorf("-o %q: file %q, reference created %q", pattern, got, dir+"/"+created)
		}
		if got := filepattern.ShowPath(pattern, dir, f); got != dir+"/"+show {
			t.Errorf("-o %q: StdOut=%s, reference StdOut=%s", pattern, got, dir+"/"+show)
		}
	}
}

func TestReference_SrunPattern(t *testing.T) {
	host := readTSV(t, "pattern_host.tsv", 2)[0]
	const dir = "<dir>"
	for _, r := range readTSV(t, "srun_pattern.tsv", 2) {
		pattern, created := r[0], ""
		if len(r) > 2 {
			created = r[2]
		}
		job, err := strconv.ParseUint(r[1], 10, 32)
		if err != nil {
			t.Fatalf("bad job id %q", r[1])
		}
		f := filepattern.Fields{
			JobID:       uint32(job),
			ArrayTaskID: filepattern.NoVal,
			StepID:      "0",
			JobName:     "tm_rec",
			User:        host[1],
			FirstNode:   host[0],
		}
		// The two tasks run on one node, so both have node index 0.
		sf := filepattern.SrunExpand(pattern, f, 2)
		files := map[string]bool{}
		switch {
		case sf.Type == filepattern.IOPerTask:
			for task := 0; task < 2; task++ {
				f.TaskID = task
				files[filepattern.StepTaskPath(sf.Name, dir, f)] = true
			}
		case sf.Type == filepattern.IOAll && sf.Name != "":
			files[dir+"/"+sf.Name] = true
		}
		var got []string
		for name := range files {
			if name == "/dev/null" {
				continue
			}
			got = append(got, strings.TrimPrefix(name, dir+"/"))
		}
		slices.Sort(got)
		if g := strings.Join(got, "|"); g != created {
			t.Errorf("srun -n2 -o %q: files %q, reference created %q", pattern, g, created)
		}
	}
}

package format_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/format"
)

// goldenCase is one recorded command run: testdata/<cmd>/NNN.{case,out,err,rc}.
type goldenCase struct {
	name, mode, spec string
	out, err         string
	rc               int
}

func readCases(t *testing.T, dir string) []goldenCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.case"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recorded cases in testdata/%s (run record.sh): %v", dir, err)
	}
	var cases []goldenCase
	for _, p := range paths {
		base := strings.TrimSuffix(p, ".case")
		read := func(ext string) string {
			b, err := os.ReadFile(base + ext)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		mode, spec, _ := strings.Cut(strings.TrimSuffix(read(".case"), "\n"), "\t")
		rc, _ := strconv.Atoi(strings.TrimSpace(read(".rc")))
		cases = append(cases, goldenCase{name: filepath.Base(base), mode: mode, spec: spec,
			out: read(".out"), err: read(".err"), rc: rc})
	}
	return cases
}

// squeueRows rebuilds squeue's rows from the recorded scontrol data, in the order the
// reference printed them (sorting is squeue's business, not the engine's).
func squeueRows(t *testing.T) []*format.JobRow {
	byID := map[string]*format.JobRow{}
	var rows []*format.JobRow
	// Jobs do not carry their cluster's name; it comes from `scontrol show config`.
	cluster := readConfig(t)["ClusterName"]
	for _, r := range readRecords(t, "testdata/jobs.txt") {
		r["ClusterName"] = cluster
		j := jobRow(t, r)
		byID[strconv.FormatUint(uint64(j.JobID), 10)] = j
	}
	order, err := os.ReadFile("testdata/order.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range strings.Fields(string(order)) {
		j, ok := byID[id]
		if !ok {
			t.Fatalf("order.txt names job %s missing from jobs.txt", id)
		}
		rows = append(rows, j)
	}
	latest := rows[0].Submit
	for _, j := range rows {
		if j.Submit.After(latest) {
			latest = j.Submit
		}
	}
	for _, j := range rows {
		j.Now = latest
	}
	return rows
}

func squeueFormat(t *testing.T, mode, spec string) (*format.Format[*format.JobRow], []string, bool) {
	noHeader := strings.HasSuffix(mode, "h")
	switch strings.TrimSuffix(mode, "h") {
	case "default":
		f, m := format.SqueueJobs.ParseLong(format.SqueueDefault)
		return f, m, noHeader
	case "long":
		f, m := format.SqueueJobs.ParseLong(format.SqueueLong)
		return f, m, noHeader
	case "o":
		f, m := format.SqueueJobs.Parse(spec)
		return f, m, noHeader
	case "O":
		f, m := format.SqueueJobs.ParseLong(spec)
		return f, m, noHeader
	}
	t.Fatalf("unknown mode %q", mode)
	return nil, nil, false
}

// readConfig reads the slurm.conf values recorded from `scontrol show config`.
func readConfig(t *testing.T) map[string]string {
	b, err := os.ReadFile("testdata/config.txt")
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]string{}
	for _, line := range strings.Fields(string(b)) {
		if k, v, ok := strings.Cut(line, "="); ok {
			cfg[k] = v
		}
	}
	return cfg
}

func stderrOf(msgs []string) string {
	if len(msgs) == 0 {
		return ""
	}
	return strings.Join(msgs, "\n") + "\n"
}

func TestSqueueGolden(t *testing.T) {
	rows := squeueRows(t)
	for _, c := range readCases(t, "squeue") {
		t.Run(c.name, func(t *testing.T) {
			f, msgs, noHeader := squeueFormat(t, c.mode, c.spec)
			if got := f.Render(rows, noHeader); got != c.out {
				t.Errorf("squeue %s %q:\n got:\n%s\nwant:\n%s", c.mode, c.spec, got, c.out)
			}
			if got := stderrOf(msgs); got != c.err {
				t.Errorf("squeue %s %q stderr:\n got: %q\nwant: %q", c.mode, c.spec, got, c.err)
			}
			if c.rc != 0 {
				t.Errorf("reference exited %d; format errors never change squeue's exit code", c.rc)
			}
		})
	}
}

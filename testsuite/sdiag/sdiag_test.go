package sdiag_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// normalise applies normalise.sed (the rules record.sh applied to the reference) and
// collapses runs of equal lines, as record.sh's uniq does.
func normalise(t *testing.T, report string) string {
	t.Helper()
	cmd := exec.Command("sed", "-E", "-f", "normalise.sed")
	cmd.Stdin = strings.NewReader(report)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sed: %v", err)
	}
	lines := strings.SplitAfter(string(out), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i > 0 && l == lines[i-1] {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

func golden(t *testing.T, name, ext string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+ext))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSdiag_MatchesReference runs every recorded case on Orbit's sdiag against a cluster that
// has run a few jobs, so every section has content.
func TestSdiag_MatchesReference(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	for range 2 {
		out, errOut, code := c.Run(t, "sbatch", "--parsable", "--wrap", "true")
		if code != 0 {
			t.Fatalf("sbatch: exit %d, %s", code, errOut)
		}
		id, _ := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		c.WaitJob(t, uint32(id), states.JobComplete)
	}
	data, err := os.ReadFile("cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, args, _ := strings.Cut(l, "\t")
		t.Run(name, func(t *testing.T) {
			out, errOut, code := c.Run(t, "sdiag", strings.Fields(args)...)
			if !strings.HasPrefix(name, "help") && !strings.HasPrefix(name, "usage") && !strings.HasPrefix(name, "bad_") {
				out = normalise(t, out)
			}
			// getopt names the program by argv[0]: the test ran Orbit's by its path.
			errOut = strings.ReplaceAll(errOut, testbin.Path(t, "sdiag")+":", "sdiag:")
			if want := strings.TrimSpace(golden(t, name, ".rc")); strconv.Itoa(code) != want {
				t.Errorf("exit %d, reference %s (stderr %q)", code, want, errOut)
			}
			if want := golden(t, name, ".out"); out != want {
				t.Errorf("stdout:\n%s\nreference:\n%s", out, want)
			}
			if want := golden(t, name, ".err"); errOut != want {
				t.Errorf("stderr:\n%s\nreference:\n%s", errOut, want)
			}
		})
	}
}

var submitRE = regexp.MustCompile(`(?m)^\tREQUEST_SUBMIT_BATCH_JOB {16}\( 4003\) count:(\d+) +ave_time:\d+ +total_time:\d+$`)

// TestSdiag_CountsAndReset checks the values a user reads: jobs and RPCs counted, and
// `sdiag -r` starting a new period.
func TestSdiag_CountsAndReset(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	var ids []uint32
	for range 3 {
		out, errOut, code := c.Run(t, "sbatch", "--parsable", "--wrap", "true")
		if code != 0 {
			t.Fatalf("sbatch: exit %d, %s", code, errOut)
		}
		id, _ := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		ids = append(ids, uint32(id))
	}
	for _, id := range ids {
		c.WaitJob(t, id, states.JobComplete)
	}
	out, errOut, code := c.Run(t, "sdiag")
	if code != 0 {
		t.Fatalf("sdiag: exit %d, %s", code, errOut)
	}
	t.Logf("report:\n%s", out)
	for _, want := range []string{"Jobs submitted: 3\n", "Jobs started:   3\n", "Jobs completed: 3\n",
		"Jobs canceled:  0\n", "Jobs failed:    0\n", "Jobs pending:   0\n", "Jobs running:   0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if m := submitRE.FindStringSubmatch(out); m == nil || m[1] != "3" {
		t.Errorf("no REQUEST_SUBMIT_BATCH_JOB line with count 3:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^\t\S+ +\( *\d+\) count:\d+ +ave_time:\d+ +total_time:\d+$`).MatchString(
		out[strings.Index(out, "by user"):]) {
		t.Errorf("no per-user line:\n%s", out)
	}

	out, errOut, code = c.Run(t, "sdiag", "-r")
	if code != 0 || out != "Reset scheduling statistics\n" {
		t.Fatalf("sdiag -r: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, _, _ = c.Run(t, "sdiag")
	if !strings.Contains(out, "Jobs submitted: 0\n") || submitRE.MatchString(out) {
		t.Errorf("after -r the report still counts the earlier period:\n%s", out)
	}
}

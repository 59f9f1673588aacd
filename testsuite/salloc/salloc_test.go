package salloc_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// allocRE matches job ids in salloc's messages; they differ between the reference and a
// fresh test cluster.
var allocRE = regexp.MustCompile(`(allocation|job) [0-9]+`)

// normalise makes salloc's stderr comparable: job ids become JOBID, and the "has been
// revoked." line, which races with "Relinquishing" on the reference (the controller's
// job-complete message may arrive first), is dropped, as record.sh drops it.
func normalise(s string) string {
	s = allocRE.ReplaceAllString(s, "$1 JOBID")
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasSuffix(strings.TrimSuffix(l, "\n"), "has been revoked.") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// slurmNames is the sorted list of SLURM_* variable names in env output.
func slurmNames(out string) string {
	var names []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		name, _, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.HasPrefix(name, "SLURM_") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "\n") + "\n"
}

type testCase struct{ name, args string }

func readCases(t *testing.T) []testCase {
	t.Helper()
	data, err := os.ReadFile("cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, args, _ := strings.Cut(l, "\t")
		cases = append(cases, testCase{name, args})
	}
	return cases
}

// words splits a cases.txt argument list: shell words with single quotes only.
func words(s string) []string {
	var out []string
	var cur strings.Builder
	inQuote, have := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			inQuote, have = !inQuote, true
		case r == ' ' && !inQuote:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

func golden(t *testing.T, name, ext string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+ext))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSalloc_MatchesReference runs every recorded case on Orbit's salloc.
func TestSalloc_MatchesReference(t *testing.T) {
	// One node, as on the reference: which variables are set then depends on salloc alone.
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 4})
	testbin.Path(t, "salloc")
	for _, tc := range readCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-J", "h5rec-salloc"}, words(tc.args)...)
			isEnv := strings.HasPrefix(tc.name, "env_")
			if isEnv {
				args = append(args, "env")
			}
			out, errOut, code := c.RunNamed(t, "salloc", args...)
			if isEnv {
				out = slurmNames(out)
			}
			if want := strings.TrimSpace(golden(t, tc.name, ".rc")); strconv.Itoa(code) != want {
				t.Errorf("exit %d, reference %s (stderr %q)", code, want, errOut)
			}
			if want := golden(t, tc.name, ".out"); out != want {
				t.Errorf("stdout:\n%s\nreference:\n%s", out, want)
			}
			got, want := normalise(errOut), golden(t, tc.name, ".err")
			if strings.HasPrefix(tc.name, "defined_") {
				// -v cases compare the list of defined options only: salloc also prints the
				// select plugins' lines and its allocation's around it.
				got, want = refcase.DefinedOptionsBlock(got), refcase.DefinedOptionsBlock(want)
				if want == "" {
					t.Fatal("the recording has no list of defined options")
				}
			}
			if got != want {
				t.Errorf("stderr:\n%s\nreference:\n%s", got, want)
			}
		})
	}
}

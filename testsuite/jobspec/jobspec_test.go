package jobspec_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/filepattern"
	"github.com/orbit-hpc/orbit/compat/jobspec"
	"github.com/orbit-hpc/orbit/compat/options"
	"github.com/orbit-hpc/orbit/compat/slurmtime"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// fakeID stands for the job id the reference assigned; goldens have it as @ID@.
const fakeID = 987654321

// fakeCwd stands for record.sh's scratch directory; goldens have it as @CWD@.
const fakeCwd = "/orbitjs-submit-dir"

type testCase struct {
	name, script         string
	env, args, scriptArg []string
}

func readCases(t *testing.T) []testCase {
	b, err := os.ReadFile("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 5 {
			t.Fatalf("cases.txt: bad line %q", l)
		}
		cases = append(cases, testCase{f[0], f[1], strings.Fields(f[2]), strings.Fields(f[3]), strings.Fields(f[4])})
	}
	return cases
}

type golden struct {
	rc             int
	stdout, stderr string
	show           string
}

func readGolden(t *testing.T, name string) golden {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".txt"))
	if err != nil {
		t.Fatalf("%v (run record.sh against the reference)", err)
	}
	s := string(b)
	var g golden
	head, rest, _ := strings.Cut(s, "\n--- stdout\n")
	g.rc, _ = strconv.Atoi(strings.TrimPrefix(head, "rc="))
	g.stdout, rest, _ = strings.Cut(rest, "--- stderr\n")
	g.stderr, g.show, _ = strings.Cut(rest, "--- show\n")
	g.show = strings.TrimSuffix(g.show, "\n")
	return g
}

var keyRE = regexp.MustCompile(` [A-Za-z][A-Za-z/:_]*=`)

// field returns Key's value in a `scontrol show job -o` line: up to the next " Key=".
func field(show, key string) string {
	i := strings.Index(" "+show, " "+key+"=")
	if i < 0 {
		return "<absent>"
	}
	v := show[i+len(key)+1:]
	if loc := keyRE.FindStringIndex(v); loc != nil {
		v = v[:loc[0]]
	}
	return v
}

func TestSbatchAgainstReference(t *testing.T) {
	cases := readCases(t)
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := readGolden(t, c.name)
			script, err := os.ReadFile(filepath.Join("testdata", "scripts", "orbitjs_"+c.script+".sh"))
			if err != nil {
				t.Fatal(err)
			}
			argv := append([]string{"/usr/bin/sbatch", "-H"}, c.args...)
			argv = append(argv, "orbitjs_"+c.script+".sh")
			argv = append(argv, c.scriptArg...)
			env := append([]string{"PATH=/usr/bin:/bin", "HOME=/root"}, c.env...)
			in := options.SbatchInput{Argv: argv, Env: env, Cwd: fakeCwd, Now: time.Now(),
				Script: func(string) ([]byte, error) { return script, nil }}
			js, err := in.Parse()
			if g.rc != 0 {
				var oe *options.Error
				if !errors.As(err, &oe) {
					t.Fatalf("Orbit accepted what the reference refused (rc=%d):\n%s", g.rc, g.stderr)
				}
				if oe.Stderr != g.stderr || oe.ExitCode != g.rc {
					t.Errorf("stderr/rc:\n got %q rc=%d\nwant %q rc=%d", oe.Stderr, oe.ExitCode, g.stderr, g.rc)
				}
				return
			}
			if err != nil {
				t.Fatalf("Orbit refused what the reference accepted: %v", err)
			}
			wantWarn := g.stderr
			if block := refcase.DefinedOptionsBlock(g.stderr); block != "" {
				// A -v case: the warnings come before the list of defined options, and the
				// select plugins' lines after it are sbatch's, from slurm.conf, not the
				// options' (internal/cmdclient.SelectPluginLines).
				wantWarn, _, _ = strings.Cut(g.stderr, block)
				got := strings.ReplaceAll(options.DefinedOptions(js), fakeCwd, "@CWD@")
				if got != block {
					t.Errorf("defined options:\n%s\nreference:\n%s", got, block)
				}
			}
			if got := strings.Join(js.Warnings, ""); got != wantWarn {
				t.Errorf("stderr: got %q want %q", got, wantWarn)
			}
			compareShow(t, js, g.show)
		})
	}
}

func compareShow(t *testing.T, js *jobspec.JobSpec, show string) {
	t.Helper()
	id := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, strconv.Itoa(fakeID), "@ID@"), fakeCwd, "@CWD@")
	}
	f := filepattern.Fields{JobID: fakeID, ArrayTaskID: filepattern.NoVal, User: "@USER@", JobName: js.Name, IsArray: js.Array != nil}
	if js.Array != nil {
		f.ArrayJobID = fakeID
	}
	out := js.Output
	if out == "" {
		out = "slurm-%j.out"
		if js.Array != nil {
			out = "slurm-%A_%a.out"
		}
	}
	errp := js.Error
	if errp == "" {
		errp = out
	}
	want := map[string]string{
		"JobName":    js.Name,
		"Partition":  orDefault(js.Partition, "debug"),
		"TimeLimit":  "UNLIMITED",
		"NumNodes":   "1",
		"NumTasks":   "1",
		"CPUs/Task":  "1",
		"WorkDir":    id(js.WorkDir),
		"StdOut":     id(filepattern.ShowPath(out, js.WorkDir, f)),
		"StdErr":     id(filepattern.ShowPath(errp, js.WorkDir, f)),
		"StdIn":      js.Input,
		"Dependency": "(null)",
		"Command":    id(strings.Join(append([]string{js.SubmitDir + "/" + js.ScriptPath}, js.Argv[1:]...), " ")),
	}
	if js.TimeLimit != jobspec.NoVal {
		want["TimeLimit"] = slurmtime.FormatTimeLimit(js.TimeLimit)
	}
	if js.NodesSet {
		want["NumNodes"] = fmt.Sprintf("%d-%d", js.MinNodes, js.MaxNodes)
	}
	want["NumTasks"] = strconv.Itoa(int(js.NumTasksOrDefault()))
	if js.CPUsPerTask != jobspec.NoVal {
		want["CPUs/Task"] = strconv.Itoa(int(js.CPUsPerTask))
	}
	if js.Dependencies != nil {
		want["Dependency"] = showDependency(js.Dependencies)
	}
	if js.Array != nil {
		want["ArrayTaskId"] = showArray(js.Array)
	} else if field(show, "ArrayTaskId") != "<absent>" {
		t.Errorf("reference made an array job, Orbit did not")
	}
	for k, v := range want {
		if got := field(show, k); got != v {
			t.Errorf("%s: Orbit %q, reference %q", k, v, got)
		}
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// showDependency renders a pending job's dependency as scontrol does.
func showDependency(d *jobspec.DependencyList) string {
	sep := ","
	if d.Any {
		sep = "?"
	}
	var parts []string
	for _, it := range d.Items {
		s := it.Type
		if it.JobID != "" {
			s += ":" + it.JobID
		}
		if it.Minutes != 0 {
			s += "+" + strconv.Itoa(it.Minutes)
		}
		parts = append(parts, s+"(unfulfilled)")
	}
	return strings.Join(parts, sep)
}

// showArray renders the pending task set as scontrol's ArrayTaskId: ranges of consecutive
// indices, then %throttle.
func showArray(a *jobspec.ArraySpec) string {
	var parts []string
	for i := 0; i < len(a.Indices); {
		j := i
		for j+1 < len(a.Indices) && a.Indices[j+1] == a.Indices[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", a.Indices[i], a.Indices[j]))
		} else {
			parts = append(parts, strconv.Itoa(int(a.Indices[i])))
		}
		i = j + 1
	}
	s := strings.Join(parts, ",")
	if a.Throttle != 0 {
		s += fmt.Sprintf("%%%d", a.Throttle)
	}
	return s
}

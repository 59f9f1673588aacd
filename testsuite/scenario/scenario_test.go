package scenario_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/scenario"
)

// TestScenario_MatchesReference runs testdata/scenario.txt on an Orbit cluster shaped like
// the reference (one node n1, 2x32 cores, 257000 MB, host vm, cluster anchor, MinJobAge 300)
// and compares every capture, normalised, with the recording from the reference. Differences
// listed in testdata/known-diffs.txt are logged, not failed; an unlisted difference fails,
// and so does a listed one that no longer differs. The orbit-only lines (drain and resume)
// are checked against their shape lines.
func TestScenario_MatchesReference(t *testing.T) {
	ref := filepath.Join("testdata", "reference")
	digitsText, err := os.ReadFile(filepath.Join(ref, "id-digits"))
	if err != nil {
		t.Fatalf("no recording (run record.sh against the reference): %v", err)
	}
	digits, err := strconv.Atoi(strings.TrimSpace(string(digitsText)))
	if err != nil || digits < 1 || digits > 9 {
		t.Fatalf("testdata/reference/id-digits: %q", digitsText)
	}
	steps := parseFile(t, filepath.Join("testdata", "scenario.txt"))
	kdText, err := os.ReadFile(filepath.Join("testdata", "known-diffs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	known, err := scenario.ParseKnownDiffs(string(kdText))
	if err != nil {
		t.Fatal(err)
	}

	// Orbit's ids start at 10^(digits-1) so they print as wide as the reference's did.
	c := cluster.Start(t, cluster.Options{
		Nodes: 1, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1, RealMemory: 257000,
		NodeHostname: "vm", ControllerHost: "vm", ClusterName: "anchor", MinJobAge: 300,
		ExtraConf: fmt.Sprintf("FirstJobId=%d\n", int(math.Pow10(digits-1))),
	})
	var binDir string
	for _, b := range []string{"sbatch", "srun", "squeue", "scancel", "scontrol", "sinfo"} {
		binDir = filepath.Dir(testbin.Path(t, b))
	}
	target := scenario.Target{BinDir: binDir, Conf: c.ConfPath, WorkDir: c.WorkDir, Orbit: true, Logf: t.Logf}
	caps, ids, err := scenario.Run(context.Background(), target, steps)
	if err != nil {
		t.Fatalf("the scenario did not run through on Orbit: %v", err)
	}
	t.Logf("job ids: %v", ids)

	checkShapes(t, steps, caps)

	got, norm := scenario.Normalised(caps, runEnv(t, c.WorkDir))
	seen := map[string]bool{}
	for _, cp := range caps {
		if cp.Orbit {
			continue
		}
		want, err := scenario.ReadGolden(ref, cp.Name)
		if err != nil {
			t.Errorf("%s: no recording: %v (run record.sh)", cp.Name, err)
			continue
		}
		g := got[cp.Name]
		for _, s := range []struct{ stream, got, want string }{
			{"out", g.Out, want.Out}, {"err", g.Err, want.Err},
			{"rc", strconv.Itoa(g.RC), strconv.Itoa(want.RC)},
		} {
			key := cp.Name + " " + s.stream
			seen[key] = true
			kd, listed := known[key]
			switch {
			case s.got != s.want && listed:
				t.Logf("known difference %s (%s; known-diffs.txt:%d)\n`%s`\norbit:\n%s\nreference:\n%s",
					key, kd.Reason, kd.Line, strings.Join(cp.Argv, " "), s.got, s.want)
			case s.got != s.want:
				t.Errorf("%s (scenario line %d) differs from the reference\n`%s`\norbit:\n%s\nreference:\n%s",
					key, cp.Line, strings.Join(cp.Argv, " "), s.got, s.want)
			case listed:
				t.Errorf("%s is listed in known-diffs.txt (line %d) but matches the reference now: remove the entry", key, kd.Line)
			}
		}
	}
	for key, kd := range known {
		if !seen[key] {
			t.Errorf("known-diffs.txt line %d names %s, which the scenario does not capture", kd.Line, key)
		}
	}
	if t.Failed() {
		t.Logf("id mapping: %v", norm)
	}
}

// checkShapes checks the orbit-only captures against the scenario's shape lines.
func checkShapes(t *testing.T, steps []scenario.Step, caps []scenario.Capture) {
	t.Helper()
	byName := map[string]scenario.Capture{}
	for _, c := range caps {
		byName[c.Name] = c
	}
	for _, st := range steps {
		if st.Op != scenario.OpShape {
			continue
		}
		c := byName[st.Name]
		s := map[string]string{"out": c.Out, "err": c.Err, "rc": strconv.Itoa(c.RC)}[st.Stream]
		if !st.Shape.MatchString(s) {
			t.Errorf("%s %s (scenario line %d): %q does not have the documented shape %s", st.Name, st.Stream, st.Line, s, st.Shape)
		}
	}
}

func parseFile(t *testing.T, path string) []scenario.Step {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := scenario.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func runEnv(t *testing.T, work string) scenario.Env {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Fatal(err)
	}
	return scenario.Env{WorkDir: work, User: u.Username, UID: u.Uid, Group: g.Name, GID: u.Gid}
}

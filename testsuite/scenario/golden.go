package scenario

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Golden is one capture as stored: normalised stdout, stderr and exit status.
type Golden struct {
	Out, Err string
	RC       int
}

// Normalised returns the comparable form of a run's captures (orbit-only ones excluded),
// normalised in capture order by one Normaliser seeded with the submitted jobs' ids in
// submission order, keyed by capture name.
func Normalised(caps []Capture, env Env) (map[string]Golden, *Normaliser) {
	n := NewNormaliser(env)
	for _, c := range caps {
		if c.JobID != "" {
			n.Seed(c.JobID)
		}
	}
	got := map[string]Golden{}
	for _, c := range caps {
		if c.Orbit {
			continue
		}
		got[c.Name] = Golden{Out: n.Normalise(c.Cmd, c.Out), Err: n.Normalise(c.Cmd, c.Err), RC: c.RC}
	}
	return got, n
}

// WriteGoldens stores a run's normalised captures under dir as NAME.out, NAME.err and
// NAME.rc, and the scenario's command lines in dir/commands.txt for readers. It writes only the files it owns.
func WriteGoldens(dir string, caps []Capture, env Env) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	got, _ := Normalised(caps, env)
	var index strings.Builder
	for _, c := range caps {
		if c.Orbit {
			continue
		}
		// The scenario's own words ($labels unexpanded), so the index never churns.
		fmt.Fprintf(&index, "%s\t%s\n", c.Name, c.Line0)
		g := got[c.Name]
		for ext, body := range map[string]string{".out": g.Out, ".err": g.Err, ".rc": strconv.Itoa(g.RC) + "\n"} {
			if err := os.WriteFile(filepath.Join(dir, c.Name+ext), []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, "commands.txt"), []byte(index.String()), 0o644)
}

// ReadGolden reads one stored capture.
func ReadGolden(dir, name string) (Golden, error) {
	var g Golden
	out, err := os.ReadFile(filepath.Join(dir, name+".out"))
	if err != nil {
		return g, err
	}
	errOut, err := os.ReadFile(filepath.Join(dir, name+".err"))
	if err != nil {
		return g, err
	}
	rc, err := os.ReadFile(filepath.Join(dir, name+".rc"))
	if err != nil {
		return g, err
	}
	if g.RC, err = strconv.Atoi(strings.TrimSpace(string(rc))); err != nil {
		return g, fmt.Errorf("%s.rc: %v", name, err)
	}
	g.Out, g.Err = string(out), string(errOut)
	return g, nil
}

// KnownDiff is one entry of known-diffs.txt: a capture stream where Orbit still differs
// from the reference, and why.
type KnownDiff struct {
	Name, Stream, Reason string
	Line                 int
}

// ParseKnownDiffs reads known-diffs.txt: "NAME STREAM REASON..." per line (STREAM is out,
// err or rc), # comments and blank lines ignored. Every entry needs a reason.
func ParseKnownDiffs(text string) (map[string]KnownDiff, error) {
	kd := map[string]KnownDiff{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 3)
		if len(f) < 3 || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("known-diffs line %d: want NAME STREAM REASON", n)
		}
		if f[1] != "out" && f[1] != "err" && f[1] != "rc" {
			return nil, fmt.Errorf("known-diffs line %d: stream %q: want out, err or rc", n, f[1])
		}
		key := f[0] + " " + f[1]
		if prev, dup := kd[key]; dup {
			return nil, fmt.Errorf("known-diffs line %d: %s listed again (line %d)", n, key, prev.Line)
		}
		kd[key] = KnownDiff{Name: f[0], Stream: f[1], Reason: strings.TrimSpace(f[2]), Line: n}
	}
	return kd, sc.Err()
}

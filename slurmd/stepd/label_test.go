package stepd

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestStep_LabelledFile checks Stdio.Label (srun -l with per-task files): every line, the
// unterminated last one too, carries the label, and stdout and stderr sharing the file do
// not split each other's lines.
func TestStep_LabelledFile(t *testing.T) {
	spec := batchSpec(t, "#!/bin/sh\necho one\necho two >&2\nprintf 'three'\n")
	out := filepath.Join(spec.WorkDir, "o.3")
	spec.Tasks[0].Stdout = Stdio{Path: out, Label: "3: "}
	spec.Tasks[0].Stderr = Stdio{Path: out, Label: "3: "}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	if e := waitStep(t, s); e[0].Failed() {
		t.Fatalf("script failed: %v", e[0])
	}
	// The two streams reach the file through separate pipes, so their order may differ.
	got := strings.SplitAfter(readFile(t, out), "\n")
	sort.Strings(got)
	if want := []string{"", "3: one\n", "3: three\n", "3: two\n"}; !slices.Equal(got, want) {
		t.Errorf("file lines %q, want %q", got, want)
	}
}

package options

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadHostfile pins slurm_read_hostfile's reading: order and repeats kept, NAME*K,
// hostlist expressions, comments and "\#", stopping at exactly n names, and its errors.
func TestReadHostfile(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "h")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		body string
		n    int
		want string // names joined by spaces, or the error lines
	}{
		{"n2\nn1\nn2\n", readWhole, "n2 n1 n2"},
		{"# c\nn[1-2]\nn3,n1\n\nn2*2\n", readWhole, "n1 n2 n3 n1 n2 n2"},
		{"n1*0\n", readWhole, "n1*0"},
		{"n1,n2,n3\nn4\n", 2, "n1 n2 n3 n4"}, // 3 is not 2: reading goes on
		{"n1,n2\nn4\n", 2, "n1 n2"},
		{"n1\nn2\n", 3, "error: Too few NodeNames in Slurm Hostfile"},
		{"# only a comment\n", readWhole, "error: Hostlist is empty!"},
		{"n1\n!n2\n", readWhole, "error: Invalid hostfile H contents on line 2"},
		{"a\\#b\n", readWhole, "a#b"},
		{"n1 # trailing\n", readWhole, "n1"},
	} {
		p := write(tc.body)
		names, errs := readHostfile(p, tc.n)
		got := strings.Join(names, " ")
		if errs != nil {
			got = "error: " + strings.ReplaceAll(strings.Join(errs, "|"), p, "H")
		}
		if got != tc.want {
			t.Errorf("%q (n=%d): %q, want %q", tc.body, tc.n, got, tc.want)
		}
	}
	if _, errs := readHostfile(filepath.Join(dir, "missing"), readWhole); len(errs) != 1 ||
		!strings.HasSuffix(errs[0], "missing, No such file or directory") {
		t.Errorf("missing file: %q", errs)
	}
}

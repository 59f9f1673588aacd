package options

import (
	"errors"
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
		{"n1*4000000000\n", readWhole, "error: Hostlist is too long for the allocate RPC!"},
		{"n1*-3,n2\n", readWhole, "n2"},
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

// TestNodeListAboveMaxNodes: --nodelist naming more nodes than -N allows, as the reference
// answers: sbatch refuses the count, srun keeps the list's first nodes and says so.
func TestNodeListAboveMaxNodes(t *testing.T) {
	_, err := ParseSbatch([]string{"sbatch", "-N2", "-w", "n[1-3]"}, nil, []byte(okScript), now)
	if err == nil || !strings.Contains(err.Error()+errText(err), "invalid number of nodes (-N 3-2)") {
		t.Errorf("sbatch -N2 -w n[1-3]: %v", err)
	}
	js, err := ParseSrun([]string{"srun", "-N2", "-w", "n3,n1,n2", "true"}, nil, "/", now)
	if err != nil || js.NodeList != "n[3,1]" || len(js.Warnings) != 1 ||
		js.Warnings[0] != "srun: error: Required nodelist includes more nodes than permitted by max-node count (3 > 2). Eliminating nodes from the nodelist.\n" {
		t.Errorf("srun -N2 -w n3,n1,n2: %v, list %q, warnings %q", err, js.NodeList, js.Warnings)
	}
}

// errText is an *Error's stderr, "" for other errors.
func errText(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Stderr
	}
	return ""
}

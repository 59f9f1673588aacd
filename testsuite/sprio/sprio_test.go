package sprio_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

func golden(t *testing.T, name, ext string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+ext))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSprio_MatchesReference runs every recorded case on Orbit's sprio against a
// priority/basic cluster (the reference's plugin) and compares stdout, stderr and the exit
// status byte for byte.
func TestSprio_MatchesReference(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
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
			out, errOut, code := c.RunEnv(t, []string{"SPRIO_FORMAT="}, "sprio", strings.Fields(args)...)
			// getopt names the program by argv[0]: the test ran Orbit's by its path.
			errOut = strings.ReplaceAll(errOut, testbin.Path(t, "sprio")+":", "sprio:")
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

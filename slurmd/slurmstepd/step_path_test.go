package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLookPath: the command a task executes, as Slurm's _build_path finds it: absolute and
// "."-relative names as given (the latter under the working directory), others on the
// step's PATH, skipping empty entries and directories but not files without execute
// permission; none found, or no PATH at all, leaves the name for execve to refuse.
func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b", "b/tool"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, mode := range map[string]os.FileMode{"a/tool": 0o644, "b/prog": 0o755} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, mode); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, c := range []struct {
		cmd   string
		env   []string
		want  string
		found bool
	}{
		{"/bin/x", nil, "/bin/x", true},
		{"./x", nil, "/work/./x", true},
		{".x", nil, "/work/.x", true},
		{"prog", []string{"PATH=" + a + "::" + b}, filepath.Join(b, "prog"), true},
		{"tool", []string{"PATH=" + b + ":" + a}, filepath.Join(a, "tool"), true}, // b/tool is a directory; a/tool not executable
		{"prog", nil, "prog", false},
		{"prog", []string{"PATH="}, "prog", false},
		{"none", []string{"PATH=" + a}, "none", false},
	} {
		got, found := lookPath(c.cmd, c.env, "/work")
		if got != c.want || found != c.found {
			t.Errorf("lookPath(%q, %q) = %q, %v; want %q, %v", c.cmd, c.env, got, found, c.want, c.found)
		}
	}
}

package testbin

import (
	"debug/elf"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestUserCommandsMatchMakefile: the commands tests build without cgo are the ones `make
// build` ships that way, or tests would exercise binaries nobody installs.
func TestUserCommandsMatchMakefile(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^USER_CMDS\s*:=(.*)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the Makefile has no USER_CMDS")
	}
	if got := strings.Fields(string(m[1])); !slices.Equal(got, UserCommands) {
		t.Errorf("Makefile USER_CMDS %q, testbin.UserCommands %q", got, UserCommands)
	}
}

// TestUserCommandIsStatic: a user command built for tests asks for no dynamic loader and no
// shared library, as file(1) says of it: "statically linked".
func TestUserCommandIsStatic(t *testing.T) {
	f, err := elf.Open(Path(t, "sdiag"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("sdiag has a PT_INTERP header: it is dynamically linked")
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("sdiag needs shared libraries %q (%v)", libs, err)
	}
}

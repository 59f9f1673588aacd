package auth

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports enforces the package's place in the tree: a leaf the transport and daemons
// build on, importing none of them.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	forbidden := []string{"/internal/wire", "/conf", "/slurmctld", "/slurmd", "/satellited", "/plugins"}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, "github.com/orbit-hpc/orbit") {
				continue
			}
			for _, bad := range forbidden {
				if strings.HasPrefix(strings.TrimPrefix(p, "github.com/orbit-hpc/orbit"), bad) {
					t.Errorf("%s imports %s; internal/auth must not import wire, conf or daemons", f, p)
				}
			}
		}
	}
}

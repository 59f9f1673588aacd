package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestSrunBcast: srun --bcast copies the program to the step's nodes through their slurmd
// and runs the copy (Slurm's test1.101: a script echoing $0 prints the destination on every
// node); without a destination the copy is slurm_bcast_<job>.<step>_<node> in the working
// directory; a program that cannot be executed stops srun before any allocation. Lines as
// the reference printed them.
func TestSrunBcast(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2})
	src := filepath.Join(c.WorkDir, "prog.sh")
	if err := os.WriteFile(src, []byte("#!/bin/bash\necho $0\n"), 0o750); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(c.WorkDir, "copy.sh")
	out, errOut, code := c.Run(t, "srun", "-N2", "-l", "--bcast="+dest, src)
	lines := strings.SplitAfter(out, "\n")
	sort.Strings(lines)
	if want := "0: " + dest + "\n1: " + dest + "\n"; code != 0 || strings.Join(lines, "") != want {
		t.Errorf("srun --bcast=%s: rc %d, stderr %q, output %q, want %q", dest, code, errOut, out, want)
	}
	if st, err := os.Stat(dest); err != nil || st.Mode().Perm() != 0o750 {
		t.Errorf("the copy: %v, mode %v; want the source's 0750", err, st.Mode().Perm())
	}

	out, errOut, code = c.Run(t, "srun", "-N2", "--bcast", src)
	copyName := regexp.MustCompile(`^` + regexp.QuoteMeta(c.WorkDir) + `/slurm_bcast_\d+\.0_n[12]$`)
	got := strings.Fields(out)
	if code != 0 || len(got) != 2 || !copyName.MatchString(got[0]) || !copyName.MatchString(got[1]) || got[0] == got[1] {
		t.Errorf("srun --bcast: rc %d, stderr %q, output %q; want each node's slurm_bcast_<job>.0_<node> in the working directory", code, errOut, out)
	}

	_, errOut, code = c.Run(t, "srun", "-n1", "--bcast="+dest, "/nonexistent/prog")
	if code != 1 || errOut != "srun: fatal: Can not execute /nonexistent/prog\n" {
		t.Errorf("srun --bcast of a missing program: rc %d, stderr %q", code, errOut)
	}
}

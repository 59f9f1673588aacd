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

// TestSrunBcastSendLibs: srun --bcast --send-libs also sends the program's shared libraries
// (as `ldd` lists them) outside --bcast-exclude's directories into the copy's "_libs"
// directory (mode 0700), which the tasks find first in LD_LIBRARY_PATH; by default
// (BcastExclude: /lib, /usr/lib, /lib64, /usr/lib64) none of a system program's goes, and
// the directory is there empty; a script, which ldd cannot read, goes alone, with Slurm's
// line. (Each as the reference did.)
func TestSrunBcastSendLibs(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2})
	dest := filepath.Join(c.WorkDir, "mysh")
	out, errOut, code := c.RunEnv(t, []string{"LD_LIBRARY_PATH=/opt/x"}, "srun", "--bcast="+dest, "--send-libs", "--bcast-exclude=none",
		"sh", "-c", "ls "+dest+"_libs | grep -c '^libc.so'; echo $LD_LIBRARY_PATH")
	if want := "1\n" + dest + "_libs:/opt/x\n"; code != 0 || out != want {
		t.Errorf("--send-libs --bcast-exclude=none: exit %d, %q (%s), want %q", code, out, errOut, want)
	}
	dest = filepath.Join(c.WorkDir, "mysh2")
	if _, errOut, code := c.Run(t, "srun", "--bcast="+dest, "--send-libs", "sh", "-c", "true"); code != 0 {
		t.Fatalf("--send-libs: exit %d: %s", code, errOut)
	}
	if fi, err := os.Stat(dest + "_libs"); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("%s_libs: %v %v; want an empty directory of mode 0700", dest, fi, err)
	} else if entries, _ := os.ReadDir(dest + "_libs"); len(entries) != 0 {
		t.Errorf("%s_libs holds %d files; BcastExclude leaves it empty", dest, len(entries))
	}
	script := filepath.Join(c.WorkDir, "s.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = c.Run(t, "srun", "--bcast="+filepath.Join(c.WorkDir, "s2.sh"), "--send-libs", script)
	if want := "srun: error: Cannot autodetect libraries for '" + script + "' with ldd command; still sending the file but ignoring send_libs\n"; code != 0 || out != "ran\n" || errOut != want {
		t.Errorf("--send-libs of a script: exit %d, %q, stderr %q; want ran and %q", code, out, errOut, want)
	}
	if _, err := os.Stat(filepath.Join(c.WorkDir, "s2.sh_libs")); err == nil {
		t.Error("a script's copy got a library directory")
	}
}

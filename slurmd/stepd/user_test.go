package stepd

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const nobody = 65534

// userDirs makes a spool and a working directory the nobody user can use; t.TempDir's
// parents are private to root.
func userDirs(t *testing.T) (spool, work string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("running tasks as another user needs root")
	}
	base, err := os.MkdirTemp("", "stepd-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	spool, work = filepath.Join(base, "spool"), filepath.Join(base, "work")
	os.Mkdir(spool, 0755)
	os.Mkdir(work, 0777)
	if err := os.Chmod(base, 0755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(work, 0777)
	return spool, work
}

func TestStep_RunsAsJobUser(t *testing.T) {
	spool, work := userDirs(t)
	spec := StepSpec{
		JobID: 31, StepID: BatchStep, NodeName: "n1", Spool: spool, UID: nobody, GID: nobody,
		Groups: []uint32{}, WorkDir: work, Env: []string{"PATH=/usr/bin:/bin"},
		Script: []byte("#!/bin/sh\nid -u\nid -g\nid -G\n"),
		Tasks:  []Task{{Stdout: Stdio{Path: "slurm-31.out"}}},
	}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	exits := waitStep(t, s)
	out := filepath.Join(work, "slurm-31.out")
	if got := readFile(t, out); got != "65534\n65534\n65534\n" {
		t.Errorf("id printed %q, want uid, gid and groups 65534 (exit %s)", got, exits[0])
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != nobody || st.Gid != nobody {
		t.Errorf("output file owned by %d:%d, want %d:%d", st.Uid, st.Gid, nobody, nobody)
	}
	jd, err := os.Stat(JobDir(spool, 31))
	if err != nil {
		t.Fatal(err)
	}
	if st := jd.Sys().(*syscall.Stat_t); st.Gid != nobody || jd.Mode().Perm() != 0750 {
		t.Errorf("job dir group %d mode %o, want group %d mode 750", st.Gid, jd.Mode().Perm(), nobody)
	}
}

// TestStep_OutputOpenedWithUserPermissions: the supervisor is root, but a user must not be
// able to make it create files where the user could not.
func TestStep_OutputOpenedWithUserPermissions(t *testing.T) {
	spool, work := userDirs(t)
	private := filepath.Join(filepath.Dir(spool), "root-only")
	os.Mkdir(private, 0755)
	spec := StepSpec{
		JobID: 32, StepID: BatchStep, Spool: spool, UID: nobody, GID: nobody,
		WorkDir: work, Env: []string{"PATH=/usr/bin:/bin"},
		Script: []byte("#!/bin/sh\ntrue\n"),
		Tasks:  []Task{{Stdout: Stdio{Path: filepath.Join(private, "out")}}},
	}
	s, err := Start(spec)
	if err == nil {
		waitStep(t, s)
		t.Fatal("Start created an output file in a directory the user cannot write")
	}
	if !strings.Contains(err.Error(), "Permission denied") {
		t.Errorf("error %q, want Permission denied", err)
	}
	if _, err := os.Stat(filepath.Join(private, "out")); !os.IsNotExist(err) {
		t.Errorf("output file exists: %v", err)
	}
}

func TestStep_ChdirNotPermitted(t *testing.T) {
	spool, work := userDirs(t)
	closed := filepath.Join(filepath.Dir(spool), "closed")
	os.Mkdir(closed, 0700)
	spec := StepSpec{
		JobID: 33, StepID: BatchStep, NodeName: "n1", Spool: spool, UID: nobody, GID: nobody,
		WorkDir: closed, Env: []string{"PATH=/usr/bin:/bin"},
		Script: []byte("#!/bin/sh\npwd\n"),
		Tasks:  []Task{{Stdout: Stdio{Path: filepath.Join(work, "out")}, Stderr: Stdio{Path: filepath.Join(work, "out")}}},
	}
	s, err := Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	waitStep(t, s)
	line := "slurmstepd-n1: error: couldn't chdir to `" + closed + "': Permission denied: going to /tmp instead\n"
	if got, want := readFile(t, filepath.Join(work, "out")), line+line+"/tmp\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestExportFile: --export-file's definitions are NUL-separated, end at the first empty one,
// skip entries without "=" and DISPLAY/ENVIRONMENT/HOSTNAME; a missing file is Slurm's
// "Could not open user environment file"; a descriptor number reads the open descriptor.
func TestExportFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "env")
	if err := os.WriteFile(f, []byte("FOO=bar baz\x00HOSTNAME=x\x00NOEQUALS\x00MULTI=a\nb\x00\x00AFTER=end\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readExportFile(f)
	if want := []string{"FOO=bar baz", "MULTI=a\nb"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("readExportFile: %v, %q; want %q", err, got, want)
	}
	if _, err := readExportFile(filepath.Join(dir, "missing")); err == nil || err.Error() != "Could not open user environment file "+filepath.Join(dir, "missing") {
		t.Errorf("missing file: %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.WriteString("FROMFD=1\x00")
	w.Close()
	got, err = readExportFile(strconv.Itoa(int(r.Fd())))
	if err != nil || !slices.Equal(got, []string{"FROMFD=1"}) {
		t.Errorf("descriptor %d: %v, %q", r.Fd(), err, got)
	}
}

// TestExportFileEnv: the file replaces sbatch's environment (nothing of it but
// SLURM_PRIO_PROCESS and SLURM_SUBMIT_DIR, which the file may set itself); NONE drops the
// file and asks for the login environment; the job's own request is laid over in every case.
func TestExportFileEnv(t *testing.T) {
	file := []string{"FOO=1", "SLURM_SUBMIT_DIR=/elsewhere"}
	layout := []string{"SLURM_NTASKS=2"}
	for _, c := range []struct {
		export string
		want   []string
	}{
		{"", []string{"FOO=1", "SLURM_SUBMIT_DIR=/elsewhere", "SLURM_PRIO_PROCESS=0", "SLURM_NTASKS=2", "SLURM_SUBMIT_HOST=h"}},
		{"ALL", []string{"FOO=1", "SLURM_SUBMIT_DIR=/elsewhere", "SLURM_PRIO_PROCESS=0", "SLURM_NTASKS=2", "SLURM_SUBMIT_HOST=h"}},
		{"NONE", []string{"SLURM_PRIO_PROCESS=0", "SLURM_GET_USER_ENV=1", "SLURM_NTASKS=2", "SLURM_SUBMIT_HOST=h"}},
		{"BAR=2", []string{"FOO=1", "SLURM_SUBMIT_DIR=/elsewhere", "SLURM_PRIO_PROCESS=0", "BAR=2", "SLURM_GET_USER_ENV=1", "SLURM_NTASKS=2", "SLURM_SUBMIT_HOST=h"}},
	} {
		if got := exportFileEnv(file, c.export, false, layout, "/submit", "h", 0); !slices.Equal(got, c.want) {
			t.Errorf("--export=%q:\n got %q\nwant %q", c.export, got, c.want)
		}
	}
	got := exportFileEnv([]string{"FOO=1"}, "", false, nil, "/submit", "h", 0)
	if !slices.Contains(got, "SLURM_SUBMIT_DIR=/submit") {
		t.Errorf("file without SLURM_SUBMIT_DIR: %q lacks sbatch's", got)
	}
}

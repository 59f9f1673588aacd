package sacct

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
)

// TestSacct_Golden runs Orbit's sacct on each recorded case (record.sh) with the same
// accounting_storage/none configuration as the reference and compares stdout, stderr and
// exit status byte for byte.
func TestSacct_Golden(t *testing.T) {
	bin := testbin.Path(t, "sacct")
	confPath, err := filepath.Abs("testdata/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	argFiles, _ := filepath.Glob("testdata/golden/*.args")
	if len(argFiles) == 0 {
		t.Fatal("no goldens: run record.sh")
	}
	for _, af := range argFiles {
		base := strings.TrimSuffix(af, ".args")
		raw, err := os.ReadFile(af)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(string(raw))
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "SLURM_CONF="+confPath)
			var o, e bytes.Buffer
			cmd.Stdout, cmd.Stderr = &o, &e
			code := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				code = ee.ExitCode()
			}
			// getopt names the program by its path; record.sh wrote "sacct".
			gotErr := strings.ReplaceAll(e.String(), bin+":", "sacct:")
			wantOut, _ := os.ReadFile(base + ".out")
			wantErr, _ := os.ReadFile(base + ".err")
			wantRC, _ := os.ReadFile(base + ".rc")
			if args[0] == "-V" {
				// Orbit's version line adds its own version (DESIGN.md §1); only the
				// Slurm release must be there.
				if !strings.Contains(o.String(), "22.05.8") {
					t.Errorf("-V = %q", o.String())
				}
			} else if o.String() != string(wantOut) {
				t.Errorf("stdout %q, want %q", o.String(), wantOut)
			}
			if gotErr != string(wantErr) {
				t.Errorf("stderr %q, want %q", gotErr, wantErr)
			}
			if rc, _ := strconv.Atoi(strings.TrimSpace(string(wantRC))); rc != code {
				t.Errorf("exit %d, want %d", code, rc)
			}
		})
	}
}

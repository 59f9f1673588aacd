package conf_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/conf"
	"github.com/orbit-hpc/orbit/internal/testbin"
)

// commandDiffers lists the bad configurations whose messages from a user command are not
// yet the reference's, and why.
var commandDiffers = map[string]string{
	"bad-controller":           "Slurm reports the missing SlurmctldHost after the bad values; Orbit before",
	"no-cluster-no-controller": "Orbit also names the missing SlurmctldHost and the port",
	"include-loop":             "Slurm recurses until it runs out of descriptors; Orbit names the loop",
	"include-missing":          "Slurm retries a missing Include for 60 s; Orbit fails at once",
	"orbit-keys":               "Orbit's own keys are unknown to Slurm",
}

// TestCommands_ConfigErrorsMatchReference: a user command (sinfo) reading a broken slurm.conf
// prints what the reference's commands print for it, line for line ("sinfo: error: ...",
// "sinfo: fatal: ..."), and exits 1 (the known differences are refused too, in other
// words); a problem only the daemons find (daemonOnly) does not
// stop a command, as it does not stop Slurm's, and neither does any good configuration.
func TestCommands_ConfigErrorsMatchReference(t *testing.T) {
	sinfo := testbin.Path(t, "sinfo")
	for _, name := range cases(t, "bad") {
		t.Run(name, func(t *testing.T) {
			dir := "bad/" + name
			accepted, want := verdict(t, dir)
			if _, ok := daemonOnly[name]; ok || accepted {
				_, err := conf.Load(filepath.Join("testdata", dir, "slurm.conf"))
				if err == nil {
					t.Fatal("slurmctld's checks accept it")
				}
				if cerr := conf.CommandErrors(err); cerr != nil {
					t.Errorf("the reference's commands accept it; Orbit's stop at:\n%v", cerr)
				}
				return
			}
			why, differs := commandDiffers[name]
			cmd := exec.Command(sinfo)
			cmd.Dir = "testdata"
			cmd.Env = append(os.Environ(), "SLURM_CONF="+dir+"/slurm.conf")
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 {
				t.Errorf("exit %d (%v), want 1", code, err)
			}
			got := strings.TrimRight(strings.ReplaceAll(string(out), "sinfo: ", ""), "\n")
			if differs {
				// Still refused, as by the reference; only the wording differs.
				if !strings.Contains(got, "fatal: ") {
					t.Errorf("sinfo printed:\n%s\nwant a fatal line", got)
				}
				t.Logf("known difference (%s):\n%s\nthe reference's command:\n%s", why, got, strings.Join(want, "\n"))
				return
			}
			if got != strings.Join(want, "\n") {
				t.Errorf("sinfo printed:\n%s\nthe reference's command:\n%s", got, strings.Join(want, "\n"))
			}
		})
	}
	for _, name := range cases(t, "good") {
		if _, err := conf.Load(filepath.Join("testdata", "good", name, "slurm.conf")); conf.CommandErrors(err) != nil {
			t.Errorf("good/%s: commands stop at %v", name, err)
		}
	}
}

package conf_test

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/internal/testbin"
)

var update = flag.Bool("update", false, "rewrite testdata/bad/*/expected.stderr from Orbit's output (review the diff!)")

// orbitOnly lists the good configurations the reference cannot accept, and why.
var orbitOnly = map[string]string{
	"site-include-glob": "Include with a glob: added after Slurm 22.05, which looks for a file literally named *.conf",
	"site-orbit":        "Orbit's own keys are unknown to Slurm",
}

// daemonOnly lists the bad configurations Slurm's client-side parser accepts because only
// slurmctld makes the check (node table, partition nodes, companion files).
var daemonOnly = map[string]string{
	"duplicate-node":         "duplicate node names are found when slurmctld builds its node table",
	"partition-unknown-node": "partition node names are resolved by slurmctld",
	"bad-companions":         "gres.conf, topology.conf and cgroup.conf are read by the daemons",
}

// orbitKeyErrors lists bad configurations about Orbit's own keys: Slurm rejects them too, but
// because it does not know the keys, so its messages are not Orbit's.
var orbitKeyErrors = map[string]bool{"orbit-keys": true}

func runCheck(t *testing.T, confPath string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testbin.Path(t, "slurmctld"), "-t", "-f", confPath)
	cmd.Dir = "testdata"
	cmd.Env = append(os.Environ(), "SLURM_CONF=/nonexistent/slurm.conf")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run slurmctld: %v", err)
	}
	return out.String(), errb.String(), code
}

// verdict reads record.sh's note of what the reference said about a configuration.
func verdict(t *testing.T, dir string) (accepted bool, lines []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", dir, "slurm.verdict"))
	if err != nil {
		t.Fatalf("missing reference verdict (run record.sh): %v", err)
	}
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return all[0] == "accepted", all[1:]
}

func cases(t *testing.T, kind string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join("testdata", kind))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestSlurmctldCheck_AcceptsSiteConfigs(t *testing.T) {
	names := cases(t, "good")
	if len(names) < 10 {
		t.Fatalf("only %d good configurations", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			conf := "good/" + name + "/slurm.conf"
			stdout, stderr, code := runCheck(t, conf)
			if code != 0 || strings.Contains(stderr, "error:") {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			if !strings.HasPrefix(stdout, "slurmctld: configuration "+conf+" is valid") {
				t.Errorf("stdout = %q", stdout)
			}
			accepted, lines := verdict(t, "good/"+name)
			if why, ok := orbitOnly[name]; ok {
				if accepted {
					t.Errorf("listed as Orbit-only (%s) but the reference accepts it", why)
				}
				return
			}
			if !accepted {
				t.Errorf("the reference rejects this configuration:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

func TestSlurmctldCheck_RejectsBrokenConfigs(t *testing.T) {
	names := cases(t, "bad")
	if len(names) < 10 {
		t.Fatalf("only %d bad configurations", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			conf := "bad/" + name + "/slurm.conf"
			_, stderr, code := runCheck(t, conf)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			golden := filepath.Join("testdata", "bad", name, "expected.stderr")
			if *update {
				if err := os.WriteFile(golden, []byte(stderr), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if stderr != string(want) {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
			}
			accepted, lines := verdict(t, "bad/"+name)
			if why, ok := daemonOnly[name]; ok {
				if !accepted {
					t.Errorf("listed as daemon-only (%s) but the reference's client parser rejects it", why)
				}
				return
			}
			if accepted {
				t.Fatalf("the reference accepts this configuration")
			}
			if orbitKeyErrors[name] {
				return
			}
			// Every message Slurm gives must appear in Orbit's, word for word; only the lines
			// that locate the error (Orbit puts file:line in front of each message instead)
			// and Slurm's closing fatal line differ.
			for _, l := range lines {
				msg := strings.TrimPrefix(strings.TrimPrefix(l, "error: "), "fatal: ")
				msg = strings.TrimPrefix(msg, "_parse_next_key: ")
				switch {
				case strings.HasPrefix(msg, "Parse error in file"), strings.HasPrefix(msg, "\"Include\" failed in file"),
					strings.HasPrefix(msg, "s_p_parse_file:"), msg == "Unable to process configuration file":
					continue
				}
				if !strings.Contains(stderr, msg) {
					t.Errorf("Slurm says %q; Orbit does not", msg)
				}
			}
		})
	}
}

func TestSlurmctld_VersionHelpAndBadConfig(t *testing.T) {
	bin := testbin.Path(t, "slurmctld")
	out, err := exec.Command(bin, "-V").Output()
	if err != nil || !strings.HasPrefix(string(out), "slurm 22.05.8 (orbit ") {
		t.Errorf("-V: %q %v", out, err)
	}
	out, err = exec.Command(bin, "--help").Output()
	if err != nil || !strings.Contains(string(out), "-t ") {
		t.Errorf("--help: %q %v", out, err)
	}
	// The daemon refuses to start without a usable configuration, as Slurm's does (exit 1,
	// "Unable to process configuration file"), and starts nothing.
	missing := filepath.Join(t.TempDir(), "slurm.conf")
	cmd := exec.Command(bin, "-D", "-f", missing)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(errb.String(), "Unable to process configuration file") {
		t.Errorf("-D with a missing config: %v %q", err, errb.String())
	}
}

func TestSlurmctldCheck_UsesSLURM_CONF(t *testing.T) {
	abs, err := filepath.Abs("testdata/good/debian-simple/slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testbin.Path(t, "slurmctld"), "-t")
	cmd.Env = append(os.Environ(), "SLURM_CONF="+abs)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), abs+" is valid") {
		t.Errorf("%q %v", out, err)
	}
}

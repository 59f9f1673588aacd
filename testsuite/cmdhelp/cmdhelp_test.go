package cmdhelp_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/testsuite/cluster"
	"github.com/orbit-hpc/orbit/testsuite/refcase"
)

// refConf is the reference's slurm.conf as far as these cases read it. The controller named
// here never runs: no case gets as far as asking it.
const refConf = `ClusterName=anchor
SlurmctldHost=vm(127.0.0.1)
SlurmctldPort=1
AuthType=auth/slurm
CredType=cred/slurm
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
NodeName=n1 NodeHostname=vm NodeAddr=127.0.0.1 Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=257000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`

// TestCommandHelp_MatchesReference runs every case of cases.txt on Orbit's command and
// compares stdout, stderr and the exit status with the reference's recording byte for byte.
func TestCommandHelp_MatchesReference(t *testing.T) {
	dir := t.TempDir()
	confPath := filepath.Join(dir, "slurm.conf")
	if err := os.WriteFile(confPath, []byte(refConf), 0o644); err != nil {
		t.Fatal(err)
	}
	// The key only has to exist for auth/slurm's set-up; nothing is signed.
	if err := os.WriteFile(filepath.Join(dir, "slurm.key"), []byte(strings.Repeat("k", 64)), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &cluster.Cluster{ConfPath: confPath}
	for _, f := range refcase.ReadTable(t, "cases.txt", 2) {
		name, words := f[0], refcase.ShellWords(f[1])
		var env []string // leading NAME=VALUE words, as record.sh passes them
		for len(words) > 1 && strings.Contains(words[0], "=") {
			env, words = append(env, words[0]), words[1:]
		}
		t.Run(name, func(t *testing.T) {
			out, errOut, code := refcase.Run(t, c, words[0], "-", env, words[1:]...)
			if want := strings.TrimSpace(refcase.ReadGolden(t, name+".rc")); strconv.Itoa(code) != want {
				t.Errorf("exit %d, reference %s (stderr %q)", code, want, errOut)
			}
			if want := refcase.ReadGolden(t, name+".out"); out != want {
				t.Errorf("stdout:\n%s\nreference:\n%s", out, want)
			}
			if want := refcase.ReadGolden(t, name+".err"); errOut != want {
				t.Errorf("stderr:\n%s\nreference:\n%s", errOut, want)
			}
		})
	}
}

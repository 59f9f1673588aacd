package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/auth"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestMungeCluster runs a cluster the way most Slurm sites configure theirs: AuthType=
// auth/munge and CredType=cred/munge (Slurm's defaults), no slurm.key anywhere. Requests,
// node-to-controller reports and launch credentials all go through munged.
func TestMungeCluster(t *testing.T) {
	testbin.Path(t, "srun")
	forEachMode(t, cluster.Options{Nodes: 2, Munge: true}, func(t *testing.T, c *cluster.Cluster) {
		if _, err := os.Stat(auth.KeyPath(c.ConfPath)); !os.IsNotExist(err) {
			t.Fatalf("slurm.key exists beside slurm.conf (err %v): the munge cluster must not need it", err)
		}
		script := filepath.Join(c.WorkDir, "job.sh")
		if err := os.WriteFile(script, []byte("#!/bin/sh\n#SBATCH -N2 -o out.%j\nid -u\nsrun -l true && echo step-ok\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := c.Run(t, "sbatch", "--parsable", script)
		if code != 0 {
			t.Fatalf("sbatch: exit %d: %s", code, errOut)
		}
		id64, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32)
		if err != nil {
			t.Fatalf("sbatch --parsable printed %q", out)
		}
		id := uint32(id64)
		j := c.WaitJob(t, id, states.JobComplete, states.JobFailed)
		if states.JobState(j.State).Base() != states.JobComplete {
			b, _ := os.ReadFile(filepath.Join(c.WorkDir, "out."+out[:len(out)-1]))
			t.Fatalf("job ended %s, output:\n%s", states.JobState(j.State), b)
		}
		b, err := os.ReadFile(filepath.Join(c.WorkDir, "out."+strings.TrimSpace(out)))
		if err != nil {
			t.Fatal(err)
		}
		want := strconv.Itoa(os.Getuid()) + "\nstep-ok\n"
		if string(b) != want {
			t.Errorf("job output %q, want %q", b, want)
		}
		if so, se, code := c.Run(t, "srun", "-N2", "-l", "echo", "hi"); code != 0 || !strings.Contains(so, "0: hi") || !strings.Contains(so, "1: hi") {
			t.Errorf("srun -N2: exit %d, stdout %q, stderr %q", code, so, se)
		}
		if _, se, code := c.Run(t, "squeue"); code != 0 {
			t.Errorf("squeue: exit %d: %s", code, se)
		}
	})
}

// TestMungeCluster_ForeignRealmRefused: a command whose munged holds another key (another
// cluster's realm) is refused with Slurm's authentication error, and the cluster keeps
// serving its own users.
func TestMungeCluster_ForeignRealmRefused(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, Munge: true, InProcess: true})
	other := cluster.Start(t, cluster.Options{Nodes: 1, Munge: true, InProcess: true})
	conf, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := os.ReadFile(other.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	// c's slurm.conf, but signing through the other cluster's munged.
	mixed := replaceLine(string(conf), "AuthInfo=", lineWith(string(theirs), "AuthInfo="))
	mixedPath := filepath.Join(t.TempDir(), "slurm.conf")
	if err := os.WriteFile(mixedPath, []byte(mixed), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := c.RunEnv(t, []string{"SLURM_CONF=" + mixedPath}, "squeue")
	if code != 1 || !strings.Contains(errOut, "Protocol authentication error") {
		t.Errorf("squeue signed by a foreign munged: exit %d, stderr %q; want exit 1 and the authentication error", code, errOut)
	}
	if _, se, code := c.Run(t, "squeue"); code != 0 {
		t.Errorf("squeue with the cluster's own munged after the refusal: exit %d: %s", code, se)
	}
}

func lineWith(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

func replaceLine(text, prefix, with string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = with
		}
	}
	return strings.Join(lines, "\n")
}

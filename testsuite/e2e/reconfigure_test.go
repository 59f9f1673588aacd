package e2e_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// editConf rewrites the cluster's slurm.conf, replacing each old text (which must be there)
// with its new one.
func editConf(t *testing.T, c *cluster.Cluster, pairs ...string) {
	t.Helper()
	data, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("slurm.conf lacks %q:\n%s", pairs[i], s)
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	if err := os.WriteFile(c.ConfPath, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shows runs scontrol with args and reports whether its output matches every pattern.
func shows(t *testing.T, c *cluster.Cluster, patterns []string, args ...string) (string, bool) {
	t.Helper()
	out, errOut, code := c.Run(t, "scontrol", args...)
	if code != 0 {
		t.Fatalf("scontrol %q: exit %d, stderr %q", args, code, errOut)
	}
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(out) {
			return out, false
		}
	}
	return out, true
}

// TestReconfigure: `scontrol reconfigure` and SIGHUP make slurmctld read slurm.conf again and
// apply what can change at run time; a restart-only change is reported with Slurm's message
// while the rest applies; a broken file is refused and nothing changes.
func TestReconfigure(t *testing.T) {
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "SchedulerParameters=bf_window=60"})
	partLine := "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
	assertShows := func(t *testing.T, what string, patterns []string, args ...string) {
		t.Helper()
		if out, ok := shows(t, c, patterns, args...); !ok {
			t.Errorf("%s: scontrol %s shows\n%s\nwant %q", what, strings.Join(args, " "), out, patterns)
		}
	}
	beforeConfig := []string{`(?m)^SchedulerParameters\s+= bf_window=60$`, `(?m)^KillWait\s+= 2 sec$`}
	assertShows(t, "before", []string{`MaxTime=UNLIMITED`, `State=UP`}, "show", "partition", "debug")
	assertShows(t, "before", beforeConfig, "show", "config")

	t.Run("applies the runtime values", func(t *testing.T) {
		editConf(t, c,
			partLine, "PartitionName=debug Nodes=ALL Default=YES MaxTime=30 State=DOWN\nPartitionName=extra Nodes=n1 MaxTime=10",
			"SchedulerParameters=bf_window=60", "SchedulerParameters=bf_window=120",
			"KillWait=2", "KillWait=7",
			" RealMemory=", " Weight=5 Feature=fast RealMemory=")
		out, errOut, code := c.Run(t, "scontrol", "reconfigure")
		if code != 0 || out != "" || errOut != "" {
			t.Fatalf("scontrol reconfigure: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
		assertShows(t, "after", []string{`MaxTime=00:30:00`, `State=DOWN`}, "show", "partition", "debug")
		assertShows(t, "after", []string{`PartitionName=extra`, `MaxTime=00:10:00`}, "show", "partition", "extra")
		assertShows(t, "after", []string{`(?m)^SchedulerParameters\s+= bf_window=120$`, `(?m)^KillWait\s+= 7 sec$`}, "show", "config")
		assertShows(t, "after", []string{`Weight=5 `, `AvailableFeatures=fast`}, "show", "node", "n1")
		out, _, _ = c.Run(t, "sinfo", "-h", "-p", "debug", "-o", "%a %l")
		if got := strings.TrimSpace(out); got != "down 30:00" {
			t.Errorf("sinfo after reconfigure: %q, want \"down 30:00\"", got)
		}
	})

	t.Run("restart-only change is reported, the rest applies", func(t *testing.T) {
		editConf(t, c, "SelectType=select/cons_tres", "SelectType=select/linear", "MaxTime=30 State=DOWN", "MaxTime=20 State=DOWN")
		_, errOut, code := c.Run(t, "scontrol", "reconfigure")
		want := "slurm_reconfigure error: SelectType change requires restart of the slurmctld daemon to take effect\n"
		if code != 1 || errOut != want {
			t.Errorf("scontrol reconfigure: exit %d, stderr %q; want 1 and %q", code, errOut, want)
		}
		assertShows(t, "kept", []string{`(?m)^SelectType\s+= select/cons_tres$`}, "show", "config")
		assertShows(t, "applied", []string{`MaxTime=00:20:00`}, "show", "partition", "debug")
		editConf(t, c, "SelectType=select/linear", "SelectType=select/cons_tres")
	})

	t.Run("a broken file changes nothing", func(t *testing.T) {
		good, err := os.ReadFile(c.ConfPath)
		if err != nil {
			t.Fatal(err)
		}
		// scontrol reads slurm.conf too and refuses a broken one itself, as Slurm's does: the
		// admin's scontrol here reads a good copy while the controller's file is broken.
		goodPath := filepath.Join(t.TempDir(), "slurm.conf")
		if err := os.WriteFile(goodPath, good, 0o644); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := os.WriteFile(c.ConfPath, good, 0o644); err != nil {
				t.Fatal(err)
			}
		}()
		editConf(t, c, "MaxTime=20 State=DOWN", "MaxTime=40 State=UP", "KillWait=7", "KillWait=7\nNoSuchKey=1")
		env := []string{"SLURM_CONF=" + goodPath}
		_, errOut, code := c.RunEnv(t, env, "scontrol", "reconfigure")
		if code != 1 || !strings.HasPrefix(errOut, "slurm_reconfigure error: ") || !strings.Contains(errOut, "NoSuchKey") {
			t.Errorf("broken slurm.conf: exit %d, stderr %q; want 1 and an error naming NoSuchKey", code, errOut)
		}
		out, _, _ := c.RunEnv(t, env, "scontrol", "show", "partition", "debug")
		if !strings.Contains(out, "MaxTime=00:20:00") || !strings.Contains(out, "State=DOWN") {
			t.Errorf("partition after a refused reconfigure:\n%s", out)
		}
		out, _, _ = c.RunEnv(t, env, "scontrol", "show", "config")
		if !regexp.MustCompile(`(?m)^KillWait\s+= 7 sec$`).MatchString(out) {
			t.Errorf("KillWait after a refused reconfigure:\n%s", out)
		}
	})

	t.Run("SIGHUP reconfigures", func(t *testing.T) {
		pid := c.ControllerPID()
		if pid == 0 {
			t.Fatal("the controller does not run as its own process")
		}
		editConf(t, c, "MaxTime=20 State=DOWN", "MaxTime=45 State=UP")
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the partition after SIGHUP", func() bool {
			_, ok := shows(t, c, []string{`MaxTime=00:45:00`, `State=UP`}, "show", "partition", "debug")
			return ok
		})
		// Jobs run again in the partition that came back UP.
		id := submit(t, c, "-p", "debug", "-t", "1", "--wrap", "true")
		c.WaitJob(t, id, states.JobComplete)
	})
}

package e2e_test

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/wire"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// scriptDir holds prolog/epilog scripts that record their environment into files named
// <context>.<job id>.<node> beside them.
func scriptDir(t *testing.T, scripts map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// recordEnv is a script body that writes its environment to dir/<tag>.<job>.<node> and
// exits with rc.
func recordEnv(dir, tag string, rc int) string {
	return fmt.Sprintf("#!/bin/bash\n/usr/bin/env > %s/%s.$SLURM_JOB_ID.${SLURMD_NODENAME:-ctld}\nexit %d\n", dir, tag, rc)
}

// waitEnvFile waits (bounded) for a recorded environment and parses it.
func waitEnvFile(t *testing.T, path string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			env := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				k, v, _ := strings.Cut(line, "=")
				env[k] = v
			}
			return env
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not written: %v", path, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func wantEnv(t *testing.T, what string, env map[string]string, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got, ok := env[k]; !ok || got != v {
			t.Errorf("%s: %s=%q (set: %v), want %q", what, k, got, ok, v)
		}
	}
}

// waitNode waits (bounded) until node has the drain flag and returns it.
func waitDrained(t *testing.T, c *cluster.Cluster, node string) wire.NodeInfo {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		for _, n := range c.Nodes(t) {
			if n.Name == node && states.NodeState(n.State).Has(states.NodeDrain) {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s not drained: %+v", node, c.Nodes(t))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestProlog_EnvironmentAndOrder(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	for name, body := range map[string]string{
		"prolog.sh":  recordEnv(dir, "prolog", 0),
		"epilog.sh":  recordEnv(dir, "epilog", 0),
		"pctld.sh":   recordEnv(dir, "prolog_slurmctld", 0),
		"ectld.sh":   recordEnv(dir, "epilog_slurmctld", 0),
		"unused.txt": "not a script",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2, ExtraConf: fmt.Sprintf(
		"Prolog=%[1]s/prolog.sh\nEpilog=%[1]s/epilog.sh\nPrologSlurmctld=%[1]s/pctld.sh\nEpilogSlurmctld=%[1]s/ectld.sh\n", dir)})
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	// The job sees the prolog's record already written: the prolog ran before it.
	script := writeScript(t, c, "order.sh", fmt.Sprintf(
		"#!/bin/bash\nif [ -s %s/prolog.$SLURM_JOB_ID.$SLURMD_NODENAME ]; then echo prolog-first; else echo job-first; fi\n", dir))
	id := submit(t, c, "-J", "e2e_prolog", "-A", "acct1", "-o", "out.%j", script)
	j := c.WaitJob(t, id, states.JobComplete)
	out, err := os.ReadFile(filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)))
	if err != nil || string(out) != "prolog-first\n" {
		t.Errorf("job output = %q (%v), want the prolog to have run first", out, err)
	}
	node := j.BatchHost
	common := map[string]string{
		"SLURM_JOB_ID": fmt.Sprint(id), "SLURM_JOBID": fmt.Sprint(id), "SLURM_JOB_UID": u.Uid,
		"SLURM_JOB_GID": u.Gid, "SLURM_JOB_USER": u.Username, "SLURM_CLUSTER_NAME": "orbit-test",
	}
	pro := waitEnvFile(t, filepath.Join(dir, fmt.Sprintf("prolog.%d.%s", id, node)))
	wantEnv(t, "Prolog", pro, common)
	wantEnv(t, "Prolog", pro, map[string]string{
		"SLURMD_NODENAME": node, "SLURM_SCRIPT_CONTEXT": "prolog_slurmd", "SLURM_NODELIST": node,
		"SLURM_JOB_PARTITION": "debug", "SLURM_JOB_ACCOUNT": "acct1", "SLURM_CONF": c.ConfPath,
		"SLURM_JOB_WORK_DIR": c.WorkDir, "SLURM_UID": u.Uid, "SLURM_JOB_NUM_NODES": "1",
		"SLURM_JOB_CPUS_PER_NODE": "1", "SLURM_JOB_RESTART_COUNT": "0",
	})
	if v, ok := pro["SLURM_JOB_NAME"]; ok {
		t.Errorf("Prolog: SLURM_JOB_NAME=%q set; slurmd's prolog does not get it", v)
	}
	epi := waitEnvFile(t, filepath.Join(dir, fmt.Sprintf("epilog.%d.%s", id, node)))
	wantEnv(t, "Epilog", epi, common)
	wantEnv(t, "Epilog", epi, map[string]string{"SLURMD_NODENAME": node, "SLURM_SCRIPT_CONTEXT": "epilog_slurmd"})

	pc := waitEnvFile(t, filepath.Join(dir, fmt.Sprintf("prolog_slurmctld.%d.ctld", id)))
	wantEnv(t, "PrologSlurmctld", pc, common)
	wantEnv(t, "PrologSlurmctld", pc, map[string]string{
		"SLURM_SCRIPT_CONTEXT": "prolog_slurmctld", "SLURM_JOB_NAME": "e2e_prolog", "SLURM_JOB_NODELIST": node,
		"SLURM_JOB_PARTITION": "debug", "SLURM_JOB_ACCOUNT": "acct1",
	})
	ec := waitEnvFile(t, filepath.Join(dir, fmt.Sprintf("epilog_slurmctld.%d.ctld", id)))
	wantEnv(t, "EpilogSlurmctld", ec, map[string]string{
		"SLURM_SCRIPT_CONTEXT": "epilog_slurmctld", "SLURM_JOB_EXIT_CODE": "0", "SLURM_JOB_EXIT_CODE2": "0:0",
	})
	// A successful prolog and epilog leave the nodes in service.
	for _, n := range c.Nodes(t) {
		if st := states.NodeState(n.State); st.Has(states.NodeDrain) {
			t.Errorf("node %s is %s (%q) after a good prolog and epilog", n.Name, st, n.Reason)
		}
	}
}

func TestProlog_FailureDrainsNodeAndHoldsJob(t *testing.T) {
	dir := scriptDir(t, map[string]string{"prolog.sh": "#!/bin/bash\necho prolog says no\nexit 3\n"})
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "Prolog=" + dir + "/prolog.sh\n"})
	marker := filepath.Join(c.WorkDir, "ran")
	script := writeScript(t, c, "never.sh", "#!/bin/bash\ntouch "+marker+"\n")
	id := submit(t, c, "-J", "e2e_pfail", script)

	n := waitDrained(t, c, "n1")
	if n.Reason != "Prolog error" {
		t.Errorf("node reason = %q, want %q", n.Reason, "Prolog error")
	}
	deadline := time.Now().Add(30 * time.Second)
	var j *wire.JobInfo
	for {
		j = c.Job(t, id)
		if j != nil && states.JobState(j.State) == states.JobPending && j.StateDesc != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d not requeued held: %+v", id, j)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if j.StateDesc != "launch failed requeued held" || j.Priority != 0 || j.Restarts != 1 {
		t.Errorf("job: desc %q priority %d restarts %d, want launch failed requeued held, 0, 1", j.StateDesc, j.Priority, j.Restarts)
	}
	out, _, code := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(id), "-o", "%T %r")
	if code != 0 || out != "PENDING launch failed requeued held\n" {
		t.Errorf("squeue = %q (exit %d)", out, code)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the job script ran although its prolog failed")
	}
}

func TestProlog_NoRequeueCancelsJob(t *testing.T) {
	dir := scriptDir(t, map[string]string{"prolog.sh": "#!/bin/bash\nexit 1\n"})
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "Prolog=" + dir + "/prolog.sh\n"})
	script := writeScript(t, c, "never.sh", "#!/bin/bash\ntrue\n")
	id := submit(t, c, "--no-requeue", script)
	c.WaitJob(t, id, states.JobCancelled)
	if n := waitDrained(t, c, "n1"); n.Reason != "Prolog error" {
		t.Errorf("node reason = %q, want Prolog error", n.Reason)
	}
}

func TestEpilog_FailureDrainsNode(t *testing.T) {
	dir := scriptDir(t, map[string]string{"epilog.sh": "#!/bin/bash\nexit 2\n"})
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "Epilog=" + dir + "/epilog.sh\n"})
	script := writeScript(t, c, "ok.sh", "#!/bin/bash\necho fine\n")
	id := submit(t, c, script)
	c.WaitJob(t, id, states.JobComplete)
	if n := waitDrained(t, c, "n1"); n.Reason != "Epilog error" {
		t.Errorf("node reason = %q, want Epilog error", n.Reason)
	}
}

func TestPrologSlurmctld_FailureRequeuesJob(t *testing.T) {
	dir := scriptDir(t, map[string]string{"pctld.sh": "#!/bin/bash\nexit 1\n"})
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, ExtraConf: "PrologSlurmctld=" + dir + "/pctld.sh\n"})
	marker := filepath.Join(c.WorkDir, "ran")
	script := writeScript(t, c, "never.sh", "#!/bin/bash\ntouch "+marker+"\n")
	id := submit(t, c, script)
	deadline := time.Now().Add(30 * time.Second)
	for {
		j := c.Job(t, id)
		if j != nil && states.JobState(j.State) == states.JobPending && j.Restarts == 1 {
			if r := states.Reason(j.Reason); r != states.WaitTime {
				t.Errorf("requeued job's reason = %v, want BeginTime", r)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d not requeued: %+v", id, j)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the job script ran although PrologSlurmctld failed")
	}
}

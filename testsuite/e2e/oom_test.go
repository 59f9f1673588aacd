package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// oomCluster is a one-node cluster with task/cgroup confining memory, or a skip where this
// machine cannot create memory cgroups (not root, read-only hierarchy).
func oomCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	if err := stepd.CgroupAvailable(""); err != nil {
		t.Skipf("memory cgroups are not writable here: %v", err)
	}
	return cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, InProcess: true,
		TaskPlugin: "task/cgroup", CgroupConf: "ConstrainRAMSpace=yes\n"})
}

// hog needs 300 MiB: tail keeps the whole newline-free line in memory.
const hog = "head -c 300M /dev/zero | tail >/dev/null"

// waitFileContains waits (bounded) until path holds every one of want.
func waitFileContains(t *testing.T, path string, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(string(b), w)
		}
		if ok {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q; want it to contain %q", path, b, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestOOM_BatchJobEndsOutOfMemory(t *testing.T) {
	c := oomCluster(t)
	script := writeScript(t, c, "hog.sh", "#!/bin/bash\n"+hog+"\n")
	id := submit(t, c, "--mem=20M", "-o", "out.%j", script)
	j := c.WaitJob(t, id, states.JobOOM, states.JobComplete, states.JobFailed)
	if st := states.JobState(j.State).Base(); st != states.JobOOM {
		t.Errorf("job %d ended %v, want OUT_OF_MEMORY", id, st)
	}
	if rc, sig := j.ExitCode>>8&0xff, j.ExitCode&0x7f; rc != 0 || sig != 125 {
		t.Errorf("ExitCode = %d:%d, want 0:125", rc, sig)
	}
	out := waitFileContains(t, filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)), "oom-kill")
	if !oomLine(id, "batch").MatchString(out) {
		t.Errorf("job output %q lacks slurmstepd's oom-kill line", out)
	}
	out, _, code := c.Run(t, "squeue", "-h", "-t", "all", "-j", fmt.Sprint(id), "-o", "%T")
	if code != 0 || out != "OUT_OF_MEMORY\n" {
		t.Errorf("squeue -o %%T = %q (exit %d), want OUT_OF_MEMORY", out, code)
	}
	assertCgroupGone(t, id)
}

func TestOOM_SrunStepReportsOutOfMemory(t *testing.T) {
	c := oomCluster(t)
	srun := testbin.Path(t, "srun")
	// Orbit's srun refuses --mem, also as sbatch's SLURM_MEM_PER_NODE (srun/options.go
	// refuseUnhonoured): unset here; the node takes the limit from the job's batch launch.
	script := writeScript(t, c, "srun_hog.sh", fmt.Sprintf("#!/bin/bash\nunset SLURM_MEM_PER_NODE\n%s /bin/sh -c '%s'\necho srun exit $?\n", srun, hog))
	id := submit(t, c, "--mem=20M", "-o", "out.%j", script)
	c.WaitJob(t, id, states.JobComplete, states.JobFailed, states.JobOOM)
	out := waitFileContains(t, filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)), "oom-kill",
		"srun: error: n1: task 0: Out Of Memory\n", "srun exit 1\n")
	loc := oomLine(id, "0").FindStringIndex(out)
	if loc == nil || loc[0] > strings.Index(out, "srun: error:") {
		t.Errorf("job output lacks slurmstepd's oom-kill line before srun's report:\n%s", out)
	}
	// The batch step has its own cgroup, which saw no oom-kill: the job ends as its script.
	if j := c.Job(t, id); j != nil && states.JobState(j.State).Base() != states.JobComplete {
		t.Errorf("job ended %v, want COMPLETED (the script's last command succeeded)", states.JobState(j.State).Base())
	}
	assertCgroupGone(t, id)
}

// TestOOM_NoLimitWithoutMemoryRequest: a job that asked for no memory (and no DefMemPer*
// is configured) is not limited, so the same allocation succeeds.
func TestOOM_NoLimitWithoutMemoryRequest(t *testing.T) {
	c := oomCluster(t)
	script := writeScript(t, c, "fits.sh", "#!/bin/bash\nhead -c 60M /dev/zero | tail >/dev/null && echo fine\n")
	id := submit(t, c, "-o", "out.%j", script)
	j := c.WaitJob(t, id, states.JobOOM, states.JobComplete, states.JobFailed)
	if st := states.JobState(j.State).Base(); st != states.JobComplete {
		t.Errorf("job %d ended %v, want COMPLETED", id, st)
	}
	waitFileContains(t, filepath.Join(c.WorkDir, fmt.Sprintf("out.%d", id)), "fine\n")
}

// oomLine is slurmstepd's line for step job.step; the count is the kernel's (the shell's
// pipeline may lose more than one process).
func oomLine(job uint32, step string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^slurmstepd-n1: error: Detected [1-9][0-9]* oom-kill event\(s\) in StepId=%d\.%s\. `+
		`Some of your processes may have been killed by the cgroup out-of-memory handler\.$`, job, step))
}

// assertCgroupGone checks that the job's cgroup was removed after its steps (bounded: the
// stepd removes it after reporting).
func assertCgroupGone(t *testing.T, id uint32) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for _, base := range []string{"/sys/fs/cgroup/memory/orbit_n1", "/sys/fs/cgroup/orbit_n1"} {
		dir := filepath.Join(base, fmt.Sprintf("job_%d", id))
		for {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("cgroup %s still exists after the job ended", dir)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

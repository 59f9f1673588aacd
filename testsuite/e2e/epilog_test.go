package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// gatedEpilog writes dir/epilog.sh, an Epilog that waits until the file release exists and
// then writes dir/epilog.JOBID. Bounded: it gives up after 60 s rather than hang the cluster.
func gatedEpilog(t *testing.T) (dir, release string) {
	t.Helper()
	dir = scriptDir(t, nil)
	release = filepath.Join(dir, "release")
	epilog := fmt.Sprintf("#!/bin/bash\nfor i in $(seq 600); do [ -e %s ] && break; /bin/sleep 0.1; done\n"+
		"echo done > %s/epilog.$SLURM_JOB_ID\n", release, dir)
	if err := os.WriteFile(filepath.Join(dir, "epilog.sh"), []byte(epilog), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, release
}

// TestEpilog_JobCompletesAfterEpilog: with a slow Epilog, the ended job stays COMPLETING
// (squeue CG) and keeps its node until the epilog finished; a job waiting for that node
// starts only then. The epilog waits for a file the test writes, so the order does not
// depend on timing.
func TestEpilog_JobCompletesAfterEpilog(t *testing.T) {
	dir, release := gatedEpilog(t)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 1, InProcess: true,
		ExtraConf: "Epilog=" + dir + "/epilog.sh\n"})
	first := submit(t, c, "-o", "/dev/null", writeScript(t, c, "first.sh", "#!/bin/bash\ntrue\n"))
	waitSqueue(t, c, "CG\n", "-h", "-j", fmt.Sprint(first), "-o", "%t") // array_depend_test.go
	second := submit(t, c, "-o", "second.out", writeScript(t, c, "second.sh",
		fmt.Sprintf("#!/bin/bash\nif [ -e %s/epilog.%d ]; then echo after-epilog; else echo before-epilog; fi\n", dir, first)))

	// While the epilog runs, the first job is COMPLETING and the second job cannot start.
	// (Slurm also flags the node COMPLETING; Orbit's node display, slurmctld/ctld/tables.go
	// displayState, shows it ALLOCATED by the completing job.)
	if out, _, code := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(second), "-o", "%t"); code != 0 || out != "PD\n" {
		t.Errorf("second job while the epilog runs: squeue %%t = %q (exit %d), want PD", out, code)
	}
	if out, _, code := c.Run(t, "squeue", "-h", "-j", fmt.Sprint(first), "-o", "%t"); code != 0 || out != "CG\n" {
		t.Errorf("first job while the epilog runs: squeue %%t = %q (exit %d), want CG", out, code)
	}

	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if j := c.WaitJob(t, first, states.JobComplete); j.ExitCode != 0 {
		t.Errorf("first job ExitCode status %d, want 0", j.ExitCode)
	}
	c.WaitJob(t, second, states.JobComplete)
	out, err := os.ReadFile(filepath.Join(c.WorkDir, "second.out"))
	if err != nil || string(out) != "after-epilog\n" {
		t.Errorf("second job's output = %q (%v), want it to start after the first job's epilog", out, err)
	}
}

// TestEpilog_CompleteWait: with CompleteWait, nothing is scheduled while a job that ended
// less than that long ago is still completing, even where CPUs are free (Slurm's
// job_is_completing): the second job starts only once the first job's epilog is done.
func TestEpilog_CompleteWait(t *testing.T) {
	dir, release := gatedEpilog(t)
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2, InProcess: true,
		ExtraConf: "Epilog=" + dir + "/epilog.sh\nCompleteWait=60\n"})
	first := submit(t, c, "-n1", "-o", "/dev/null", writeScript(t, c, "first.sh", "#!/bin/bash\ntrue\n"))
	waitSqueue(t, c, "CG\n", "-h", "-j", fmt.Sprint(first), "-o", "%t")
	second := submit(t, c, "-n1", "-o", "second.out", writeScript(t, c, "second.sh",
		fmt.Sprintf("#!/bin/bash\nif [ -e %s/epilog.%d ]; then echo after-epilog; else echo before-epilog; fi\n", dir, first)))
	// The node's second CPU is free: only CompleteWait keeps the second job pending. Give the
	// scheduler time to (wrongly) start it before the epilog is released.
	time.Sleep(2 * time.Second)
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.WaitJob(t, first, states.JobComplete)
	c.WaitJob(t, second, states.JobComplete)
	out, err := os.ReadFile(filepath.Join(c.WorkDir, "second.out"))
	if err != nil || string(out) != "after-epilog\n" {
		t.Errorf("second job's output = %q (%v): it started while the first job was completing, within CompleteWait", out, err)
	}
}

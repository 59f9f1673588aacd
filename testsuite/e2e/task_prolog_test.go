package e2e_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/orbit-hpc/orbit/compat/states"
	"github.com/orbit-hpc/orbit/internal/testbin"
	"github.com/orbit-hpc/orbit/testsuite/cluster"
)

// TestTaskProlog checks slurm.conf's TaskProlog and TaskEpilog and srun's --task-prolog and
// --task-epilog as Slurm 22.05 runs them (the reference shows the same for --task-prolog):
// before every task, the batch script included, as the job's user in the task's
// environment, whose "export"/"unset" lines change that environment and whose "print" lines
// go to the task's output; a failing prolog ends the task with its status; the epilogs run
// as each task ends.
func TestTaskProlog(t *testing.T) {
	testbin.Path(t, "srun")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prolog := write("taskprolog.sh", "#!/bin/sh\necho \"export SITE_SCRATCH=/scratch/$SLURM_JOB_ID\"\necho unset SITE_DROP\necho 'print site prolog'\n")
	epilog := write("taskepilog.sh", "#!/bin/sh\ntouch \""+dir+"/epilog.$SLURM_JOB_ID.${SLURM_STEP_ID:-batch}.$SLURM_PROCID\"\n")
	userProlog := write("user.sh", "#!/bin/sh\necho 'export USER_VAR=from user prolog'\n")
	failing := write("fail.sh", "#!/bin/sh\nexit 3\n")
	c := cluster.Start(t, cluster.Options{Nodes: 1, CPUsPerNode: 2,
		ExtraConf: "TaskProlog=" + prolog + "\nTaskEpilog=" + epilog + "\n"})
	script := writeScript(t, c, "tp.sh", `#!/bin/bash
#SBATCH -n2 -o tp.out
export SITE_DROP=kept
echo "batch: $SITE_SCRATCH ${SITE_DROP:-unset} $SLURM_SCRIPT_CONTEXT"
srun bash -c 'echo "step: $SITE_SCRATCH ${SITE_DROP:-unset}"' | sort
srun -n1 --task-prolog=`+userProlog+` bash -c 'echo "user: $USER_VAR"'
srun -n1 --task-prolog=`+failing+` true
echo "failed prolog: $?"
`)
	id := submit(t, c, script)
	if j := c.WaitJob(t, id, states.JobComplete, states.JobFailed); states.JobState(j.State).Base() != states.JobComplete {
		b, _ := os.ReadFile(filepath.Join(c.WorkDir, "tp.out"))
		t.Fatalf("job ended %s:\n%s", states.JobState(j.State), b)
	}
	b, _ := os.ReadFile(filepath.Join(c.WorkDir, "tp.out"))
	jid := strconv.FormatUint(uint64(id), 10)
	want := "site prolog\nbatch: /scratch/" + jid + " kept prolog_task\n" +
		"site prolog\nsite prolog\nstep: /scratch/" + jid + " unset\nstep: /scratch/" + jid + " unset\n" +
		"site prolog\nuser: from user prolog\n"
	got := string(b)
	if !strings.HasPrefix(got, want) {
		t.Errorf("job output:\n%s\nwant it to start:\n%s", got, want)
	}
	if !strings.Contains(got, "slurmstepd-n1: error: --task-prolog failed status=3\n") ||
		!strings.Contains(got, "srun: error: n1: task 0: Exited with exit code 3\n") || !strings.HasSuffix(got, "failed prolog: 3\n") {
		t.Errorf("job output:\n%s\nwant the failed --task-prolog's status 3", got)
	}
	for _, f := range []string{"batch.0", "0.0", "0.1", "1.0"} {
		name := filepath.Join(dir, "epilog."+jid+"."+f)
		if _, err := os.Stat(name); err != nil {
			t.Errorf("TaskEpilog did not run for %s: %v", f, err)
		}
	}
}

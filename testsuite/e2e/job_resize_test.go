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

// TestScontrolShrinkJob: a running job script shrinks its own allocation with scontrol
// update NumNodes=1: scontrol writes the resize files (mode 0700) and says how to use them,
// a step then runs on the node kept, scontrol show job has the new size and ResizeTime, and
// growing the job back is not supported (Slurm's test2.14; the reference's output for the
// same script, but the last line, where the reference's accounting interfered).
func TestScontrolShrinkJob(t *testing.T) {
	testbin.Path(t, "srun")
	testbin.Path(t, "scontrol") // the script's, on the cluster's PATH
	c := cluster.Start(t, cluster.Options{Nodes: 2, CPUsPerNode: 2, InProcess: true})
	script := writeScript(t, c, "resize.sh", `#!/bin/bash
srun -l true
scontrol update JobId=$SLURM_JOB_ID NumNodes=1
echo rc=$?
cat slurm_job_${SLURM_JOB_ID}_resize.sh
cat slurm_job_${SLURM_JOB_ID}_resize.csh
stat -c %a slurm_job_${SLURM_JOB_ID}_resize.sh
. ./slurm_job_${SLURM_JOB_ID}_resize.sh
echo NN=$SLURM_NNODES NL=$SLURM_JOB_NODELIST
srun -l hostname -s | sed 's/:.*/: host/'
scontrol show job $SLURM_JOB_ID | grep -o "NumNodes=[^ ]*\|NumCPUs=[^ ]*\|NodeList=n[^ ]*\|ResizeTime=" 
scontrol update JobId=$SLURM_JOB_ID NumNodes=2; echo rc=$?
`)
	id := submit(t, c, "-N2", "-n2", "-o", "resize.out", script)
	c.WaitJob(t, id, states.JobComplete)
	j := strconv.Itoa(int(id))
	want := "To reset Slurm environment variables, execute\n" +
		"  For bash or sh shells:  . ./slurm_job_" + j + "_resize.sh\n" +
		"  For csh shells:         source ./slurm_job_" + j + "_resize.csh\n" +
		"rc=0\n" +
		"export SLURM_NODELIST=\"n1\"\nexport SLURM_JOB_NODELIST=\"n1\"\nexport SLURM_NNODES=1\nexport SLURM_JOB_NUM_NODES=1\n" +
		"export SLURM_JOB_CPUS_PER_NODE=\"1\"\nunset SLURM_NPROCS\nunset SLURM_NTASKS\nunset SLURM_TASKS_PER_NODE\n" +
		"setenv SLURM_NODELIST \"n1\"\nsetenv SLURM_JOB_NODELIST \"n1\"\nsetenv SLURM_NNODES 1\nsetenv SLURM_JOB_NUM_NODES 1\n" +
		"setenv SLURM_JOB_CPUS_PER_NODE \"1\"\nunsetenv SLURM_NPROCS\nunsetenv SLURM_NTASKS\nunsetenv SLURM_TASKS_PER_NODE\n" +
		"700\nNN=1 NL=n1\n0: host\nResizeTime=\nNodeList=n1\nNumNodes=1\nNumCPUs=1\n" +
		"Requested operation not supported on this system for job " + j + "\nrc=1\n"
	out, _ := os.ReadFile(filepath.Join(c.WorkDir, "resize.out"))
	if string(out) != want {
		t.Errorf("job output:\n%s\nwant:\n%s", out, want)
	}
	if _, err := os.Stat(filepath.Join(c.WorkDir, "slurm_job_"+j+"_resize.sh")); err != nil || !strings.HasPrefix(string(out), "To reset") {
		t.Errorf("resize file: %v", err)
	}
}
